// The review (复盘): a finished hand replayed to each of the player's decisions, with a bar per candidate the
// coach weighed (its estimated value; the player's choice and the best marked), the next/previous mistake, a
// spoiler-free mode (guess first, then see), the hand's summary and the player's trend over recent hands.
// Data: GET /api/games/{id}/review (202 while the server computes it: ask again), …/replay, /api/me/reviews.

import { ApiError, call } from "./api.js";
import { pick, t } from "./i18n.js";
import { recordTable } from "./replay.js";
import { parseTiles, tileImg } from "./tiles.js";
import { btn, el } from "./ui.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The review of game `id` for `seat` (undefined: the caller's), its replay and the caller's trend. While the
 * server computes the review it answers 202 with a retry hint: `progress()` is called and we ask again.
 */
export async function loadReview(id, seat, progress = () => {}) {
  const q = seat === undefined ? "" : `?seat=${seat}`;
  const path = `/api/games/${encodeURIComponent(id)}`;
  const replayP = call("GET", `${path}/replay${q}`);
  replayP.catch(() => {}); // (awaited below; not an unhandled rejection while the review is polled)
  // 202 (computing), 429 (two of mine computing) and 503 (the server's reviewers are full): ask again later
  const ask = () =>
    call("GET", `${path}/review${q}`).catch((err) => {
      if (err.status === 429 || err.status === 503) return { status: "computing", retry_after_s: 2 };
      throw err;
    });
  let review = await ask();
  for (let tries = 0; review.status === "computing" && tries < 300; tries++) {
    progress();
    await sleep(1000 * Math.max(0.2, review.retry_after_s || 1));
    review = await ask();
  }
  if (review.status === "computing") throw new ApiError(503, "busy", "the review is still computing");
  const replay = await replayP;
  let trend = [];
  try {
    trend = (await call("GET", "/api/me/reviews?limit=20")).reviews;
  } catch {
    trend = [];
  }
  return { id, review, replay, trend, idx: 0, spoiler: localStorage.getItem("erma.spoiler") === "1", guess: {} };
}

/** A number as the review shows it: one decimal, a sign for gains. */
function pts(v) {
  return (Math.round(v * 10) / 10).toFixed(1);
}

function pct(p) {
  return `${Math.round(p * 100)}`;
}

const VERBS = {
  discard: "verb_discard",
  chow: "chow",
  pung: "pung",
  kong: "kong",
  ckong: "kong",
  akong: "kong",
  xkong: "kong",
  win: "win",
  pass: "pass",
  exchange: "exchange",
  select: "verb_select",
  accept: "accept",
  cuo: "verb_cuo",
  pick: "verb_pick",
  maidi: "maidi",
  dingdi: "dingdi",
};

/** What passing means in decision ``d``: 不买 / 不顶 at 买底 / 顶底 (as the table's buttons say), else 过. */
function passWord(d) {
  const acts = new Set((d?.candidates || []).map((c) => c.action));
  return acts.has("dingdi") ? "no_dingdi" : acts.has("maidi") ? "no_maidi" : "pass";
}

/** An action of the record ("discard 5m riichi", "pung", "accept 1m1m9p") as words and tile pictures; ``d``,
 * the decision it is a candidate of, words a pass as that decision's refusal. */
export function actionEl(action, d = null) {
  const [verb, arg, extra] = String(action).split(" ");
  const span = el("span", "act-label");
  span.appendChild(el("span", "verb", t(verb === "pass" ? passWord(d) : VERBS[verb] || verb)));
  if (arg && /^([1-9][mpszf])+$/.test(arg)) for (const x of parseTiles(arg)) span.appendChild(tileImg(x, "xs"));
  else if (arg) span.appendChild(el("span", "", arg));
  if (extra === "riichi") span.appendChild(el("span", "verb", t("riichi")));
  return span;
}

/** The seat's summary in a review (`summary` has one object per seat reviewed). */
export function seatSummary(review, seat) {
  return (review.summary || []).find((x) => x.seat === seat) || {};
}

