// The lobby's link to the leaderboards and profiles (ranks.html), in the header, in the lobby's language.

const LABEL = { zh: "段位榜", en: "Ranks" };

function label() {
  return LABEL[localStorage.getItem("erma.lang") || "zh"] || LABEL.zh;
}

const link = document.createElement("a");
link.href = "ranks.html";
link.className = "chip";
link.dataset.testid = "ranks-link";
link.style.textDecoration = "none";
link.textContent = label();
const bar = document.querySelector("#topbar");
bar?.insertBefore(link, document.querySelector("#mute"));
document.querySelector("#lang")?.addEventListener("click", () => setTimeout(() => (link.textContent = label()), 0));
