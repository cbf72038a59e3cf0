// Leaderboards, profiles and the account panel (ranks.html): GET /api/leaderboard/{family},
// GET /api/players/{name}, POST /api/upgrade, /api/logout, /api/logout_all (docs/ratings.md, docs/protocol.md).
// Routes: "#board=standard" | "#board=wenzhou" | "#player=NAME". Strings in both languages live here; the
// language is the lobby's (localStorage "erma.lang").

import { ApiError, call, setToken, token } from "./api.js";

const STRINGS = {
  zh: {
    title: "段位与排行榜",
    lobby: "← 大厅",
    standard: "标准（搓牌 / 经典 / 无双）",
    wenzhou: "温州",
    pos: "名次",
    player: "玩家",
    rank: "段位",
    points: "积分",
    rating: "评分",
    rating_value: "{mu}（多半在 {lo}–{hi}）",
    rating_range: "多半在 {lo}–{hi}",
    matches: "场数",
    you: "你的名次",
    unrated: "你在这个规则下还没有计分的一场",
    nobody: "还没有人上榜",
    players: "{n} 位玩家",
    profile: "个人资料",
    hands_played: "对局数",
    matches_played: "计分场数",
    win_rate: "和牌率",
    avg_fans: "平均番数",
    deal_in: "点炮率",
    history: "评分走势",
    no_history: "还没有计分的对局",
    not_found: "没有名为 {name} 的玩家",
    account: "账户",
    guest_note: "你是游客：注册一个名字，豆子、战绩和段位都会保留。",
    name: "用户名",
    password: "密码",
    upgrade: "注册并保留",
    upgraded: "已注册为 {name}，豆子与战绩都保留了",
    beans: "欢乐豆 {n}",
    logout: "退出登录",
    logout_all: "所有设备退出",
    logged_out: "已退出（{n} 个会话）",
    not_logged_in: "未登录 —— 回大厅开始游戏",
    lang: "English",
    error: "出错了：{m}",
  },
  en: {
    title: "Ranks and leaderboards",
    lobby: "← Lobby",
    standard: "Standard (cuopai / classic / wushuang)",
    wenzhou: "Wenzhou",
    pos: "#",
    player: "Player",
    rank: "Rank",
    points: "Points",
    rating: "Rating",
    rating_value: "{mu} (likely {lo}–{hi})",
    rating_range: "likely {lo}–{hi}",
    matches: "Matches",
    you: "Your position",
    unrated: "You have no rated match in these rules yet",
    nobody: "Nobody is rated yet",
    players: "{n} players",
    profile: "Profile",
    hands_played: "Hands played",
    matches_played: "Rated matches",
    win_rate: "Win rate",
    avg_fans: "Average fans",
    deal_in: "Deal-in rate",
    history: "Rating history",
    no_history: "No rated hand yet",
    not_found: "No player named {name}",
    account: "Account",
    guest_note: "You are a guest: pick a name and keep your beans, history and rank.",
    name: "Name",
    password: "Password",
    upgrade: "Sign up and keep it all",
    upgraded: "Signed up as {name}; beans and history kept",
    beans: "{n} beans",
    logout: "Log out",
    logout_all: "Log out everywhere",
    logged_out: "Logged out ({n} sessions)",
    not_logged_in: "Not logged in — start from the lobby",
    lang: "中文",
    error: "Something went wrong: {m}",
  },
};

let lang = localStorage.getItem("erma.lang") || "zh";
const FAMILIES = ["standard", "wenzhou"];

function t(key, args = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.zh[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => String(args[k] ?? ""));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "testid") node.dataset.testid = v;
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const rankName = (rank) => (lang === "zh" ? rank.name_zh : rank.name_en);
const pct = (x) => (x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)}%`);
const num = (x, d = 1) => (x === null || x === undefined ? "—" : Number(x).toFixed(d));

/** A rating as a player reads it: the estimate and the range it very likely lies in, whole numbers. */
function ratingText(r) {
  const [lo, hi] = r.interval;
  return t("rating_value", { mu: num(r.mu, 0), lo: num(lo, 0), hi: num(hi, 0) });
}

/** The same in a table's cell: the estimate, its range under it in small print (a phone's column is narrow). */
function ratingCell(r) {
  const [lo, hi] = r.interval;
  return [num(r.mu, 0), el("small", { class: "range" }, t("rating_range", { lo: num(lo, 0), hi: num(hi, 0) }))];
}

function pointsText(rank) {
  return rank.threshold ? `${rank.points} / ${rank.threshold}` : String(rank.points);
}

function playerLink(name) {
  return el("a", { href: `#player=${encodeURIComponent(name)}`, testid: "player-link" }, name);
}

