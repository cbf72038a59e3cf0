// What leaving mid-hand costs (逃跑, issue 36): the confirmation names the beans. The room says what an escape
// costs in points at streak 0 with no stakes (GET /api/rooms: `escape`, from the engine's family); 温州 scales
// it by the hand's base and by 买底 / 顶底 as its engine does (wenzhou_wins.escape_points).

import { t } from "./i18n.js";

/** 温州's m′ (RULES §3.7): the stakes' term as if the player who stays had won. */
function maidiTerm(esc, buy, top, dealerWon) {
  if (!esc.maidi) return 0;
  const b = Number(buy);
  const d = Number(top);
  if (esc.maidi_symmetric) return b + d;
  if (dealerWon) return d ? 1 + b : b;
  return d ? 1 + b : 0;
}

/** {points, beans, rate} an escape would cost seat `me` now, or null if the room does not say. */
export function escapeCost(view, room) {
  const esc = room?.escape;
  if (!view || !esc || esc.dealer === undefined) return null;
  const dealer = view.dealer === view.seat;
  let points = dealer ? esc.dealer : esc.other;
  if (esc.base && view.base) {
    const m = maidiTerm(esc, view.stakes?.maidi, view.stakes?.dingdi, !dealer);
    points = Math.round((points / esc.base) * view.base * (1 + m));
  }
  const rate = room.bean_rate ?? 1;
  return { points, beans: points * rate, rate };
}

/** The confirmation's text: what leaving costs, in beans and points (`rate`: the table's beans a point from
 * hand_start, which a friend table or the tutorial — not among the listed rooms — has; 0: points only). */
export function leaveText(view, room, rate) {
  if (rate === 0 || room?.bean_rate === 0) return t("leave_confirm_free");
  const cost = escapeCost(view, room);
  return cost ? t("leave_confirm", { n: cost.beans, p: cost.points, r: cost.rate }) : t("leave_confirm_plain");
}
