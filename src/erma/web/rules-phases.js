// The rules page's special phases and worked settlement (规则页：特殊阶段与结算): each phase explained, with
// the tiles of a hand the engine played (erma.teach.phases) or scored; the words are in rules-text.js.

import { pick, windName } from "./i18n.js";
import { rt } from "./rules-text.js";
import { parseHand, parseTiles, tileImg, tileRow } from "./tiles.js";
import { el } from "./ui.js";

/** A hand as the engine writes it ("(123m)[1111z]55p+2p"): sets apart, the winning tile last and lit. */
export function handEl(text, glow = []) {
  const { melds, concealed, win } = parseHand(text);
  const row = el("div", "ex-hand");
  for (const m of melds) {
    const set = el("span", `ex-set${m.concealed ? " concealed" : ""}`);
    for (const x of m.tiles) set.appendChild(tileImg(x, "ex"));
    row.appendChild(set);
  }
  const rest = el("span", "ex-set");
  const lit = [...glow];
  for (const x of concealed) {
    const i = lit.indexOf(x);
    if (i >= 0) lit.splice(i, 1);
    rest.appendChild(tileImg(x, `ex${i >= 0 ? " glow" : ""}`));
  }
  row.appendChild(rest);
  if (win) {
    const w = el("span", "ex-set win");
    w.appendChild(tileImg(win, "ex glow"));
    row.appendChild(w);
  }
  return row;
}

function labelled(label, node) {
  const box = el("div", "ex-line");
  box.appendChild(el("span", "ex-label", label));
  box.appendChild(node);
  return box;
}

function tilesEl(text, cls = "ex") {
  const row = el("div", "ex-hand");
  row.appendChild(tileRow(parseTiles(text), cls));
  return row;
}

const pct = (p) => `${Math.round(p * 100)}%`;

function fanList(fans, mult = false) {
  const ul = el("ul", "ex-fans");
  for (const f of fans) {
    const n = mult ? rt("mult_x", { n: f.points }) : `${f.points}${f.count > 1 ? ` × ${f.count}` : ""}`;
    ul.appendChild(el("li", "", `${pick(f)} ${n}`));
  }
  return ul;
}

function card(id, title, text) {
  const box = el("article", "phase-card");
  box.dataset.phase = id;
  box.appendChild(el("h4", "", title));
  if (text) box.appendChild(el("p", "", text));
  return box;
}

function caption(box, text) {
  box.appendChild(el("p", "ex-cap", text));
}

function grade(r) {
  return r.fans.map((f) => pick(f)).join(" · ");
}