function summaryEl(sum) {
  const box = el("div", "review-summary");
  box.dataset.testid = "review-summary";
  const chips = [
    [t("review_decisions"), String(sum.decisions ?? 0)],
    [t("review_agreement"), `${pct(sum.agreement ?? 0)}%`],
    [t("review_mistakes"), String(sum.mistakes ?? 0)],
    [t("review_lost_total"), pts(sum.value_lost ?? 0)],
  ];
  for (const [label, value] of chips) {
    const c = el("div", "stat");
    c.append(el("b", "", value), el("span", "muted", label));
    box.appendChild(c);
  }
  return box;
}

/** Where 0 and each value sit on the bars' common scale (fractions of the track), 0 included: a bar runs from
 * 0 to its value (right for a gain, left for a loss), so its length is the value's size. */
export function barScale(values) {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const at = (v) => (hi > lo ? (v - lo) / (hi - lo) : 0);
  return { zero: at(0), at };
}

/** The candidates' bars on one scale with its 0 marked. */
function barsEl(d, guess) {
  const list = el("div", "bars");
  list.dataset.testid = "review-bars";
  list.appendChild(el("p", "bar-help muted", t("review_bars_help"))); // what the numbers and marks mean
  const scale = barScale(d.candidates.map((c) => c.value));
  // highest first (ties as the coach lists them)
  for (const c of [...d.candidates].sort((a, b) => b.value - a.value)) {
    const row = el("div", `bar${c.played ? " played" : ""}${c.best ? " best" : ""}`);
    row.dataset.testid = "review-bar";
    row.dataset.action = c.action;
    row.dataset.value = String(c.value);
    row.dataset.played = String(Boolean(c.played));
    row.dataset.best = String(Boolean(c.best));
    const head = el("div", "bar-head");
    head.appendChild(actionEl(c.action, d));
    const marks = el("span", "marks");
    if (c.best) marks.appendChild(el("span", "mark best", t("review_best")));
    if (c.played) marks.appendChild(el("span", "mark played", t("review_played")));
    if (guess && guess === c.action) marks.appendChild(el("span", "mark guess", t("review_guess")));
    head.appendChild(marks);
    row.appendChild(head);
    const track = el("div", "track");
    const fill = el("div", `fill${c.value < 0 ? " loss" : ""}`);
    const [a, b] = [scale.zero, scale.at(c.value)].sort((x, y) => x - y);
    fill.style.left = `${(a * 100).toFixed(2)}%`;
    fill.style.width = `${((b - a) * 100).toFixed(2)}%`;
    const zero = el("div", "zero");
    zero.style.left = `${(scale.zero * 100).toFixed(2)}%`;
    track.append(fill, zero);
    const value = el("b", "value", pts(c.value));
    value.dataset.testid = "bar-value";
    const line = el("div", "bar-line");
    line.append(track, value);
    row.appendChild(line);
    row.appendChild(
      el(
        "div",
        "bar-info muted",
        [t("review_win", { p: pct(c.win) }), t("review_deal_in", { p: pct(c.deal_in) }), t("review_useful", { n: c.useful })].join(" · "),
      ),
    );
    list.appendChild(row);
  }
  return list;
}

/** The spoiler-free question: the candidates in a neutral order, to pick one before the answer shows. */
function questionEl(d, R, ui) {
  const box = el("div", "review-question");
  box.dataset.testid = "review-question";
  box.appendChild(el("p", "ask", t(d.kind === "discard" ? "review_ask_discard" : "review_ask")));
  const choices = el("div", "row choices");
  for (const c of [...d.candidates].sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : 0))) {
    const b = el("button", "btn choice");
    b.type = "button";
    b.dataset.testid = "review-choice";
    b.dataset.action = c.action;
    b.appendChild(actionEl(c.action, d));
    b.addEventListener("click", () => {
      R.guess[R.idx] = c.action;
      ui.rerender();
    });
    choices.appendChild(b);
  }
  box.appendChild(choices);
  box.appendChild(
    btn(t("review_reveal"), "ghost small", () => {
      R.guess[R.idx] = "";
      ui.rerender();
    }, "review-reveal"),
  );
  return box;
}

