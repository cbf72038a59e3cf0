// The lobby: sign-in, the account, the rooms by rule set with the bot's level, the history.

import { signedIn } from "./account.js";
import { api } from "./api.js";
import { friendCardEl } from "./friend.js";
import { errorText, pick, playerName, t } from "./i18n.js";
import { openReplay, openReview, openRules } from "./nav.js";
import { logOut } from "./logout.js";
import { escapeText } from "./match-log.js";
import { offlineEl } from "./pwa.js";
import { upgradeEl } from "./upgrade.js";
import { net } from "./socket.js";
import { unlock } from "./sound.js";
import { render, roomOf, S } from "./state.js";
import { tileRow } from "./tiles.js";
import { tutorialOffer } from "./tutorial.js";
import { btn, el, toast } from "./ui.js";

export function renderLobby() {
  const root = el("section", "lobby");
  root.dataset.testid = "lobby";
  const hero = el("div", S.account ? "hero compact" : "hero");
  if (S.account) root.classList.add("signed");
  hero.appendChild(tileRow(["1m", "5p", "9s", "7z", "6z"], "hero-tile"));
  hero.appendChild(el("h1", "", t("title")));
  hero.appendChild(el("p", "tagline", t("tagline")));
  root.appendChild(hero);
  if (S.offline) root.appendChild(offlineEl()); // the server cannot be reached (pwa.js)

  if (!S.account) {
    const card = el("div", "card login");
    card.appendChild(btn(t("guest"), "go huge", async () => signedIn(await api.guest()), "guest"));
    const form = el("form", "loginform");
    form.innerHTML = `<input name="name" autocomplete="username" placeholder="${t("name")}" required maxlength="32">
      <input name="password" type="password" autocomplete="current-password" placeholder="${t("password")}" required>`;
    const submit = async (kind) => {
      const name = form.elements.name.value.trim();
      const password = form.elements.password.value;
      if (!name || !password) return;
      try {
        signedIn(kind === "login" ? await api.login(name, password) : await api.register(name, password));
      } catch (err) {
        toast(errorText(err.code, err.message));
      }
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      submit("login");
    });
    const row = el("div", "row");
    row.appendChild(btn(t("login"), "", () => submit("login"), "login"));
    row.appendChild(btn(t("register"), "ghost", () => submit("register"), "register"));
    form.appendChild(row);
    card.appendChild(form);
    root.appendChild(card);
    return root;
  }

  const acct = el("div", "card account");
  acct.dataset.testid = "account";
  acct.appendChild(el("div", "acct-name", S.account.name + (S.account.guest ? ` · ${t("guest_badge")}` : "")));
  const bal = el("div", "balance");
  bal.innerHTML = `<i class="bean big"></i><b data-testid="balance">${S.balance ?? "…"}</b><small>${t("beans")}</small>`;
  acct.appendChild(bal);
  const row = el("div", "row");
  row.appendChild(
    btn(t("relief"), "ghost", async () => {
      try {
        const r = await api.relief();
        S.balance = r.balance;
        toast(r.granted ? t("relief_ok", { n: r.granted }) : t("relief_no"));
        render();
      } catch (err) {
        toast(errorText(err.code, err.message));
      }
    }, "relief"),
  );
  row.appendChild(btn(t("logout"), "ghost", logOut, "logout")); // a guest is asked first (logout.js)
  acct.appendChild(row);

  if (S.queued) {
    const q = el("div", "card queued");
    q.dataset.testid = "queued";
    q.appendChild(el("div", "spinner"));
    q.appendChild(el("span", "", t("queued", { n: S.queued.bot_after_s ?? "?" })));
    q.appendChild(btn(t("cancel"), "ghost", () => net.send({ type: "cancel" })));
    root.appendChild(q);
  }

  const rooms = el("div", "card rooms");
  const head = el("div", "rooms-head");
  head.appendChild(el("h2", "", t("rooms")));
  // 人机对战: the bot's level (1 novice … 5 expert; "auto": the level nearest the player's rating)
  const level = document.createElement("select");
  level.className = "bot-level";
  level.dataset.testid = "bot-level";
  level.setAttribute("aria-label", t("bot_level"));
  for (const v of ["", "1", "2", "3", "4", "5"]) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v ? t(`bot_level_${v}`) : t("bot_level_auto");
    if (v) o.title = t(`bot_level_hint_${v}`); // how the level plays (docs/bots.md, "The levels")
    level.appendChild(o);
  }
  level.value = localStorage.getItem("erma.botLevel") || "";
  // the chosen level's line, shown under the heading (a phone shows no title); none for "auto"
  const line = el("p", "bot-level-hint");
  line.id = line.dataset.testid = "bot-level-hint";
  line.setAttribute("aria-live", "polite");
  level.setAttribute("aria-describedby", line.id);
  const hint = () => {
    line.textContent = level.title = level.value ? t(`bot_level_hint_${level.value}`) : "";
    line.hidden = !level.value;
  };
  hint();
  level.addEventListener("change", () => {
    localStorage.setItem("erma.botLevel", level.value);
    hint();
  });
  const label = el("label", "bot-level-label", t("bot_level"));
  label.appendChild(level);
  head.append(label, line);
  rooms.appendChild(head);
  const byRules = {};
  for (const r of S.rooms) (byRules[r.rules] ||= []).push(r);
  const grid = el("div", "rooms-grid");
  rooms.appendChild(grid);
  for (const [rules, list] of Object.entries(byRules)) {
    const group = el("div", "rulegroup");
    const h = el("h3", "");
    h.appendChild(el("span", "", t(`rules_${rules}`)));
    const link = btn(t("rules_page"), "ghost small rules-link", () => openRules(rules), "rules-link");
    link.dataset.rules = rules;
    h.appendChild(link);
    group.appendChild(h);
    for (const r of list) {
      const card = el("div", `room tier-${r.tier}`);
      card.dataset.room = r.id;
      card.appendChild(el("div", "room-name", pick(r)));
      const meta = el("div", "room-meta");
      const tier = t(`tier_${r.tier}`);
      meta.textContent = [tier.startsWith("tier_") ? "" : tier, t("entry", { n: r.entry_min }), ...(r.rules === "wenzhou2p" ? [t("rate_wz", { n: r.bean_rate })] : [t("rate", { n: r.bean_rate }), r.fan_cap ? t("cap", { n: r.fan_cap }) : t("no_cap")])].join(" · ");
      card.appendChild(meta);
      const poor = (S.balance ?? 0) < r.entry_min;
      const b1 = btn(t("quick"), "", () => queue(r.id, "any"), "quick");
      const b2 = btn(t("vs_bot"), "go", () => queue(r.id, "bot"), "bot");
      b1.disabled = b2.disabled = poor || Boolean(S.queued);
      const bs = el("div", "row");
      bs.append(b1, b2);
      card.appendChild(bs);
      group.appendChild(card);
    }
    grid.appendChild(group);
  }

  const hist = el("div", "card history");
  hist.appendChild(el("h2", "", t("history")));
  if (!S.games.length) hist.appendChild(el("p", "muted", t("no_history")));
  for (const g of S.games.slice(0, 12)) {
    const line = el("div", "game");
    const sum = g.summary || {};
    const winner = (sum.players || [])[sum.winner];
    const whoWon = winner === S.account?.name ? t("you") : winner ? playerName(winner) : "?";
    const who = escapeText(sum) ?? (sum.winner === null || sum.winner === undefined ? t("draw_game") : `${whoWon} +${sum.points}`);
    const room = roomOf(sum.room);
    line.appendChild(el("span", "when", (g.created || "").replace("T", " ").slice(0, 16)));
    line.appendChild(el("span", "what", `${room ? pick(room) : t(`rules_${sum.rules}`)} · ${who}`));
    line.appendChild(btn(t("replay"), "ghost small", () => openReplay(g.id), "history-replay"));
    line.appendChild(btn(t("review"), "ghost small", () => openReview(g.id), "history-review"));
    hist.appendChild(line);
  }
  const offer = tutorialOffer(); // 新手教程, offered once to a first-time guest: above the rooms on a phone,
  const wide = matchMedia("(min-width: 820px)").matches; // atop the side column on a wide screen
  if (offer && !wide) root.appendChild(offer);
  root.appendChild(rooms);
  const side = el("div", "side");
  side.append(...(offer && wide ? [offer] : []), friendCardEl(), acct, hist); // 好友房 first after the 新手教程 offer
  if (S.account.guest) side.insertBefore(upgradeEl(), hist); // keep the beans: sign up from here (upgrade.js)
  root.appendChild(side);
  return root;
}

function queue(room, opponent) {
  unlock();
  const level = Number(localStorage.getItem("erma.botLevel") || 0);
  net.send({ type: "queue", room, opponent, ...(opponent === "bot" && level ? { level } : {}) });
}