/** One phase's card, or null when the page has no example for it. */
function phaseCard(id, ex, info) {
  const o = info.options || {};
  let box;
  switch (id) {
    case "exchange":
      box = card(id, rt("ph_exchange"), rt("ph_exchange_t"));
      caption(box, rt("ph_exchange_c", { n: ex.event.count }));
      box.appendChild(labelled(rt("before"), handEl(ex.hand, parseTiles(ex.event.gave))));
      box.appendChild(labelled(rt("after"), handEl(ex.after, parseTiles(ex.event.got))));
      return box;
    case "cuo":
      box = card(id, rt("ph_cuo"), rt("ph_cuo_t", { p: pct(o.cuo_prob ?? 0) }));
      caption(box, rt("ph_cuo_c"));
      box.appendChild(labelled(rt("before"), handEl(ex.hand)));
      box.appendChild(labelled("→", tilesEl(ex.event.kind, "ex glow")));
      box.appendChild(labelled(rt("after"), handEl(ex.after, [ex.event.kind])));
      return box;
    case "triplet":
      box = card(id, rt("ph_triplet"), rt("ph_triplet_t", { p: pct(o.triplet_offer_prob ?? 0) }));
      caption(box, rt("ph_triplet_c"));
      box.appendChild(labelled("+", tilesEl(ex.event.kind[0].repeat(3) + ex.event.kind[1], "ex glow")));
      box.appendChild(labelled(rt("before"), handEl(ex.hand, parseTiles(ex.event.gave))));
      box.appendChild(labelled(rt("after"), handEl(ex.after, [ex.event.kind, ex.event.kind, ex.event.kind])));
      return box;
    case "bonus": {
      const r = ex.result;
      const bonus = r.fans.find((f) => f.id === "bonus_tiles");
      box = card(id, rt("ph_bonus"), rt("ph_bonus_t", { n: o.bonus_reveal_count ?? 1 }));
      caption(box, rt("ph_bonus_c", { count: bonus?.count ?? 0 }));
      box.appendChild(labelled("花", tilesEl(ex.bonus_kinds.join(""), "ex glow")));
      box.appendChild(handEl(r.hand, ex.bonus_kinds));
      box.appendChild(fanList(r.fans));
      return box;
    }
    case "riichi":
      box = card(id, rt("ph_riichi"), rt("ph_riichi_t"));
      caption(box, rt("ph_riichi_c"));
      box.appendChild(labelled(rt("before"), handEl(ex.hand, [ex.event.tile])));
      box.appendChild(labelled(rt("after"), handEl(ex.after)));
      box.appendChild(
        labelled(
          "⟳",
          tilesEl(ex.autos.filter((a) => a.startsWith("discard")).map((a) => a.split(" ")[1]).join("")),
        ),
      );
      if (ex.won) box.appendChild(el("p", "ex-cap", `→ ${rt("won_yes")}`));
      return box;
    case "haidi":
      box = card(id, rt("ph_haidi"), rt("ph_haidi_t", { n: o.inplay_tiles ?? 71 }));
      box.appendChild(handEl(ex.hand));
      caption(box, rt("ph_haidi_c", { won: rt(ex.won ? "won_yes" : "won_no") }));
      box.appendChild(tilesEl(ex.event.tile, "ex glow"));
      if (ex.result?.fans) box.appendChild(fanList(ex.result.fans));
      return box;
    case "xkong":
      box = card(id, rt("ph_xkong"), rt("ph_xkong_t"));
      box.appendChild(labelled(rt("before"), handEl(ex.hand)));
      box.appendChild(labelled(rt("after"), handEl(ex.after)));
      return box;
    case "caishen": {
      const r = ex.result;
      box = card(id, rt("ph_caishen"), rt("ph_caishen_t"));
      caption(box, rt("ph_caishen_c"));
      const row = el("div", "ex-hand");
      row.append(tileImg(ex.flipped, "ex"), el("span", "ex-arrow", "→"), tileImg(ex.caishen, "ex glow"), el("span", "ex-arrow", "·"), tileImg("5z", "ex"), el("span", "ex-arrow", "="), tileImg(ex.caishen, "ex"));
      box.appendChild(row);
      box.appendChild(handEl(r.hand, [ex.caishen, ex.caishen, ex.caishen]));
      return box;
    }
    case "grade_soft":
    case "grade_hard":
    case "grade_double": {
      const r = ex.result;
      box = card(id, rt(`ph_${id}`), rt(`ph_${id}_t`));
      box.appendChild(handEl(r.hand));
      caption(box, rt("ph_grade_c", { reasons: grade(r), m: r.multiplier }));
      return box;
    }
    case "maidi": {
      const r = ex.result;
      box = card(id, rt("ph_maidi"), rt("ph_maidi_t"));
      box.appendChild(handEl(r.hand));
      caption(box, rt("ph_maidi_c", { b: r.base, m: r.multiplier, k: r.maidi, w: r.win_points }));
      return box;
    }
    case "eight_pairs":
    case "three_caishen": {
      const r = ex.result;
      box = card(id, rt(`ph_${id}`), rt(`ph_${id}_t`, { m: o.three_caishen_no_shape_mult ?? 2 }));
      const wild = r.fans.find((f) => f.id.startsWith("three_caishen"));
      box.appendChild(handEl(r.hand, wild ? wild.tiles : []));
      caption(box, rt("ph_grade_c", { reasons: grade(r), m: r.multiplier }));
      return box;
    }
    case "guoshui":
      box = card(id, rt("ph_guoshui"), rt("ph_guoshui_t"));
      caption(box, rt("ph_guoshui_c"));
      box.appendChild(handEl(`${ex.hand}+${ex.tile}`));
      return box;
    default:
      return null;
  }
}