function decisionEl(d, R, ui) {
  const box = el("div", `decision${d.mistake ? " mistake" : ""}`);
  box.dataset.testid = "review-decision";
  const head = el("div", "decision-head");
  head.appendChild(el("b", "", t(`kind_${d.kind}`)));
  const hidden = R.spoiler && !(R.idx in R.guess); // spoiler-free: nothing of the verdict before a guess
  if (hidden) {
    box.appendChild(head);
    box.appendChild(questionEl(d, R, ui));
    return box;
  }
  if (d.mistake) {
    const tag = el("span", "tag bad", `${t("review_mistake")}${d.tag ? " · " + t(`tag_${d.tag}`) : ""}`);
    tag.title = t("review_badge_help");
    head.appendChild(tag);
    head.appendChild(el("span", "tag-help muted", t("review_badge_help"))); // said, not only on hover
  }
  else if (d.played === d.best) head.appendChild(el("span", "tag good", t("review_agree")));
  box.appendChild(head);
  const guess = R.guess[R.idx];
  if (guess) box.appendChild(el("p", guess === d.best ? "verdict good" : "verdict", guess === d.best ? t("review_right") : t("review_wrong")));
  const lost = el("p", "lost");
  lost.dataset.testid = "review-lost";
  const [lo, hi] = d.value_lost_ci95 || [0, 0];
  lost.textContent = d.played === d.best ? t("review_lost_none") : t("review_lost", { v: pts(d.value_lost), lo: pts(lo), hi: pts(hi) });
  box.appendChild(lost);
  box.appendChild(barsEl(d, guess));
  return box;
}

/** Dots for every decision (red: a mistake); a tap goes there. */
function stripEl(decisions, R, ui) {
  const strip = el("div", "decision-strip");
  strip.dataset.testid = "review-strip";
  decisions.forEach((d, i) => {
    const shown = !R.spoiler || i in R.guess; // spoiler-free: a decision's colour once it was answered
    const cls = shown ? `${d.mistake ? " mistake" : ""}${d.played === d.best ? " same" : ""}` : "";
    const dot = el("button", `dot${cls}${i === R.idx ? " current" : ""}`);
    dot.type = "button";
    dot.setAttribute("aria-label", t("review_decision", { n: i + 1, m: decisions.length }));
    dot.addEventListener("click", () => {
      R.idx = i;
      ui.rerender();
    });
    strip.appendChild(dot);
  });
  return strip;
}

/** The trend: agreement per recent reviewed hand (oldest left), this hand marked; averages beside. */
function trendEl(trend, id) {
  const box = el("div", "card review-trend");
  box.dataset.testid = "review-trend";
  const hands = [...(trend || [])].reverse();
  box.appendChild(el("h3", "", hands.length === 1 ? t("review_trend_one") : t("review_trend", { n: hands.length })));
  if (!hands.length) {
    box.appendChild(el("p", "muted", t("review_trend_empty")));
    return box;
  }
  const chart = el("div", "trend-bars");
  for (const h of hands) {
    const col = el("div", `trend-col${h.id === id ? " current" : ""}`);
    col.dataset.id = String(h.id);
    col.title = `#${h.id} · ${pct(h.agreement ?? 0)}% · ${t("review_mistakes")} ${h.mistakes ?? 0} · −${pts(h.value_lost ?? 0)}`;
    const bar = el("div", "trend-fill");
    bar.style.height = `${Math.max(3, (h.agreement ?? 0) * 100).toFixed(0)}%`;
    if (h.mistakes) bar.classList.add("with-mistakes");
    col.appendChild(bar);
    chart.appendChild(col);
  }
  box.appendChild(chart);
  const avg = (k) => {
    // (a hand without decisions has no agreement)
    const known = hands.filter((h) => h[k] !== null && h[k] !== undefined);
    return known.length ? known.reduce((s, h) => s + h[k], 0) / known.length : 0;
  };
  box.appendChild(el("p", "muted", t("review_trend_avg", { a: pct(avg("agreement")), m: pts(avg("mistakes")), v: pts(avg("value_lost")) })));
  return box;
}

/**
 * The review page. R: loadReview()'s object (idx: the decision shown); ui: {rerender, close}.
 */
