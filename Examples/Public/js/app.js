// The photos page: one live collection, its toolbar and status line.
import * as protocol from "/collection-view/v1/protocol.js";
import { LiveCollection, announcer, nextOp } from "/collection-view/v1/collection.js";
import { DragController } from "/collection-view/v1/dragdrop.js";
import { metrics } from "/collection-view/v1/metrics.js";
import { attachPinch } from "/collection-view/v1/pinch.js";
import { showStatus, drawViewers } from "./chrome.js";

const viewersBox = document.getElementById("viewers");
const sectionPicker = document.getElementById("section");
const seqText = document.getElementById("seq");
const announce = announcer(document.getElementById("announcer"));
const params = new URLSearchParams(location.search);

// (The connection reports its first status while it is being made, before the chrome is.)
let chromeReady = false;
const live = new LiveCollection({
  scroller: document.getElementById("scroller"),
  content: document.getElementById("content"),
  announce,
  name: params.get("name") ?? undefined,
  // The demo's list layout sizes rows by their text (the server's estimatedItemSize).
  selfSizingLayouts: new Set(["list"]),
  // A right-click, long press or the menu key: the server's context menu (Move to Top, Move to Album, Delete).
  contextMenus: true,
  onChange: (kind) => {
    // The first welcome ends the loading state.
    if (kind === "reload" && document.body.hasAttribute("data-loading")) {
      delete document.body.dataset.loading;
      document.getElementById("scroller").removeAttribute("aria-busy");
    }
    if (!["drag", "dropProposal", "ack"].includes(kind)) updateChrome();
  },
  onStatus: (status) => {
    showStatus(status, document.getElementById("status-text"), announce, chromeReady ? live.outbox.waiting : 0);
    if (chromeReady) updateChrome();
  },
  // Inserts, deletes and shuffles made offline wait, shown on the status line, and go out on the return.
  onPending: (waiting) => showStatus(document.body.dataset.status, document.getElementById("status-text"), announce, waiting),
});
const { state } = live;
chromeReady = true;

// Text, links and files dropped from outside become photos (the server's drop delegate decides where).
const drags = new DragController(announce);
drags.register(live);

function updateChrome() {
  seqText.textContent = `seq ${state.seq}`;
  const current = sectionPicker.value;
  if (sectionPicker.options.length !== state.sections.length || [...sectionPicker.options].some((o, i) => o.value !== state.sections[i].id)) {
    sectionPicker.replaceChildren(...state.sections.map((s) => new Option(s.title, s.id)));
    if (state.sections.some((s) => s.id === current)) sectionPicker.value = current;
  }
  drawViewers(viewersBox, state);
  // A viewer that may not edit here (its token's roles) gets no edit controls that would be refused.
  // Edits made while the connection is down wait for it; a layout, drawn by the server, cannot.
  // (Nothing to edit before the first welcome: the controls wait for it.)
  const canEdit = !!state.me && (state.can?.has("edit") ?? true);
  const connected = document.body.dataset.status === "connected";
  for (const id of ["insert", "shuffle"]) document.getElementById(id).disabled = !canEdit;
  for (const id of ["layout", "layout-mode"]) document.getElementById(id).disabled = !canEdit || !connected;
  document.getElementById("delete").disabled = !canEdit || state.mySelection().length === 0;
  document.body.dataset.layout = state.layout;
  document.body.classList.toggle("editing", state.editing);
  const toggle = document.getElementById("layout");
  toggle.setAttribute("aria-pressed", state.layout === "list" ? "true" : "false");
  toggle.textContent = state.layout === "list" ? "Grid" : "List";
  const mode = document.getElementById("layout-mode");
  if (mode.value !== state.layout) mode.value = state.layout;
  // The slider shows this viewer's own layout between grid (0) and list (1), unless it is being dragged.
  const slider = document.getElementById("transition");
  slider.disabled = !["grid", "list"].includes(state.layout);
  if (!live.transition) slider.value = state.layout === "list" ? "1" : "0";
  const edit = document.getElementById("edit");
  edit.setAttribute("aria-pressed", state.editing ? "true" : "false");
  edit.textContent = state.editing ? "Done" : "Select";
}

// Edits go through submit: made offline, they wait and go out when the connection is back.
const edit = (message) => {
  if (live.submit(message) === "queued") announce("Not connected: it will be sent when the connection is back.");
};
document.getElementById("insert").addEventListener("click", () => {
  edit(protocol.insert(nextOp(), sectionPicker.value, 3));
});
document.getElementById("delete").addEventListener("click", () => {
  const items = state.mySelection();
  if (items.length) edit(protocol.remove(nextOp(), items));
});
document.getElementById("layout").addEventListener("click", () => {
  live.send(protocol.layout(state.layout === "list" ? "grid" : "list"));
});
document.getElementById("layout-mode").addEventListener("change", (event) => {
  live.send(protocol.layout(event.target.value));
});
// An interactive transition of this viewer's own view: the slider, or a pinch.
const slider = document.getElementById("transition");
slider.addEventListener("input", () => {
  const value = Number(slider.value);
  if (!live.transition) live.beginTransition(state.layout === "list" ? "grid" : "list");
  if (live.transition) live.setTransitionProgress(live.transition.layout === "list" ? value : 1 - value);
});
slider.addEventListener("change", () => {
  if (live.transition) live.endTransition(live.transition.progress >= 0.5);
  updateChrome();
});
attachPinch(document.getElementById("scroller"), live, ["grid", "list"]);
document.getElementById("shuffle").addEventListener("click", () => {
  edit(protocol.shuffle(nextOp(), sectionPicker.value));
});
document.getElementById("edit").addEventListener("click", () => {
  live.send(protocol.editing(!state.editing));
});

// For tests and the curious.
window.__collection = { state, view: live.view, connection: live.connection, interaction: live.interaction, metrics, live, drags };
