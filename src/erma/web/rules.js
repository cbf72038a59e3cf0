// The rules page of a preset (规则与番种): its tiles and limits and every fan with its points, as the server
// reads them from the fan tables (GET /api/rules/{name}); 温州 lists its multiplier reasons.

import { pick, t } from "./i18n.js";
import { tileRow } from "./tiles.js";
import { el } from "./ui.js";

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
  root.appendChild(head);
  const tabs = el("div", "row rules-tabs");
  for (const preset of [...new Set((ui.rooms || []).map((r) => r.rules))]) {
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
  const facts = el("div", "rules-facts");
  facts.appendChild(tileRow(info.kinds, "xs"));
  const bits = [t("rules_copies", { n: info.copies }), t("rules_hand", { n: info.hand_size })];
  if (info.min_fan) bits.push(t("min_fan", { n: info.min_fan }));
  bits.push(info.fan_cap ? t("cap", { n: info.fan_cap }) : t("no_cap"));
  facts.appendChild(el("p", "", bits.join(" · ")));
  root.appendChild(facts);
  const rows = info.fans || info.multipliers || [];
  const table = el("div", "rules-fans");
  table.dataset.testid = "rules-fans";
  for (const f of rows) {
    const row = el("div", `fan-row${f.limit ? " limit" : ""}`);
    row.dataset.fan = f.id;
    row.append(el("span", "fan-name", pick(f)), el("span", "num", info.fans ? String(f.points) : `×${f.points}`));
    table.appendChild(row);
  }
  root.appendChild(el("h3", "", info.fans ? `${t("fan_list")} · ${pick(info.fan_table)}` : t("mult")));
  root.appendChild(table);
  return root;
}
