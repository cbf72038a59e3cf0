// Logging out (退出): a named account just logs out; a guest is asked first — a guest has no password, so a
// guest who logs out can never reach its account, beans and history again — and offered the upgrade to a
// full account (name + password, POST /api/upgrade) right there, which keeps its beans, history and ratings.

import { call, setToken } from "./api.js";
import { errorText, t } from "./i18n.js";
import { net } from "./socket.js";
import { render, S } from "./state.js";
import { el, toast } from "./ui.js";

/** The lobby's 退出 button. */
export function logOut() {
  if (S.account?.guest) askGuest();
  else endSession();
}

async function endSession() {
  try {
    await call("POST", "/api/logout"); // (a guest's account goes with its last session)
  } catch {
    /* the token is forgotten here anyway */
  }
  setToken("");
  net.close();
  S.account = null;
  S.balance = null;
  S.games = [];
  render();
}

function button(label, cls, testid, onClick) {
  const b = el("button", `btn ${cls}`, label);
  b.type = "button";
  b.dataset.testid = testid;
  b.addEventListener("click", onClick);
  return b;
}

/** The question, as a modal dialog over the lobby: sign up and keep it all, log out and lose it, or stay. */
function askGuest() {
  document.querySelector("dialog.logout")?.remove();
  const dlg = el("dialog", "logout card");
  const shut = () => {
    dlg.close();
    dlg.remove(); // at once (the close event comes a task later)
  };
  dlg.dataset.testid = "logout-dialog";
  dlg.appendChild(el("h2", "", t("logout_guest_title")));
  dlg.appendChild(el("p", "", t("logout_guest_warn", { n: S.balance ?? 0 })));
  const form = el("form", "loginform upgrade");
  form.method = "dialog";
  const name = el("input");
  Object.assign(name, { name: "name", autocomplete: "username", placeholder: t("name"), required: true, maxLength: 32 });
  name.dataset.testid = "upgrade-name";
  const pw = el("input");
  Object.assign(pw, { name: "password", type: "password", autocomplete: "new-password", placeholder: t("password"), required: true });
  pw.dataset.testid = "upgrade-password";
  const keep = button(t("logout_keep"), "go", "upgrade-keep", () => form.requestSubmit());
  form.append(el("p", "muted", t("logout_keep_lead")), name, pw, keep);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    keep.disabled = true;
    try {
      const done = await call("POST", "/api/upgrade", { name: name.value.trim(), password: pw.value });
      S.account = done.account;
      S.balance = done.balance ?? S.balance;
      shut();
      toast(t("logout_upgraded", { name: done.account.name }), 5000);
      render();
    } catch (err) {
      toast(errorText(err.code, err.message), 5000);
    } finally {
      keep.disabled = false;
    }
  });
  dlg.appendChild(form);
  const row = el("div", "row");
  row.appendChild(button(t("logout_anyway"), "danger", "logout-confirm", () => {
    shut();
    endSession();
  }));
  row.appendChild(button(t("cancel"), "ghost", "logout-cancel", shut));
  dlg.appendChild(row);
  dlg.addEventListener("close", () => dlg.remove());
  document.body.appendChild(dlg);
  dlg.showModal();
}
