// Wires the page: connection -> state -> view, and user input -> messages.
import * as protocol from "./protocol.js";
import { CollectionState } from "./state.js";
import { CollectionView } from "./view.js";
import { Connection } from "./connection.js";
import { Interaction } from "./interaction.js";
import { describeBatch } from "./announce.js";
import { metrics } from "./metrics.js";

const scroller = document.getElementById("scroller");
const content = document.getElementById("content");
const statusText = document.getElementById("status-text");
const viewersBox = document.getElementById("viewers");
const sectionPicker = document.getElementById("section");
const seqText = document.getElementById("seq");
const announcer = document.getElementById("announcer");

const state = new CollectionState();
const view = new CollectionView(content, state);
// The demo's list layout sizes rows by their text (the server's estimatedItemSize).
view.selfSizingLayouts = new Set(["list"]);
view.onMeasure = (sizes) => connection.send(protocol.measure(sizes));
let opCounter = 0;
const nextOp = () => `op-${Date.now().toString(36)}-${++opCounter}`;

/** Says `text` in the polite live region (screen readers read it when idle). */
function announce(text) {
  if (!text) return;
  announcer.textContent = "";
  // A fresh text node each time, so that the same sentence twice is read twice.
  requestAnimationFrame(() => { announcer.textContent = text; });
}

const viewport = () => ({ width: Math.max(1, scroller.clientWidth), height: Math.max(1, scroller.clientHeight) });
const offset = () => ({ x: 0, y: scroller.scrollTop });

const url = new URL("ws", location.href);
url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
const params = new URLSearchParams(location.search);

const connection = new Connection(url.href, {
  onOpen() {
    // After a reconnect, ask to resume from the last batch applied.
    connection.send(protocol.hello(viewport(), offset(), params.get("name") ?? undefined, state.epoch ? state.seq : undefined, state.epoch));
  },
  onMessage(message) {
    const start = metrics.enabled ? performance.now() : 0;
    const change = state.apply(message);
    if (metrics.enabled) metrics.applied = performance.now() - start;
    switch (change.kind) {
      case "reload":
      case "window":
      case "batch":
        view.schedule(change);
        updateChrome();
        interaction.resolvePendingFocus();
        if (change.kind === "window") interaction.movedWindow();
        if (change.kind === "batch") {
          announce(describeBatch(message, state));
          scheduleChecksums();
        }
        break;
      case "gap":
      case "diverged":
        // Out of order, or an order that does not match the server's: ask for a
        // fresh copy rather than show a wrong order.
        reload(change.kind === "gap" ? `expected batch ${change.expected}, got ${change.got}` : change.reason);
        break;
      case "layout":
        view.schedule(change);   // cells of a self-sizing layout are measured
        updateChrome();
        if (change.by !== state.me?.id) announce(`Switched to ${state.layout} layout by ${state.viewers.get(change.by)?.name ?? "another viewer"}.`);
        break;
      case "resume":
      case "replay":
        updateChrome();
        scheduleChecksums();
        break;
      case "drag":
        requestAnimationFrame(() => view.drawGhosts());
        break;
      case "selection":
        view.refreshSelection();
        updateChrome();
        break;
      case "presence":
        view.refreshSelection();
        view.drawGhosts();
        updateChrome();
        break;
      case "error":
      case "reject":
        if (message.code === "move_cancelled") interaction.moveLost();
        console.warn("server:", message.code, message.message);
        break;
    }
  },
  onStatus(status) {
    const was = document.body.dataset.status;
    document.body.dataset.status = status;
    statusText.textContent = status;
    if (was && was !== status && status !== "connecting") announce(status === "connected" ? "Connected." : "Connection lost; reconnecting.");
  },
});

/** Reloads after a gap or a wrong order: a fresh copy rather than a wrong one shown. */
function reload(why) {
  console.warn("reloading:", why);
  state.reloads += 1;
  connection.send(protocol.hello(viewport(), offset()));
}

// Checksums of the sections batches changed are checked when the page is idle
// (within 200 ms), off the path of drawing the batch.
let checksumsScheduled = false;
function scheduleChecksums() {
  if (checksumsScheduled) return;
  checksumsScheduled = true;
  const run = () => {
    checksumsScheduled = false;
    const start = metrics.enabled ? performance.now() : 0;
    const why = state.verifyChecksums();
    if (metrics.enabled) metrics.checks.push(performance.now() - start);
    if (why) reload(why);
  };
  if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 200 });
  else setTimeout(run, 50);
}

function updateChrome() {
  seqText.textContent = `seq ${state.seq}`;
  const current = sectionPicker.value;
  if (sectionPicker.options.length !== state.sections.length || [...sectionPicker.options].some((o, i) => o.value !== state.sections[i].id)) {
    sectionPicker.replaceChildren(...state.sections.map((s) => new Option(s.title, s.id)));
    if (state.sections.some((s) => s.id === current)) sectionPicker.value = current;
  }
  const viewersKey = JSON.stringify([...state.viewers.values()].map((v) => [v.id, v.name, v.color, v.id === state.me?.id]));
  if (viewersBox.dataset.key !== viewersKey) {
    viewersBox.dataset.key = viewersKey;
    viewersBox.replaceChildren(
      ...[...state.viewers.values()].map((v) => {
        const dot = document.createElement("span");
        dot.className = "viewer" + (v.id === state.me?.id ? " me" : "");
        dot.style.setProperty("--color", v.color);
        dot.title = v.id === state.me?.id ? `${v.name} (you)` : v.name;
        dot.textContent = v.name.replace(/^Viewer /, "");
        return dot;
      }),
    );
  }
  document.getElementById("delete").disabled = state.mySelection().length === 0;
  document.body.dataset.layout = state.layout;
  const toggle = document.getElementById("layout");
  toggle.setAttribute("aria-pressed", state.layout === "list" ? "true" : "false");
  toggle.textContent = state.layout === "list" ? "Grid" : "List";
}

// Scrolling and resizing: one message per animation frame at most.
let scrollQueued = false;
let resized = false;
function queueScroll() {
  if (scrollQueued) return;
  scrollQueued = true;
  requestAnimationFrame(() => {
    scrollQueued = false;
    connection.send(protocol.scroll(offset(), resized ? viewport() : undefined));
    resized = false;
  });
}
scroller.addEventListener("scroll", queueScroll, { passive: true });
new ResizeObserver(() => {
  resized = true;
  queueScroll();
}).observe(scroller);

// Pointer and keyboard: selection, focus, reorder.
const interaction = new Interaction({ scroller, content, state, view, send: (m) => connection.send(m), nextOp, announce });

document.getElementById("insert").addEventListener("click", () => {
  connection.send(protocol.insert(nextOp(), sectionPicker.value, 3));
});
document.getElementById("delete").addEventListener("click", () => {
  const items = state.mySelection();
  if (items.length) connection.send(protocol.remove(nextOp(), items));
});
document.getElementById("layout").addEventListener("click", () => {
  connection.send(protocol.layout(state.layout === "list" ? "grid" : "list"));
});
document.getElementById("shuffle").addEventListener("click", () => {
  connection.send(protocol.shuffle(nextOp(), sectionPicker.value));
});

// For tests and the curious.
window.__collection = { state, view, connection, interaction, metrics };
