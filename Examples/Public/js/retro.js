// The retro board's page: two <collection-view>s, the cards ("retro") and the
// countdown ("retro-timer", one item the server configures again every second).
// Adding a card is an action with no item; votes and removals are the cards'
// buttons; every answer the server gives to this page's actions is shown here.
import "/collection-view/v1/collection-view.js";
import { followStatus, drawViewers } from "./chrome.js";

const board = document.getElementById("retro");
const timer = document.getElementById("timer");
const notice = document.getElementById("notice");
window.__retro = board;
window.__timer = timer;

board.addEventListener("change", (e) => {
  drawViewers(document.getElementById("viewers"), board.state);
  // Adding waits for the board's first welcome.
  if (e.detail.kind === "reload") document.querySelector("#add button[type=submit]").disabled = false;
});
followStatus(board);

/** Shows what the server said of one of this page's actions (it is also announced). */
function tell(text) {
  notice.textContent = text;
  notice.hidden = !text;
}

const added = new Set();
for (const view of [board, timer]) {
  // This page says what was refused in its own notice (below the toolbar).
  view.addEventListener("refused", (e) => {
    e.preventDefault();
    if (!e.detail.action) tell(e.detail.message);
  });
  view.addEventListener("actionresult", (e) => {
    const { status, message, name, value, op } = e.detail;
    if (status !== "done") return tell(message);
    if (name === "vote") tell(value.voted === "true" ? `Voted: ${value.votes} vote${value.votes === "1" ? "" : "s"} now.` : "Vote taken back.");
    else tell("");
    if (added.delete(op)) document.getElementById("add-text").value = "";
  });
}

document.getElementById("add").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = document.getElementById("add-text").value.trim();
  if (!text) return;
  added.add(board.sendAction("add", null, { column: document.getElementById("add-column").value, text }));
});

// Who this page is: a link to sign in, or the name and a way out.
const me = await fetch("/me", { credentials: "same-origin" }).then((r) => r.json()).catch(() => null);
const who = document.getElementById("who");
if (me?.signedIn) {
  who.textContent = `${me.name} · sign out`;
  who.href = "signin.html?next=/retro.html";
  who.title = `Signed in as ${me.name} (${me.roles.join(", ")})`;
}
