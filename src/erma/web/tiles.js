// Tiles in mpsz notation ("5m", "7z", "3f"), their images, sorting, and a small wait finder for hints.
// The client never decides legality (the server's `legal` list does); waits here are only a hint.

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
  img.alt = tile || "";
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

// ---------------------------------------------------------------------------- wait finder

/** Can these counts be split into sets only (pungs and chows)? Mutates and restores `counts`. */
function isSets(counts) {
  let i = 0;
  while (i < 34 && counts[i] === 0) i++;
  if (i === 34) return true;
  if (counts[i] >= 3) {
    counts[i] -= 3;
    const ok = isSets(counts);
    counts[i] += 3;
    if (ok) return true;
  }
  if (i < 27 && i % 9 <= 6 && counts[i + 1] > 0 && counts[i + 2] > 0) {
    counts[i]--;
    counts[i + 1]--;
    counts[i + 2]--;
    const ok = isSets(counts);
    counts[i]++;
    counts[i + 1]++;
    counts[i + 2]++;
    if (ok) return true;
  }
  return false;
}

function isComplete(counts, concealedSize) {
  const c = counts.slice();
  if (isRegularAnyPair(c)) return true;
  if (concealedSize === 14) {
    let pairs = 0;
    for (const n of counts) pairs += Math.floor(n / 2);
    if (pairs === 7 && counts.every((n) => n % 2 === 0)) return true;
    const orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
    if (orphans.every((k) => counts[k] > 0) && orphans.reduce((s, k) => s + counts[k], 0) === 14) return true;
  }
  return false;
}

function isRegularAnyPair(c) {
  // try every pair: simple and exact
  for (let p = 0; p < 34; p++) {
    if (c[p] >= 2) {
      c[p] -= 2;
      const ok = isSets(c);
      c[p] += 2;
      if (ok) return true;
    }
  }
  return false;
}

/** Kinds that would complete a concealed part of 3n+1 tiles (regular shape, seven pairs, orphans). */
export function findWaits(concealed) {
  if (concealed.length % 3 !== 1) return [];
  const counts = new Array(34).fill(0);
  for (const x of concealed) {
    const k = kindIndex(x);
    if (k >= 0) counts[k]++;
  }
  const waits = [];
  for (let k = 0; k < 34; k++) {
    counts[k]++;
    if (isComplete(counts, concealed.length + 1)) waits.push(kindName(k));
    counts[k]--;
  }
  return waits;
}

/** How many copies of each kind this seat has not seen (copies − visible ones). */
export function unseenCounts(view, copies = 4) {
  const seen = new Array(34).fill(0);
  const add = (x) => {
    const k = x ? kindIndex(x) : -1;
    if (k >= 0) seen[k]++;
  };
  parseTiles(view.hand).forEach(add);
  for (const river of view.discards || []) river.forEach(add);
  for (const melds of view.melds || []) for (const m of parseMelds(melds)) m.tiles.forEach(add);
  (view.revealed || []).forEach(add);
  return seen.map((n) => Math.max(0, copies - n));
}