/** Cards that come from the rules and the scorer rather than a played hand: base, 财神钱, cap, escape. */
function ruleCards(info, bean) {
  const out = [];
  const o = info.options || {};
  const ph = info.phases || {};
  if (info.base_by_streak) {
    const list = info.base_by_streak.map((b, i) => `${i}: ${b}`).join(" · ");
    const box = card("base", rt("ph_base"), rt("ph_base_t", { list, max: o.max_streak ?? info.base_by_streak.length }));
    out.push(box);
    const r = (ph.three_caishen || ph.settlement)?.result; // caishen_held: [winner, loser]
    if (r) {
      const money = card("caishen_money", rt("ph_money"), rt("ph_money_t", { u: o.caishen_money_unit ?? 1 }));
      money.appendChild(handEl(r.hand));
      caption(money, rt("ph_money_c", { a: r.caishen_held[0], b: r.caishen_held[1], n: r.caishen_money }));
      out.push(money);
    }
  }
  if (info.cap_example) {
    const c = info.cap_example;
    const box = card("cap", rt("ph_cap"), rt("ph_cap_t", { cap: c.cap }));
    box.appendChild(handEl(`${c.sets.join("")}${c.hand}+${c.win}`));
    caption(box, rt("ph_cap_c", { total: c.total, cap: c.capped }));
    const names = info.fan_names || {};
    box.appendChild(fanList(c.fans.map(([id, points, count]) => ({ name_zh: names[id]?.[0] ?? id, name_en: names[id]?.[1] ?? id, points, count }))));
    out.push(box);
  }
  if (ph.escape) {
    const r = ph.escape.result;
    const text = o.escape_penalty ? rt("ph_escape_wz_t", { d: o.escape_penalty[0], o: o.escape_penalty[1] }) : rt("ph_escape_t", { n: r.points });
    const box = card("escape", rt("ph_escape"), text);
    caption(box, rt("ph_escape_c", { n: r.points }));
    box.appendChild(el("p", "ex-cap", rt("st_beans", { n: r.points, r: bean, b: r.points * bean })));
    out.push(box);
  }
  return out;
}

/** The phases section: a card per phase the page has an example for. */
export function phasesEl(info, bean) {
  const sec = el("section", "rules-sec phases");
  sec.dataset.testid = "rules-phases";
  sec.appendChild(el("h3", "", rt("sec_phases")));
  const grid = el("div", "phase-grid");
  for (const [id, ex] of Object.entries(info.phases || {})) {
    if (id === "settlement" || id === "escape") continue;
    const box = phaseCard(id, ex, info);
    if (box) grid.appendChild(box);
  }
  for (const box of ruleCards(info, bean)) grid.appendChild(box);
  sec.appendChild(grid);
  return sec;
}

/** The worked settlement: the engine's hand from its last tile to the beans. */
export function settlementEl(info, bean) {
  const ex = info.phases?.settlement;
  if (!ex) return null;
  const r = ex.result;
  const sec = el("section", "rules-sec settle-steps");
  sec.dataset.testid = "rules-settlement";
  sec.appendChild(el("h3", "", rt("sec_settle")));
  const ol = el("ol", "steps");
  const step = (text, node) => {
    const li = el("li", "", text);
    if (node) li.appendChild(node);
    ol.appendChild(li);
  };
  step(rt("st_tile", { how: rt(`how_${r.how}`) }), tileImg(r.tile, "ex glow"));
  step(rt("st_hand"), handEl(r.hand));
  if (r.multiplier !== undefined) {
    step(rt("st_grade", { m: r.multiplier }), fanList(r.fans, true));
    step(rt("st_base", { b: r.base, s: r.streak ?? 0 }));
    step(rt("st_win", { b: r.base, m: r.multiplier, k: r.maidi, w: r.win_points }));
    step(rt("st_money", { n: r.caishen_money }));
    step(rt("st_sum", { w: r.win_points, c: r.caishen_money, p: r.points }));
  } else {
    step(rt("st_fans"), fanList(r.fans));
    step(rt("st_total", { n: r.fan_total }));
    step(info.fan_cap ? rt("st_cap", { cap: info.fan_cap, n: r.points }) : rt("st_points", { n: r.points }));
  }
  step(rt("st_beans", { n: r.points, r: bean, b: r.points * bean }));
  sec.appendChild(ol);
  return sec;
}

/** A fan example's context (self-drawn, first turn, winds, bonus tiles …) as short chips. */
export function contextEl(ex) {
  const row = el("div", "ex-ctx");
  const chip = (text) => row.appendChild(el("span", "chip-ctx", text));
  if (!ex.context.includes("is_self_drawn")) chip(rt("ctx_discard"));
  for (const c of ex.context) chip(rt(`ctx_${c}`));
  chip(rt("ctx_seat", { w: windName(ex.seat_wind) }));
  if (ex.prevalent_wind) chip(rt("ctx_wind", { w: windName(ex.prevalent_wind) }));
  if (ex.bonus_count) chip(rt("ctx_bonus", { n: ex.bonus_count }));
  if (ex.flowers) row.appendChild(tileRow(parseTiles(ex.flowers), "ex"));
  return row;
}