export function renderReview(R, ui) {
  const d0 = R.replay;
  const rv = R.review;
  const me = d0.seat;
  const decisions = rv.decisions || [];
  R.idx = Math.max(0, Math.min(decisions.length - 1, R.idx));
  const d = decisions[R.idx];
  const root = el("section", "replay review");
  root.dataset.testid = "review";
  root.dataset.decision = String(R.idx);
  root.dataset.step = d ? String(d.step) : "";
  const head = el("div", "replay-head");
  const roomName = d0.room && (d0.room.name_zh || d0.room.name_en) ? pick(d0.room) : t(`rules_${d0.rules}`);
  head.appendChild(el("h2", "", t("review_title", { room: roomName })));
  const right = el("span", "replay-right");
  right.appendChild(btn(t("close"), "ghost", ui.close, "review-close"));
  head.appendChild(right);
  root.appendChild(head);
  root.appendChild(summaryEl(seatSummary(rv, me)));

  if (!d) {
    root.appendChild(el("p", "muted", t("review_none")));
    root.appendChild(trendEl(R.trend, R.id));
    return root;
  }
  // the table as the seat saw it when deciding: the record replayed `step` actions
  const step = d0.steps[Math.min(d.step, d0.steps.length - 1)];
  const room = d0.room && d0.room.bean_rate !== undefined ? d0.room : null; // (a record from before rooms: none)
  const wrap = recordTable(d0.players, me, step.view, { room });
  root.appendChild(wrap);

  const panel = el("div", "review-panel");
  panel.dataset.testid = "review-panel";
  const mistakes = decisions.map((x, i) => (x.mistake ? i : -1)).filter((i) => i >= 0);
  const prevMistake = [...mistakes].reverse().find((i) => i < R.idx);
  const nextMistake = mistakes.find((i) => i > R.idx);
  const go = (i) => {
    if (i === undefined) return;
    R.idx = i;
    ui.rerender();
  };
  const nav = el("div", "row review-nav");
  const pm = btn(`⟨ ${t("review_prev_mistake")}`, "small mistake-nav", () => go(prevMistake), "review-prev-mistake");
  pm.disabled = prevMistake === undefined;
  const pv = btn("‹", "small", () => go(R.idx > 0 ? R.idx - 1 : undefined), "review-prev");
  pv.setAttribute("aria-label", t("prev"));
  pv.disabled = R.idx === 0;
  const count = el("span", "count", t("review_decision", { n: R.idx + 1, m: decisions.length }));
  count.dataset.testid = "review-count";
  const nx = btn("›", "small", () => go(R.idx < decisions.length - 1 ? R.idx + 1 : undefined), "review-next");
  nx.setAttribute("aria-label", t("next"));
  nx.disabled = R.idx >= decisions.length - 1;
  const nm = btn(`${t("review_next_mistake")} ⟩`, "small mistake-nav", () => go(nextMistake), "review-next-mistake");
  nm.disabled = nextMistake === undefined;
  const steps = el("span", "steps");
  steps.append(pv, count, nx);
  nav.append(pm, steps, nm);
  panel.appendChild(nav);
  panel.appendChild(stripEl(decisions, R, ui));
  panel.appendChild(decisionEl(d, R, ui));
  const toggle = el("label", "spoiler");
  const box = el("input");
  box.type = "checkbox";
  box.checked = R.spoiler;
  box.dataset.testid = "review-spoiler";
  box.addEventListener("change", () => {
    R.spoiler = box.checked;
    R.guess = {};
    localStorage.setItem("erma.spoiler", R.spoiler ? "1" : "0");
    ui.rerender();
  });
  toggle.append(box, el("span", "", t("review_spoiler")));
  panel.appendChild(toggle);
  root.appendChild(panel);
  root.appendChild(trendEl(R.trend, R.id));
  return root;
}

/** The page while the server computes the review. */
export function renderReviewLoading(ui) {
  const root = el("section", "replay review");
  root.dataset.testid = "review-loading";
  root.appendChild(el("div", "spinner"));
  root.appendChild(el("p", "muted", t("review_loading")));
  root.appendChild(btn(t("close"), "ghost", ui.close, "review-close"));
  return root;
}
