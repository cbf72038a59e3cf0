// The settlement: the result of a hand (the winning hand, its fans or 温州's multiplier, the beans), and the
// match's final scores.

import { countdownEl, nextHand, tickCountdown } from "./countdown.js";
import { pick, t } from "./i18n.js";
import { resultButton } from "./match-result.js";
import { openReplay, openReview, toLobby } from "./nav.js";
import { net } from "./socket.js";
import { nameOf, roomOf, S } from "./state.js";
import { parseHand, parseTiles, sortTiles, tileImg } from "./tiles.js";
import { btn, el } from "./ui.js";

/** A hand as the result shows it; 温州's 财神 (`caishen`) glow. */
function handEl(text, caishen = null) {
  const h = parseHand(text);
  const box = el("div", "showhand");
  const img = (x) => tileImg(x, x === caishen ? "sm caishen" : "sm");
  for (const m of h.melds) {
    const g = el("span", "meld");
    m.tiles.forEach((x) => g.appendChild(img(x)));
    box.appendChild(g);
  }
  const row = el("span", "tilerow");
  sortTiles(h.concealed).forEach((x) => row.appendChild(img(x)));
  box.appendChild(row);
  if (h.win) {
    const w = el("span", "wintile");
    w.appendChild(tileImg(h.win, "sm glow"));
    box.appendChild(w);
  }
  return box;
}

