// The game's events (docs/protocol.md `event`) as sounds and callouts, and the river marks they leave.

import { exchangeText, t } from "./i18n.js";
import { answered } from "./moves.js";
import { play } from "./sound.js";
import { S } from "./state.js";
import { parseTiles } from "./tiles.js";
import { callout, confetti, notice, toast } from "./ui.js";

const ACTS = new Set(["discard", "chow", "pung", "kong", "akong", "xkong", "ckong", "win", "exchange", "cuo", "maidi", "dingdi"]);

/** The river marks (报听 discards, the last discarder) come from events; kept per hand in sessionStorage so a
 * page refresh, which resumes after the last event seen, still shows them. */
function rememberMarks() {
  if (S.view?.digest) sessionStorage.setItem("erma.marks", JSON.stringify({ digest: S.view.digest, riichiAt: S.riichiAt, last: S.lastDiscarder }));
}

export function restoreMarks(view) {
  try {
    const m = JSON.parse(sessionStorage.getItem("erma.marks") || "null");
    if (m && m.digest === view.digest) {
      S.riichiAt = m.riichiAt;
      S.lastDiscarder = m.last;
    }
  } catch {
    /* nothing kept */
  }
}

export function onEvent(e) {
  const me = S.match?.seat ?? 0;
  const mine = e.seat === me;
  const word = (k) => t(k) + "!";
  if (mine && S.view && ACTS.has(e.type) && (S.view.legal || []).length && !answered(S.view) && !S.view.predicted) {
    // a move of mine I did not make: the clock ran out, or 托管 played it (said once a hand: its banner stays,
    // and a notice at every move would hide the opponent's name all hand long)
    if (!S.view.autoplay) notice(t("timeout_moved"));
    else if (S.autoNoticed !== S.view.digest) {
      S.autoNoticed = S.view.digest;
      notice(t("auto_moved"));
    }
  }
  switch (e.type) {
    case "draw":
      if (mine) play("draw");
      break;
    case "discard":
      S.lastDiscarder = e.seat;
      if (!mine) play("discard");
      if (e.riichi && S.view && S.riichiAt[e.seat] === null) S.riichiAt[e.seat] = (S.view.discards?.[e.seat]?.length ?? 1) - (mine && S.view.predicted ? 1 : 0);
      rememberMarks();
      if (e.riichi) {
        play("riichi");
        callout(word("riichi"), mine ? "me" : "opp");
      }
      break;
    case "chow":
    case "pung":
    case "kong":
    case "akong":
    case "xkong":
    case "ckong": {
      const k = e.type === "chow" || e.type === "pung" ? e.type : "kong";
      play(k);
      // my own claim had its word at the tap (moves.js): not a second one, a little apart, when it comes back
      const echo = mine && S.calledOut?.kind === k && performance.now() - S.calledOut.at < 10000;
      S.calledOut = null;
      if (!echo) callout(word(k), mine ? "me" : "opp", e.meld ? parseTiles(e.meld) : null);
      break;
    }
    case "exchange":
      play("exchange");
      callout(exchangeText(e.count, mine), "banner exchange");
      break;
    case "cuo":
      play("cuo");
      callout(mine && e.kind ? t("ev_cuo_me", { t: "" }) : t("ev_cuo_opp"), "banner cuo", mine && e.kind ? [e.kind] : null);
      break;
    case "triplet_offer":
      play("triplet");
      break;
    case "triplet_accept":
      play("triplet");
      callout(t("ev_triplet_me", { t: "" }), "banner triplet", e.kind ? [e.kind, e.kind, e.kind] : null);
      break;
    case "haidi":
      play("haidi");
      callout(t("ev_haidi"), "banner haidi");
      break;
    case "haidi_pick":
      callout(t("ev_haidi_pick", { t: "" }), "banner haidi", [e.tile]);
      break;
    case "win": {
      const won = e.winner === me;
      play(won ? "win" : "lose");
      callout(e.how === "self" || e.how === "haidi" ? word("self_win") : word("win"), `big ${won ? "me" : "opp"}`, [e.tile]);
      if (won) confetti();
      break;
    }
    case "maidi":
    case "dingdi":
      if (e.choice) {
        play("riichi");
        callout(word(e.type), mine ? "me" : "opp");
      }
      break;
    case "deal":
      if (e.caishen) {
        play("haidi");
        callout(t("ev_caishen"), "banner caishen", [e.caishen]);
      }
      break;
    case "exhausted":
      play("draw_game");
      callout(t("ev_exhausted"), "banner");
      break;
    case "escape":
      callout(t("ev_escape"), "banner");
      break;
    case "timeout":
      if (mine) toast(t("ev_timeout"));
      break;
    case "flower":
      play("draw");
      break;
    default:
      break;
  }
}
