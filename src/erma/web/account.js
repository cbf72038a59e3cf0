// The signed-in account: its balance, history and games, from GET /api/me and /api/games.

import { api, setToken, token } from "./api.js";
import { net } from "./socket.js";
import { render, S } from "./state.js";

export async function refreshMe() {
  if (!token()) return;
  try {
    const me = await api.me();
    S.account = me.account;
    S.balance = me.balance;
    S.history = me.history || [];
  } catch (err) {
    if (err.status === 401) {
      setToken("");
      S.account = null;
    }
  }
  try {
    S.games = (await api.games()).games || [];
  } catch {
    S.games = [];
  }
}

export async function signedIn(res) {
  setToken(res.token);
  S.account = res.account;
  S.balance = res.balance;
  net.connect(res.token);
  await refreshMe();
  render();
}