export function renderSettle() {
  const msg = S.end;
  const root = el("section", `settle${S.settleShown === msg ? "" : " enter"}`);
  S.settleShown = msg;
  root.dataset.testid = "settlement";
  if (S.match?.over) root.appendChild(matchOverEl());
  else root.appendChild(countdownEl());
  if (!msg) {
    root.appendChild(btn(t("back_lobby"), "go", () => {
      S.match = null;
      toLobby();
    }, "lobby"));
    return root;
  }
  const r = msg.result;
  const me = S.match?.seat ?? 0;
  let title;
  let cls;
  if (r.reason === "win") {
    title = r.winner === me ? t("you_win") : t("you_lose");
    cls = r.winner === me ? "won" : "lost";
  } else if (r.reason === "escape") {
    title = t("reason_escape", { who: nameOf(r.escaper ?? 0) });
    cls = "lost";
  } else {
    title = t("draw_game");
    cls = "drawn";
  }
  const head = el("div", `settle-head ${cls}`);
  head.appendChild(el("h2", "", title));
  const wenzhou = r.multiplier !== undefined;
  if (r.reason === "win") {
    // a win on a discard: 接炮 for the winner, 点炮 (dealt in) for the one who discarded it
    const onDiscard = r.winner === me ? t("by_discard_won") : t("by_discard_lost");
    const how = { self: t("by_self"), discard: onDiscard, rob: t("by_rob"), haidi: t("by_haidi") }[r.how] || r.how;
    head.appendChild(el("div", "how", `${nameOf(r.winner)} · ${how}`));
    if (wenzhou) {
      // 温州: the multiplier M (软 ×1, 硬 ×2, 双翻 ×4) is the headline of the win
      const mult = el("div", `multiplier grade-${r.grade}`);
      mult.dataset.testid = "multiplier";
      mult.appendChild(el("b", "", `×${r.multiplier}`));
      mult.appendChild(el("span", "", t(`grade_${r.grade}`)));
      head.appendChild(mult);
    }
  }
  root.appendChild(head);

  if (r.reason === "win") {
    root.appendChild(el("h3", "", t("win_hand")));
    root.appendChild(handEl(r.hand, S.view?.caishen));
    const table = el("table", "fans");
    table.dataset.testid = "fans";
    const thead = el("tr");
    thead.append(el("th", "", t(wenzhou ? "reason" : "fan")), el("th", "fan-tiles", ""), el("th", "num", t(wenzhou ? "mult" : "fan_count")));
    table.appendChild(thead);
    const fans = r.fans || [];
    // 温州 lists every reason for the multiplier; the highest one alone sets it (the others, equal ones too,
    // are muted: two ×2 rows read as ×4 to a new player)
    const sets = wenzhou ? fans.find((f) => f.points === r.multiplier) : null;
    for (const f of fans) {
      const tr = el("tr", wenzhou && f !== sets ? "minor" : "");
      tr.appendChild(el("td", "fan-name", pick(f)));
      const tiles = el("td", "fan-tiles");
      for (const group of (f.tiles || []).flatMap((x) => String(x).split(/\s+/)).filter(Boolean)) {
        const g = el("span", "group");
        parseTiles(group).forEach((x) => g.appendChild(tileImg(x, "xs")));
        tiles.appendChild(g);
      }
      tr.appendChild(tiles);
      const num = wenzhou ? `×${f.points}` : f.count > 1 ? `${f.points}×${f.count}` : String(f.points);
      tr.appendChild(el("td", "num", num));
      table.appendChild(tr);
    }
    const lines = [];
    if (wenzhou) {
      // P = B × M × (1 + m), then 财神钱 and kong money (RULES §3.7)
      if (fans.length > 1) lines.push(["sum mult-note", t("mult_highest")]);
      let formula = `${t("base", { n: r.base })} × ${r.multiplier}`;
      if (r.maidi) formula += ` × ${1 + r.maidi} (${t("maidi")}/${t("dingdi")})`;
      lines.push(["", `${formula} = ${r.win_points}`]);
      if (r.caishen_money) lines.push(["", `${t("caishen_money")} ${r.caishen_money > 0 ? "+" : ""}${r.caishen_money}`]);
      const kong = r.kong_money?.[r.winner];
      if (kong) lines.push(["", `${t("kong_money")} ${kong > 0 ? "+" : ""}${kong}`]);
      lines.push(["total", t("total_wz", { n: r.deltas?.[r.winner] ?? r.points })]);
    } else {
      const cap = roomOf(msg.room || S.match?.room)?.fan_cap;
      let text = t("total", { n: r.fan_total });
      if (r.points < r.fan_total) text += ` → ${t("capped", { n: r.points })}`;
      else if (cap) text += ` (${t("cap", { n: cap })})`;
      lines.push(["total", text]);
    }
    for (const [cls, text] of lines) {
      const tr = el("tr", cls || "sum");
      const td = el("td", "", text);
      td.colSpan = 3;
      tr.appendChild(td);
      table.appendChild(tr);
    }
    root.appendChild(table);
  }

  const beans = el("div", "beanchange");
  beans.dataset.testid = "beans";
  beans.appendChild(el("h3", "", t("bean_change")));
  for (const i of [me, 1 - me]) {
    // the actual change (a payer never pays more than it staked); older servers: deltas × rate
    const d = msg.beans?.[i] ?? (r.deltas?.[i] ?? 0) * (msg.bean_rate ?? 1);
    const line = el("div", `beanline ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`);
    line.append(el("span", "who", nameOf(i)), el("span", "delta", `${d > 0 ? "+" : ""}${d}`));
    // only your own balance: the opponent's (a bot's float, or a person's purse) is not yours to read
    if (i === me) line.append(el("span", "bal", `${t("balance")} ${msg.balances?.[i] ?? "?"}`));
    beans.appendChild(line);
  }
  root.appendChild(beans);

  if (r.hands) {
    const hands = el("details", "hands");
    hands.addEventListener("toggle", () => tickCountdown()); // reviewing both hands pauses the countdown
    hands.appendChild(el("summary", "", t("hands")));
    r.hands.forEach((h, i) => {
      const line = el("div", "handline");
      line.appendChild(el("span", "who", nameOf(i)));
      line.appendChild(handEl(h, S.view?.caishen));
      hands.appendChild(line);
    });
    // the seed explained, not a bare hex string: a short code to quote (records.md: erma replay --verify)
    const code = (msg.seed || "").slice(0, 8).replace(/(.{4})(?=.)/, "$1 ");
    if (code) hands.appendChild(el("div", "seed muted", t("verify", { s: code })));
    root.appendChild(hands);
  }

  const row = el("div", "row end-actions");
  if (!S.match?.over) row.appendChild(btn(t("next_hand"), "go", nextHand, "next-hand"));
  if (msg.record_id !== undefined && msg.record_id !== null) {
    row.appendChild(btn(t("replay"), "", () => openReplay(msg.record_id), "replay"));
    row.appendChild(btn(t("review"), "", () => openReview(msg.record_id), "review-open"));
  }
  row.appendChild(btn(t("back_lobby"), "ghost", () => {
    if (S.match && !S.match.over) net.send({ type: "leave", match: S.match.id });
    S.match = null;
    toLobby();
  }, "lobby"));
  root.appendChild(row);
  return root;
}

/** The match is over: the final scores (match_end.scores, per seat) and the way back. */
function matchOverEl() {
  const box = el("div", "match-over");
  box.dataset.testid = "match-over";
  box.appendChild(el("h2", "", t("match_over_title")));
  const me = S.match?.seat ?? 0;
  if (S.scores) {
    box.appendChild(el("div", "muted", t("final_scores")));
    const row = el("div", "scores");
    for (const i of [me, 1 - me]) {
      const v = S.scores[i] ?? 0;
      const line = el("div", `scoreline ${v > 0 ? "plus" : v < 0 ? "minus" : ""}`);
      line.append(el("span", "who", nameOf(i)), el("b", "", `${v > 0 ? "+" : ""}${v}`));
      row.appendChild(line);
    }
    box.appendChild(row);
  }
  if (S.result) box.appendChild(resultButton()); // the match's result screen (every hand, rematch)
  return box;
}