// ------------------------------------------------------------------------------ leaderboard

async function board(family) {
  const root = el("section", { class: "card", testid: "leaderboard" });
  root.append(
    el(
      "div",
      { class: "tabs" },
      FAMILIES.map((f) =>
        el("a", { class: "chip" + (f === family ? " on" : ""), href: `#board=${f}`, testid: `tab-${f}` }, t(f)),
      ),
    ),
  );
  const data = await call("GET", `/api/leaderboard/${family}?limit=50`);
  root.append(el("h2", {}, `${t(family)} · ${t("players", { n: data.players })}`));
  const head = el(
    "tr",
    {},
    el("th", { class: "num" }, t("pos")),
    el("th", {}, t("player")),
    el("th", {}, t("rank")),
    el("th", { class: "num" }, t("points")),
    el("th", { class: "num" }, t("rating")),
    el("th", { class: "num" }, t("matches")),
  );
  const row = (r, mine) =>
    el(
      "tr",
      { class: mine ? "me" : "", testid: mine ? "my-row" : "board-row" },
      el("td", { class: "num" }, r.position),
      el("td", {}, playerLink(r.name)),
      el("td", { class: "rank" }, rankName(r.rank)),
      el("td", { class: "num" }, pointsText(r.rank)),
      el("td", { class: "num" }, ratingCell(r.rating)),
      el("td", { class: "num" }, r.matches),
    );
  const me = data.me;
  const body = data.top.map((r) => row(r, me && r.position === me.position));
  root.append(data.top.length ? el("table", {}, el("thead", {}, head), el("tbody", {}, body)) : el("p", { class: "muted" }, t("nobody")));
  if (token()) {
    root.append(el("h2", {}, t("you")));
    root.append(me ? el("table", {}, el("tbody", {}, row(me, true))) : el("p", { class: "muted", testid: "unrated" }, t("unrated")));
  }
  return root;
}

// ------------------------------------------------------------------------------ profile

function chart(history) {
  const W = 640;
  const H = 220;
  const pad = { l: 40, r: 12, t: 12, b: 24 };
  const svgNS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("history"));
  svg.dataset.testid = "rating-chart";
  const add = (tag, attrs) => {
    const node = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.append(node);
    return node;
  };
  const lo = history.map((h) => h.mu - 1.645 * h.sigma);
  const hi = history.map((h) => h.mu + 1.645 * h.sigma);
  let min = Math.min(...lo);
  let max = Math.max(...hi);
  if (max - min < 1) {
    min -= 0.5;
    max += 0.5;
  }
  const n = history.length;
  const x = (i) => pad.l + (n === 1 ? (W - pad.l - pad.r) / 2 : (i * (W - pad.l - pad.r)) / (n - 1));
  const y = (v) => pad.t + ((max - v) * (H - pad.t - pad.b)) / (max - min);
  for (const v of [min, (min + max) / 2, max]) {
    add("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), stroke: "rgba(255,255,255,0.15)" });
    add("text", { x: 4, y: y(v) + 4, fill: "#b9d3c5", "font-size": 11 }).textContent = v.toFixed(1);
  }
  const band = hi.map((v, i) => `${x(i)},${y(v)}`).concat(lo.map((v, i) => `${x(i)},${y(v)}`).reverse());
  add("polygon", { points: band.join(" "), fill: "rgba(240,185,58,0.22)", "data-testid": "chart-band" });
  add("polyline", {
    points: history.map((h, i) => `${x(i)},${y(h.mu)}`).join(" "),
    fill: "none",
    stroke: "#f0b93a",
    "stroke-width": 2,
    "data-testid": "chart-line",
  });
  add("text", { x: pad.l, y: H - 6, fill: "#b9d3c5", "font-size": 11 }).textContent = "1";
  add("text", { x: W - pad.r - 24, y: H - 6, fill: "#b9d3c5", "font-size": 11 }).textContent = String(n);
  return svg;
}

