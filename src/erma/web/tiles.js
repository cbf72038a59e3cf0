// Tiles in mpsz notation ("5m", "7z", "3f"), their images and sorting. The client never decides legality
// (the server's `legal` list does) nor computes waits (the server's `view.hints` carry them, with their worth).

import { tileName } from "./i18n.js";

const SUITS = "mpsz";

/** "123m55z" → ["1m","2m","3m","5z","5z"] (also accepts single tiles and spaces). */
export function parseTiles(text) {
  const out = [];
  let digits = [];
  for (const ch of text || "") {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if ("mpszf".includes(ch)) {
      for (const d of digits) out.push(d + ch);
      digits = [];
    }
  }
  return out;
}

/** The sort key of a tile: suit order m p s z f, then number. */
export function tileKey(tile) {
  const suit = "mpszf".indexOf(tile[1]);
  return suit * 10 + Number(tile[0]);
}

export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileKey(a) - tileKey(b));
}

/** ["1m","3m","5z"] → "13m5z" (sorted, grouped m p s z f: the view's `hand` notation). */
export function toMpsz(tiles) {
  let out = "";
  for (const suit of "mpszf") {
    const digits = sortTiles(tiles.filter((x) => x[1] === suit)).map((x) => x[0]);
    if (digits.length) out += digits.join("") + suit;
  }
  return out;
}

/** Index 0–33 of a playing tile (flowers: -1). */
export function kindIndex(tile) {
  const s = SUITS.indexOf(tile[1]);
  return s < 0 ? -1 : s * 9 + Number(tile[0]) - 1;
}

export function kindName(i) {
  return `${(i % 9) + 1}${SUITS[Math.floor(i / 9)]}`;
}

/** "(123m)[1111z](555p)" / "[4?]" → [{tiles, concealed, hidden}]. */
export function parseMelds(list) {
  return (list || []).map((m) => {
    const hidden = /\?/.test(m);
    const concealed = m.startsWith("[");
    const size = hidden ? Number((m.match(/\d/) || ["4"])[0]) : 0;
    return { tiles: hidden ? Array(size).fill(null) : parseTiles(m), concealed, hidden };
  });
}

/** A hand as the result writes it: "(678p)12399m23789p+1p" → {melds, concealed, win}. */
export function parseHand(text) {
  const [body, win] = (text || "").split("+");
  const melds = parseMelds(body.match(/[([][^)\]]*[)\]]/g) || []);
  const rest = body.replace(/[([][^)\]]*[)\]]/g, " ");
  return { melds, concealed: parseTiles(rest), win: win ? parseTiles(win)[0] : null };
}

/** An <img> of a tile (or its back when `tile` is null). */
export function tileImg(tile, cls = "") {
  const img = document.createElement("img");
  img.className = `tile ${cls}`.trim();
  img.src = `tiles/${tile || "back"}.svg`;
  img.alt = tileName(tile);
  img.draggable = false;
  if (tile) img.dataset.tile = tile;
  return img;
}

/** A row of tile images in a span. */
export function tileRow(tiles, cls = "") {
  const span = document.createElement("span");
  span.className = "tilerow";
  for (const x of tiles) span.appendChild(tileImg(x, cls));
  return span;
}
