// The match's result screen (比赛结果): the winner, every hand's line (who won, how, the points; an escape as
// an escape), the total, the beans moved (bean tables), the rating change (rated matches), and 再来一局 /
// Rematch (friend tables, showing who has asked), 复盘 / Review of a hand, back to the lobby.

import { t } from "./i18n.js";
import { handOf } from "./match-log.js";
import { openReview, toLobby } from "./nav.js";
import { net } from "./socket.js";
import { render, nameOf, S } from "./state.js";
import { btn, el } from "./ui.js";

/** match_end (with the log's lines where the server sent none): S.result. */
export function resultFrom(msg) {
  const log = S.log || { lines: [], beans: [0, 0], records: {}, hands: null };
  const scores = msg.scores || log.after || [0, 0];
  const lines = (Array.isArray(msg.lines) ? msg.lines : log.lines).map((l) => ({ ...l, record_id: l.record_id ?? log.records?.[l.hand_no] ?? null }));
  let winner = msg.winner;
  if (winner === undefined) winner = scores[0] > scores[1] ? 0 : scores[1] > scores[0] ? 1 : null;
  return {
    match: msg.match ?? log.match,
    scores,
    hands: msg.hands ?? lines.length,
    length: log.hands,
    lines,
    beans: msg.beans ?? log.beans,
    rating: msg.rating ?? null,
    winner,
    friend: msg.friend ?? Boolean(S.friend),
    stakes: S.friend?.stakes ?? (msg.beans?.some((b) => b) ? "beans" : null),
  };
}

/** After messages.js's match_end: keep the result; a match that ended at the table (no hand's settlement to
 * show first, e.g. the other seat left) goes straight to the result screen. */
export function onMatchEnd(msg) {
  S.result = resultFrom(msg);
  if (S.screen === "settle" && !S.end) S.screen = "result";
}

/** The settlement's way to the result once the match is over (settle.js's match-over box). */
export function resultButton() {
  return btn(t("result_open"), "go", () => openResult(), "result-open");
}

export function openResult() {
  if (!S.result) return;
  S.screen = "result";
  render();
}

const signed = (v) => `${v > 0 ? "+" : ""}${v}`;
const tone = (v) => (v > 0 ? "plus" : v < 0 ? "minus" : "");

/** A hand's line in words: who won and how, a 流局, or who escaped ("you", or the opponent's name). */
function howText(l, me) {
  const who = (i) => (i === me ? t("you") : nameOf(i));
  if (l.how === "escape") {
    const escaper = l.escaper ?? (l.winner === null || l.winner === undefined ? null : 1 - l.winner);
    return escaper === null ? t("how_escape_any") : t("how_escape", { who: who(escaper) });
  }
  if (l.how === "draw") return t("how_draw");
  return `${who(l.winner)} · ${t(`how_${l.how}`)}`;
}

function ratingText(r) {
  const num = (x) => (typeof x === "number" ? x : x?.display ?? x?.rating ?? x?.mu);
  const before = num(r.before);
  const after = num(r.after);
  if (typeof before !== "number" || typeof after !== "number") return null;
  // the rating's mu (docs/ratings.md: 25 for a new player) with one decimal, as the ranks page shows it
  const d = Math.round((after - before) * 10) / 10;
  return { text: `${before.toFixed(1)} → ${after.toFixed(1)}`, delta: d, shown: `${d > 0 ? "+" : ""}${d.toFixed(1)}` };
}

