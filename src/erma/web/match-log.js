// A match you can see: what the client keeps of the match in play (its length, the running score, the dealer,
// each hand's line) from `match`, `hand_start`, `hand_end` and `match_end` (docs/protocol.md), and the table's
// part of it — 第 3/8 局 and both running scores beside the players' names (the dealer has its 庄 badge).

import { t, windName } from "./i18n.js";
import { S } from "./state.js";
import { el } from "./ui.js";

/** How a hand ended, as a line says it: self_draw, discard, draw or escape (never a draw for an escape). */
export function lineOf(handNo, result) {
  const r = result || {};
  let how = "draw";
  if (r.reason === "escape") how = "escape";
  else if (r.reason === "win") how = r.how === "self" || r.how === "haidi" ? "self_draw" : "discard";
  const winner = r.reason === "win" ? r.winner : r.reason === "escape" && r.escaper !== undefined && r.escaper !== null ? 1 - r.escaper : null;
  return { hand_no: handNo, winner: winner ?? null, how, points: r.deltas || [0, 0], escaper: r.escaper ?? null };
}

/** The match's log, before messages.js has seen the message (a new match starts a new log). */
export function logBefore(msg) {
  if (msg.type === "match" && (!msg.resumed || S.log?.match !== msg.match)) {
    S.log = { match: msg.match, hands: msg.hands ?? null, scores: [0, 0], dealer: null, hand: 0, lines: [], beans: [0, 0], records: {} };
    S.result = null;
    S.rematch = null;
    S.rematchAsked = false;
  }
}

/** The match's log, after messages.js has seen the message. */
export function logAfter(msg) {
  const log = S.log;
  if (msg.type === "match" && log) {
    if (msg.hands !== undefined && msg.hands !== null) log.hands = msg.hands;
    S.result = null;
  } else if (msg.type === "hand_start" && log) {
    log.hand = msg.hand_no;
    if (Array.isArray(msg.scores)) log.scores = msg.scores;
    if (msg.dealer !== undefined && msg.dealer !== null) log.dealer = msg.dealer;
  } else if (msg.type === "hand_end" && log) {
    const no = S.match?.hand ?? log.hand;
    log.lines = log.lines.filter((l) => l.hand_no !== no);
    log.lines.push(lineOf(no, msg.result));
    if (msg.record_id !== undefined && msg.record_id !== null) log.records[no] = msg.record_id;
    if (Array.isArray(msg.beans)) log.beans = log.beans.map((b, i) => b + (msg.beans[i] || 0));
    if (Array.isArray(msg.scores)) log.after = msg.scores;
  }
}

/** The score of the match before the hand in play (hand_start.scores, else the last hand_end's). */
function runningScores() {
  const log = S.log;
  if (!log) return null;
  if (log.after && (S.view?.hand_no ?? log.hand) > (log.lines.at(-1)?.hand_no ?? 0)) return log.after;
  return log.scores;
}

/** 第 k/n 局 (or 第 k 局 when the match has no set length). */
export function handOf(k, n) {
  return n ? t("hand_of", { n: k, m: n }) : t("hand_no", { n: k });
}

function scoreChip(v, who) {
  const chip = el("span", `badge score ${v > 0 ? "plus" : v < 0 ? "minus" : ""}`, `${v > 0 ? "+" : ""}${v}`);
  chip.dataset.testid = `score-${who}`;
  chip.title = t("match_score");
  return chip;
}

/** The drawn table (table.js) with the match's part: 第 k/n 局 in the middle, each seat's running score by
 * its name. */
export function decorateTable(root) {
  const view = S.view;
  if (!view) return;
  const k = view.hand_no || S.log?.hand || 1;
  const n = S.log?.hands ?? null;
  const round = root.querySelector(".round");
  if (round) {
    round.textContent = `${windName(view.prevalent_wind ?? 0)} · ${handOf(k, n)}`;
    round.dataset.testid = "hand-of";
  }
  const scores = runningScores();
  if (!scores) return;
  const me = view.seat ?? S.match?.seat ?? 0;
  const mine = root.querySelector(".seat.me .who");
  const theirs = root.querySelector(".seat.opp .who");
  if (mine) mine.appendChild(scoreChip(scores[me] ?? 0, "me"));
  if (theirs) theirs.appendChild(scoreChip(scores[1 - me] ?? 0, "opp"));
}

/** A history line's escape (a record's summary: how "escape", reason "escape", or "forfeit" by a player who
 * left), said as an escape — never as a draw; null for any other end. */
export function escapeText(sum) {
  if (sum?.how !== "escape" && sum?.reason !== "escape" && sum?.reason !== "forfeit") return null;
  const players = sum.players || [];
  const name = sum.forfeited_by ?? (Number.isInteger(sum.escaper) ? players[sum.escaper] : null);
  if (!name) return t("how_escape_any");
  return t("how_escape", { who: name === S.account?.name ? t("you") : name });
}
