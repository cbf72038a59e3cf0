// The rules page of a preset (规则与番种), all of it from GET /api/rules/{name} (erma.teach.page): the tiles,
// every option the preset sets, its special phases shown on hands the engine played (rules-phases.js), a
// worked settlement, and every fan with its points and an example hand the scorer scored (温州: its
// multiplier reasons). The words are in rules-text.js.

import { pick, t } from "./i18n.js";
import { contextEl, handEl, phasesEl, settlementEl } from "./rules-phases.js";
import { rt } from "./rules-text.js";
import { tileRow } from "./tiles.js";
import { tutorialButton } from "./tutorial.js";
import { el } from "./ui.js";

function optionValue(key, value, info) {
  if (value === null || value === undefined) return rt("none");
  if (typeof value === "boolean") return rt(value ? "yes" : "no");
  if (key === "fan_table" && info.fan_table) return pick(info.fan_table);
  if (key.endsWith("_prob")) return `${Math.round(value * 100)}%`;
  if (key.endsWith("_timeout_s")) return rt("secs", { n: value });
  if (key === "escape_points") return rt("points_n", { n: value });
  if (Array.isArray(value)) return value.join(" / ");
  if (typeof value === "string") return rt(`val_${value}`) === `val_${value}` ? value : rt(`val_${value}`);
  return String(value);
}

function optionsEl(info) {
  const sec = el("section", "rules-sec");
  sec.dataset.testid = "rules-options";
  sec.appendChild(el("h3", "", rt("sec_options")));
  const dl = el("dl", "rules-options");
  for (const [key, value] of Object.entries(info.options || {})) {
    const row = el("div", "opt-row");
    row.dataset.option = key;
    row.append(el("dt", "", rt(`opt_${key}`)), el("dd", "", optionValue(key, value, info)));
    dl.appendChild(row);
  }
  sec.appendChild(dl);
  return sec;
}

function fanEl(f, names) {
  const row = el("article", `fan-row${f.limit ? " limit" : ""}`);
  row.dataset.fan = f.id;
  const head = el("div", "fan-head");
  head.append(el("span", "fan-name", pick(f)), el("span", "num", String(f.points)));
  row.appendChild(head);
  const ex = f.example;
  if (ex) {
    row.appendChild(handEl(`${ex.sets.join("")}${ex.hand}+${ex.win}`));
    row.appendChild(contextEl(ex));
    const got = ex.fans.map(([id, points, count]) => `${pick({ name_zh: names[id]?.[0], name_en: names[id]?.[1] }) || id} ${points}${count > 1 ? `×${count}` : ""}`);
    const cap = ex.capped !== ex.total ? ` → ${ex.capped}` : "";
    row.appendChild(el("p", "fan-scored", `${rt("scores")}: ${got.join(" + ")} = ${ex.total}${cap}`));
  }
  return row;
}

function fansEl(info) {
  const sec = el("section", "rules-sec");
  const table = el("div", "rules-fans");
  table.dataset.testid = "rules-fans";
  if (info.fans) {
    sec.appendChild(el("h3", "", `${rt("sec_fans")} · ${pick(info.fan_table)}`));
    for (const f of info.fans) table.appendChild(fanEl(f, info.fan_names || {}));
  } else {
    sec.appendChild(el("h3", "", rt("sec_mult")));
    for (const f of info.multipliers || []) {
      const row = el("article", "fan-row");
      row.dataset.fan = f.id;
      const head = el("div", "fan-head");
      head.append(el("span", "fan-name", pick(f)), el("span", "num", rt("mult_x", { n: f.points })));
      row.appendChild(head);
      table.appendChild(row);
    }
  }
  sec.appendChild(table);
  return sec;
}

/** The page for preset `name`; `info` is the endpoint's answer (null while loading). */
export function renderRules(name, info, ui) {
  const root = el("section", "rules-page");
  root.dataset.testid = "rules-page";
  const head = el("div", "rules-head");
  head.appendChild(el("h2", "", `${t(`rules_${name}`)} · ${t("rules_page")}`));
  const back = el("button", "btn ghost", t("back_lobby"));
  back.type = "button";
  back.addEventListener("click", ui.back);
  head.appendChild(back);
  const tut = tutorialButton(name);
  if (tut) head.appendChild(tut);
  root.appendChild(head);
  const tabs = el("div", "row rules-tabs");
  const rooms = ui.rooms || [];
  for (const preset of [...new Set(rooms.map((r) => r.rules))]) {
    const b = el("button", `btn small${preset === name ? " go" : " ghost"}`, t(`rules_${preset}`));
    b.type = "button";
    b.dataset.rules = preset;
    b.addEventListener("click", () => window.erma.openRules(preset));
    tabs.appendChild(b);
  }
  root.appendChild(tabs);
  if (!info || info === "loading") {
    root.appendChild(el("p", "muted", "…"));
    return root;
  }
  const bean = rooms.find((r) => r.rules === name)?.bean_rate ?? 1;
  const facts = el("div", "rules-facts");
  facts.appendChild(tileRow(info.kinds, "ex"));
  const bits = [t("rules_copies", { n: info.copies }), t("rules_hand", { n: info.hand_size })];
  if (info.min_fan) bits.push(t("min_fan", { n: info.min_fan }));
  if (info.fans) bits.push(info.fan_cap ? t("cap", { n: info.fan_cap }) : t("no_cap"));
  facts.appendChild(el("p", "", bits.join(" · ")));
  root.appendChild(facts);
  root.appendChild(optionsEl(info));
  root.appendChild(phasesEl(info, bean));
  const settle = settlementEl(info, bean);
  if (settle) root.appendChild(settle);
  root.appendChild(fansEl(info));
  return root;
}
