// Where 好友房 (friend.js), the match you can see (match-log.js, match-result.js) and quick chat (chat.js) plug
// into the app: every server message passes here around messages.js's onMessage; the router asks here for
// their screens; the table screen lets them add to the drawn table.

import { chatAllowed, chatEl, onChat, onChatRate } from "./chat.js";
import { onFriendMessage, renderFriend, renderJoin } from "./friend.js";
import { decorateTable, logAfter, logBefore } from "./match-log.js";
import { onMatchEnd, onRematch, renderResult } from "./match-result.js";
import { onMessage } from "./messages.js";
import { render, S } from "./state.js";

/** One server message: the friend, rematch and chat messages here, the rest through messages.js. */
export function receive(msg) {
  if (msg.type === "chat") return onChat(msg);
  if (msg.type === "rematch") return onRematch(msg);
  if (msg.type === "error" && msg.code === "chat_rate") return onChatRate();
  if (onFriendMessage(msg)) return;
  logBefore(msg);
  onMessage(msg);
  logAfter(msg);
  if (msg.type === "match_end") {
    onMatchEnd(msg);
    if (S.screen === "result" || S.screen === "settle") render();
  }
}

/** The screen of these parts for the state, or null: the friend form / invite, the join page, the result. */
export function extraScreen() {
  if (S.screen === "friend") return renderFriend();
  if (S.screen === "join") return renderJoin();
  if (S.screen === "result" && S.result) {
    const root = renderResult();
    if (chatAllowed() && S.result.friend) root.querySelector(".end-actions")?.appendChild(chatEl());
    return root;
  }
  return null;
}

/** The drawn table (table-screen.js): 第 k/n 局, the running scores, and the chat button beside 托管. */
export function decorate(root) {
  decorateTable(root);
  if (!chatAllowed()) return;
  const foot = root.querySelector(".seat.me .foot");
  const auto = foot?.querySelector("[data-testid=autoplay]");
  if (auto) auto.after(chatEl());
  else foot?.appendChild(chatEl());
}
