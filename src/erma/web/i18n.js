// Chinese and English strings; the choice is remembered in localStorage ("erma.lang"). The strings of each
// language are in lang/zh.js and lang/en.js.

import { en } from "./lang/en.js";
import { zh } from "./lang/zh.js";

const STRINGS = { zh, en };

let lang = localStorage.getItem("erma.lang") || "zh"; // a Chinese game first; English one tap away

export function getLang() {
  return lang;
}

export function setLang(value) {
  lang = value === "en" ? "en" : "zh";
  localStorage.setItem("erma.lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

/** The string for `key` in the current language, with {name} placeholders filled from `args`. */
export function t(key, args = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.zh[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : `{${k}}`));
}

/** The start exchange's line: "你换了 3 张牌", "对手没有换牌" (none), "You swapped 1 tile" (one). */
export function exchangeText(count, mine) {
  const key = `ev_exchange_${mine ? "me" : "opp"}`;
  return t(count < 2 ? `${key}_${count}` : key, { n: count });
}

/** A bilingual field pair: obj.name_zh / obj.name_en. */
export function pick(obj, field = "name") {
  return obj[`${field}_${lang}`] ?? obj[`${field}_zh`] ?? obj[field] ?? "";
}

export function windName(w) {
  return t("winds")[w] ?? "?";
}

setLang(lang);

const NUM_ZH = "一二三四五六七八九";
const HONOR_ZH = ["东风", "南风", "西风", "北风", "白板", "发财", "红中"];
const FLOWER_ZH = "春夏秋冬梅兰竹菊";
const HONOR_EN = ["East Wind", "South Wind", "West Wind", "North Wind", "White Dragon", "Green Dragon", "Red Dragon"];
const FLOWER_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"];
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };

/** A tile's name for people and screen readers: "1m" → 一万 / 1 Characters, "7z" → 红中 / Red Dragon. */
export function tileName(tile) {
  if (!tile) return lang === "zh" ? "牌背" : "tile back";
  const n = Number(tile[0]);
  const suit = tile[1];
  if (lang === "zh") {
    if (suit === "z") return HONOR_ZH[n - 1] ?? tile;
    if (suit === "f") return FLOWER_ZH[n - 1] ?? tile;
    return NUM_ZH[n - 1] + { m: "万", p: "筒", s: "条" }[suit];
  }
  if (suit === "z") return HONOR_EN[n - 1] ?? tile;
  if (suit === "f") return FLOWER_EN[n - 1] ?? tile;
  return `${n} ${SUIT_EN[suit]}`;
}

/** The server's invalid_input messages the client words itself (the server sends English). */
const MESSAGE_CODES = [
  [/ is taken$/, "name_taken"],
  [/^name .*letters, digits/, "bad_name"],
  [/^name .*are for guests/, "guest_name"],
  [/^password: expected/, "bad_password"],
];

/** A server error as text in the current language (the code decides; the server's English message is
 * shown only for a code the client does not know, after the generic line). */
export function errorText(code, message = "") {
  for (const [pattern, known] of MESSAGE_CODES) if (code === "invalid_input" && pattern.test(message || "")) code = known;
  const s = STRINGS[lang][`err_${code}`];
  if (s) return s;
  return message && lang === "en" ? `${t("err_unknown")}: ${message}` : t("err_unknown") + (code ? ` (${code})` : "");
}

/** Every key of both languages (the tests check that each has a translation). */
export function keys() {
  return { zh: Object.keys(STRINGS.zh), en: Object.keys(STRINGS.en) };
}

/** The server's bot names (erma.server.hub.BOT_NAMES) in the current language. */
const BOT_NAMES = {
  "机器人·随机": { zh: "机器人·随机", en: "Bot · random moves" },
  "机器人·贪心": { zh: "机器人·贪心", en: "Bot · fast winner" },
  "机器人·新手 L1": { zh: "机器人·新手 L1", en: "Bot · novice L1" },
  "机器人·入门 L2": { zh: "机器人·入门 L2", en: "Bot · beginner L2" },
  "机器人·中级 L3": { zh: "机器人·中级 L3", en: "Bot · intermediate L3" },
  "机器人·高级 L4": { zh: "机器人·高级 L4", en: "Bot · advanced L4" },
  "机器人·高手 L5": { zh: "机器人·高手 L5", en: "Bot · expert L5" },
};

/** A player's name as shown: a bot's in the current language, a person's as they chose it. */
export function playerName(name, bot = false) {
  if (BOT_NAMES[name]) return BOT_NAMES[name][lang];
  return bot && !name ? t("bot_name") : name;
}