async function profile(name) {
  const root = el("section", { class: "card", testid: "profile" });
  let data;
  try {
    data = await call("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      root.append(el("p", { class: "err" }, t("not_found", { name })));
      return root;
    }
    throw e;
  }
  root.append(el("h1", { testid: "profile-name" }, `${t("profile")} · ${data.name}`));
  for (const family of FAMILIES) {
    const f = data.families[family];
    const box = el("div", { class: "card", testid: `profile-${family}` });
    box.append(el("h2", {}, t(family)));
    const stat = (label, value, testid) => el("div", { class: "stat", testid }, el("small", {}, label), el("b", {}, value));
    box.append(
      el(
        "div",
        { class: "stats" },
        stat(t("rank"), `${rankName(f.rank)} · ${pointsText(f.rank)}`, "stat-rank"),
        stat(t("rating"), ratingText(f.rating), "stat-rating"),
        stat(t("hands_played"), f.hands_played, "stat-hands"),
        stat(t("matches_played"), f.matches, "stat-matches"),
        stat(t("win_rate"), pct(f.win_rate), "stat-win"),
        stat(t("avg_fans"), num(f.average_fans), "stat-fans"),
        stat(t("deal_in"), pct(f.deal_in_rate), "stat-dealin"),
      ),
    );
    box.append(el("h2", {}, t("history")));
    box.append(f.history.length ? chart(f.history) : el("p", { class: "muted" }, t("no_history")));
    root.append(box);
  }
  return root;
}

// ------------------------------------------------------------------------------ account

async function account() {
  const root = el("section", { class: "card", testid: "account" });
  root.append(el("h2", {}, t("account")));
  if (!token()) {
    root.append(el("p", { class: "muted" }, el("a", { href: "./" }, t("not_logged_in"))));
    return root;
  }
  let me;
  try {
    me = await call("GET", "/api/me");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      setToken("");
      root.append(el("p", { class: "muted" }, el("a", { href: "./" }, t("not_logged_in"))));
      return root;
    }
    throw e;
  }
  const note = el("p", { testid: "account-note" });
  root.append(
    el("p", { class: "row" }, playerLink(me.account.name), " · ", el("span", { testid: "account-beans" }, t("beans", { n: me.balance }))),
  );
  if (me.account.guest) {
    const name = el("input", { name: "name", placeholder: t("name"), autocomplete: "username", testid: "up-name" });
    const password = el("input", {
      name: "password",
      type: "password",
      placeholder: t("password"),
      autocomplete: "new-password",
      testid: "up-password",
    });
    const form = el(
      "form",
      {
        testid: "upgrade-form",
        onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            const done = await call("POST", "/api/upgrade", { name: name.value, password: password.value });
            await render();
            const after = document.querySelector('[data-testid="account-note"]');
            if (after) {
              after.className = "ok";
              after.textContent = t("upgraded", { name: done.account.name });
            }
          } catch (e) {
            note.className = "err";
            note.textContent = e.message;
          }
        },
      },
      name,
      password,
      el("button", { class: "chip", type: "submit", testid: "upgrade" }, t("upgrade")),
    );
    root.append(el("p", { class: "muted" }, t("guest_note")), form);
  }
  const out = async (path) => {
    try {
      const r = await call("POST", path);
      setToken("");
      await render();
      const after = document.querySelector('[data-testid="account-note"]') || document.querySelector("#ranks");
      after.append(el("p", { class: "ok", testid: "logged-out" }, t("logged_out", { n: r.revoked ?? 1 })));
    } catch (e) {
      note.className = "err";
      note.textContent = e.message;
    }
  };
  root.append(
    el(
      "p",
      { class: "row" },
      el("button", { class: "chip", type: "button", testid: "logout", onclick: () => out("/api/logout") }, t("logout")),
      el("button", { class: "chip", type: "button", testid: "logout-all", onclick: () => out("/api/logout_all") }, t("logout_all")),
    ),
    note,
  );
  return root;
}

// ------------------------------------------------------------------------------ page

function route() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("player")) return { player: hash.get("player") };
  const family = FAMILIES.includes(hash.get("board")) ? hash.get("board") : "standard";
  return { family };
}

async function render() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.title = `${t("title")} · erma`;
  const btn = document.querySelector("#rk-lang");
  btn.textContent = t("lang");
  const main = document.querySelector("#ranks");
  const r = route();
  try {
    const parts = [
      el("p", {}, el("a", { href: "./", testid: "to-lobby" }, t("lobby"))),
      el("h1", {}, t("title")),
      await account(),
      r.player !== undefined ? await profile(r.player) : await board(r.family),
    ];
    main.replaceChildren(...parts);
  } catch (e) {
    main.replaceChildren(el("p", { class: "err" }, t("error", { m: e.message })));
  }
}

document.querySelector("#rk-lang").addEventListener("click", () => {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("erma.lang", lang);
  render();
});
window.addEventListener("hashchange", render);
render();