export function renderResult() {
  const res = S.result;
  const me = S.match?.seat ?? S.friend?.seat ?? 0;
  const root = el("section", "result settle");
  root.dataset.testid = "result";
  const won = res.winner === me;
  const head = el("div", `settle-head ${res.winner === null ? "drawn" : won ? "won" : "lost"}`);
  head.appendChild(el("div", "muted", t("result_title")));
  const title = res.winner === null ? t("result_tie") : won ? t("result_you_won") : t("result_they_won", { who: nameOf(res.winner) });
  head.appendChild(el("h2", "", title));
  head.lastChild.dataset.testid = "result-winner";
  const meta = [t("result_hands", { n: res.hands })];
  if (res.friend) meta.unshift(t("friend_room"));
  if (res.stakes) meta.push(res.stakes === "beans" ? t("stakes_beans_short") : t("stakes_points_short"));
  head.appendChild(el("div", "how", meta.join(" · ")));
  root.appendChild(head);

  const scores = el("div", "scores result-scores");
  for (const i of [me, 1 - me]) {
    const line = el("div", `scoreline ${tone(res.scores[i] ?? 0)}`);
    line.append(el("span", "who", nameOf(i)), el("b", "", signed(res.scores[i] ?? 0)));
    scores.appendChild(line);
  }
  root.appendChild(scores);

  const table = el("table", "lines");
  table.dataset.testid = "result-lines";
  const thead = el("tr");
  thead.append(el("th", "", t("result_hand")), el("th", "", t("result_how")), el("th", "num", t("you")), el("th", "", ""));
  table.appendChild(thead);
  for (const l of res.lines) {
    const tr = el("tr", `line how-${l.how}`);
    tr.dataset.how = l.how;
    tr.appendChild(el("td", "hand-no", handOf(l.hand_no, res.length)));
    tr.appendChild(el("td", "how-text", howText(l, me)));
    const p = l.points?.[me] ?? 0;
    tr.appendChild(el("td", `num ${tone(p)}`, signed(p)));
    const cell = el("td", "act");
    if (l.record_id !== null && l.record_id !== undefined) {
      cell.appendChild(btn(t("review"), "ghost small", () => openReview(l.record_id), "result-review"));
    }
    tr.appendChild(cell);
    table.appendChild(tr);
  }
  const total = el("tr", "total");
  total.append(el("td", "", t("result_total")), el("td", "", ""), el("td", `num ${tone(res.scores[me] ?? 0)}`, signed(res.scores[me] ?? 0)), el("td", "", ""));
  table.appendChild(total);
  root.appendChild(table);

  if (res.beans?.some((b) => b)) {
    const beans = el("div", "beanchange");
    beans.dataset.testid = "result-beans";
    beans.appendChild(el("h3", "", t("bean_change")));
    for (const i of [me, 1 - me]) {
      const line = el("div", `beanline ${tone(res.beans[i])}`);
      line.append(el("span", "who", nameOf(i)), el("span", "delta", signed(res.beans[i])));
      beans.appendChild(line);
    }
    root.appendChild(beans);
  }
  const ratings = (res.rating || []).map((r) => (r ? ratingText(r) : null));
  if (ratings.some(Boolean)) {
    const box = el("div", "beanchange");
    box.dataset.testid = "result-rating";
    box.appendChild(el("h3", "", t("result_rating")));
    for (const i of [me, 1 - me]) {
      if (!ratings[i]) continue;
      const line = el("div", `beanline ${tone(ratings[i].delta)}`);
      line.append(el("span", "who", nameOf(i)), el("span", "delta", ratings[i].shown), el("span", "bal", ratings[i].text));
      box.appendChild(line);
    }
    root.appendChild(box);
  }

  const row = el("div", "row end-actions");
  if (res.friend) row.appendChild(rematchEl(me));
  row.appendChild(btn(t("back_lobby"), res.friend ? "ghost" : "go", () => {
    S.result = null;
    S.match = null;
    S.friend = null;
    toLobby();
  }, "lobby"));
  root.appendChild(row);
  return root;
}

/** 再来一局: the button, and who has asked so far (the server's `rematch` message). */
function rematchEl(me) {
  const box = el("div", "rematch");
  const want = S.rematch || [false, false];
  const asked = want[me] || S.rematchAsked;
  const gone = Boolean(S.friendGone);
  const b = btn(asked ? t("rematch_waiting") : t("rematch"), asked ? "" : "go", () => {
    S.rematchAsked = true;
    net.send({ type: "rematch" });
    render();
  }, "rematch");
  b.disabled = asked || gone;
  box.appendChild(b);
  const status = el("span", "rematch-status muted");
  status.dataset.testid = "rematch-status";
  if (gone) status.textContent = t("rematch_gone");
  else if (want[1 - me]) {
    status.textContent = t("rematch_opp");
    status.classList.add("asked");
  }
  box.appendChild(status);
  return box;
}

/** The server's `rematch` message: who has asked for one so far. */
export function onRematch(msg) {
  S.rematch = Array.isArray(msg.want) ? msg.want : null;
  if (S.screen === "result" || S.screen === "settle") render();
}
