// The account upgrade in the lobby (issue 36): a guest picks a name and a password and keeps its beans,
// history and rank (POST /api/upgrade, as the ranks page's account panel does), without going there.

import { call } from "./api.js";
import { errorText, t } from "./i18n.js";
import { render, S } from "./state.js";
import { btn, el, toast } from "./ui.js";

export function upgradeEl() {
  const card = el("div", "card upgrade");
  card.dataset.testid = "lobby-upgrade";
  card.appendChild(el("h2", "", t("upgrade_title")));
  card.appendChild(el("p", "muted", t("upgrade_note")));
  const form = el("form", "loginform");
  form.innerHTML = `<input name="name" autocomplete="username" required maxlength="32">
    <input name="password" type="password" autocomplete="new-password" required>`;
  form.elements.name.placeholder = t("name");
  form.elements.password.placeholder = t("password");
  const submit = async () => {
    const name = form.elements.name.value.trim();
    const password = form.elements.password.value;
    if (!name || !password) return;
    try {
      const done = await call("POST", "/api/upgrade", { name, password });
      S.account = done.account;
      toast(t("upgraded", { name: done.account.name }));
      render();
    } catch (err) {
      toast(errorText(err.code, err.message));
    }
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    submit();
  });
  form.appendChild(btn(t("upgrade_go"), "go", submit, "lobby-upgrade-go"));
  card.appendChild(form);
  return card;
}
