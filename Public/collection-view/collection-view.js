// <collection-view collection="…">: a live collection as a custom element. Plain
// ES module, no build step. The cells are drawn in the element's light DOM from
// the page's own <template id="tpl-REUSE"> elements, so the page's CSS styles them;
// collection-view.css (added to the page once) holds what the component owns.
// docs/CLIENT.md documents the attributes, events, methods and the CSS contract.
import * as protocol from "./protocol.js";
import { LiveCollection, announcer } from "./collection.js";
import { CONTROLS } from "./interaction.js";
import { describeRefusal } from "./announce.js";
import { attachPinch } from "./pinch.js";
import { addStylesheet } from "./stylesheet.js";


/** The payload of a control: its `data-*` fields (but `action`) and, for inputs, its value. */
export function controlPayload(control) {
  const payload = {};
  for (const [key, value] of Object.entries(control.dataset)) if (key !== "action") payload[key] = String(value);
  if (control.matches("input[type=checkbox], input[type=radio]")) payload.value = control.checked ? "true" : "false";
  else if (control.matches("input, select, textarea")) payload.value = control.value;
  return payload;
}

export class CollectionViewElement extends HTMLElement {
  connectedCallback() {
    if (this.live) return;
    // Cells drawn before the library's styles or the page's fonts arrived measured
    // other heights: self-sizing cells are measured again once they have.
    const remeasure = () => this.live?.view.remeasure();
    addStylesheet().then(remeasure);
    document.fonts?.ready.then(remeasure);
    const scroller = document.createElement("div");
    scroller.className = "cv-scroller";
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "listbox");
    scroller.setAttribute("aria-multiselectable", "true");
    scroller.setAttribute("aria-label", this.getAttribute("label") ?? this.getAttribute("collection") ?? "Collection");
    const content = document.createElement("div");
    content.className = "cv-content content";
    content.setAttribute("role", "presentation");
    scroller.append(content);
    const region = document.createElement("div");
    region.className = "cv-announcer";
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    // What was refused, and why: shown a few seconds (a page may restyle .cv-notice,
    // or handle the "refused" event and call preventDefault() to show its own).
    const notice = document.createElement("div");
    notice.className = "cv-notice";
    notice.setAttribute("role", "status");
    notice.hidden = true;
    this.notice = notice;
    // While the connection is down: a banner on every collection of the page, said
    // once (not at every retry, nor once per collection), with what waits to be sent
    // beside it. The live region stays in the page, so what is written into it is
    // said; the banner's own text is for the eye.
    const offline = document.createElement("div");
    offline.className = "cv-offline";
    const shown = document.createElement("span");
    shown.setAttribute("aria-hidden", "true");
    const said = document.createElement("span");
    said.className = "cv-offline-said";
    said.setAttribute("role", "status");
    const waiting = document.createElement("span");
    waiting.className = "cv-offline-waiting";
    offline.append(shown, said, " ", waiting);
    this.offline = { box: offline, shown, said, waiting };
    this.replaceChildren(scroller, region, notice, offline);
    this.scroller = scroller;
    // Until the first welcome: busy, and "Loading…" shown where the cells will be.
    this.dataset.loading = "";
    scroller.setAttribute("aria-busy", "true");
    const params = new URLSearchParams(location.search);
    const selfSizing = (this.getAttribute("self-sizing") ?? "").split(/\s+/).filter(Boolean);
    this.live = new LiveCollection({
      labelField: this.getAttribute("label-field") ?? undefined,
      scroller,
      content,
      announce: announcer(region),
      collection: this.getAttribute("collection") ?? undefined,
      name: this.getAttribute("viewer-name") ?? params.get("name") ?? undefined,
      selfSizingLayouts: selfSizing.length ? new Set(selfSizing) : undefined,
      dropSessions: this.hasAttribute("drop-sessions"),
      contextMenus: this.hasAttribute("context-menus"),
      endpoint: this.getAttribute("endpoint") ?? "/ws",
      token: this.getAttribute("token") ?? undefined,
      onChange: (kind, message) => this.#changed(kind, message),
      onRefused: (detail) => this.#refused(detail),
      onStatus: (status) => {
        this.dataset.status = status;
        this.#showOffline(status);
        this.#emit("status", { status });
      },
      onPending: (waiting) => {
        this.#showOffline(this.dataset.status);
        this.#emit("pending", { waiting });
      },
    });
    // An action that went out as the connection fell and got no answer is not sent again.
    this.live.onLostAction = (m) => this.#answered(m.op, "failed", "The connection was lost before an answer came: it may not have been done.", null);
    // pinch-layouts="grid list": a pinch moves this viewer's layout along those (an interactive transition).
    const pinch = (this.getAttribute("pinch-layouts") ?? "").split(/\s+/).filter(Boolean);
    if (pinch.length > 1) attachPinch(scroller, this.live, pinch);
    content.addEventListener("click", (e) => this.#control(e, "click"));
    content.addEventListener("change", (e) => this.#control(e, "change"));
  }

  disconnectedCallback() {
    this.live?.close();
    this.live = null;
  }

  /** The client-side state (protocol.js's CollectionState): elements, sections, selection, viewers. */
  get state() {
    return this.live?.state;
  }

  /** This viewer as the server named it: {id, name, color}. */
  get viewer() {
    return this.live?.state.me ?? null;
  }

  /** Scrolls so that `item` sits at `position` ("top", "center", "bottom" or "nearest"), even if it is not drawn yet. */
  scrollToItem(item, position = "nearest") {
    this.live?.send(protocol.scrollToItem(item, position));
  }

  /** Starts an interactive transition of this viewer's own layout to `layout` (a server layout name). */
  beginTransition(layout) {
    return this.live?.beginTransition(layout) ?? false;
  }

  /** Moves the transition (0: the layout it started from, 1: the target); the server sends the frames. */
  setTransitionProgress(progress) {
    this.live?.setTransitionProgress(progress);
  }

  /** Ends the transition in its target layout (`finish`), or back where it started. */
  endTransition(finish) {
    this.live?.endTransition(finish);
  }

  /** Selects (or deselects) `item` for this viewer; the server's delegate may refuse. */
  selectItem(item, selected = true) {
    this.live?.send(protocol.select(item, selected));
  }

  /** Actions sent and not answered yet, by op. */
  #actions = new Map();
  #actionSerial = 0;

  /**
   * Sends an action as a control would: `item` null for one outside cells. Its
   * answer comes as an `actionresult` event (detail: name, item, status "done",
   * "refused" or "failed", message, value); a refusal or failure is also said to
   * the person. Returns the action's op.
   */
  sendAction(name, item = null, payload = {}) {
    const op = `a${Date.now().toString(36)}-${++this.#actionSerial}`;
    this.#actions.set(op, { name, item });
    // With no connection it waits (and is shown waiting) until the connection is back.
    const verdict = this.live?.submit(protocol.action(name, item, payload, op)) ?? "refused";
    this.#emit("action", { name, item, payload, viewer: this.viewer, op, queued: verdict === "queued" });
    if (verdict === "refused") this.#actions.delete(op);
    if (verdict === "queued") this.live.announce("Not connected: it will be sent when the connection is back.");
    return op;
  }

  /** Edits and actions made while the connection was down that wait for it (they go out when it is back). */
  get pendingCount() {
    return this.live?.outbox.waiting ?? 0;
  }

  /** An answer to one of this page's actions: an event, and a refusal said aloud. */
  #answered(op, status, message, value, code) {
    const sent = this.#actions.get(op);
    if (!sent) return;
    this.#actions.delete(op);
    this.#emit("actionresult", { op, name: sent.name, item: sent.item, status, message: message ?? null, value: value ?? {}, code: code ?? null });
    // (A refusal before the app, a reject, was told as it came.)
    if (status !== "done" && message && !code) this.#refused({ code: status, message, op, action: sent.name });
  }

  /**
   * Something this viewer did was refused or failed: a cancelable "refused" event
   * ({code, message, op}); unless the page prevents it, the notice shows the reason.
   */
  #refused(detail) {
    const event = new CustomEvent("refused", { detail, bubbles: true, cancelable: true });
    if (!this.dispatchEvent(event) || !detail.message) return;
    clearTimeout(this.noticeTimer);
    this.notice.textContent = describeRefusal(detail);
    this.notice.hidden = false;
    this.noticeTimer = setTimeout(() => { this.notice.hidden = true; }, 6000);
  }

  /**
   * The banner follows the connection: shown when it is lost (said once, however many
   * retries), with the number of changes waiting; hidden, and said, when it is back.
   */
  #showOffline(status) {
    const { box, shown, said, waiting } = this.offline;
    const wasDown = box.dataset.down === "true";
    const down = status === "reconnecting" || (status === "connecting" && wasDown);
    if (down) {
      box.dataset.down = "true";
      shown.textContent = "Connection lost. Reconnecting…";
      if (!wasDown && sayOncePerPage("lost")) said.textContent = shown.textContent;
      // What waits is for the eye: each change was said as it was made.
      const n = this.pendingCount;
      const text = n ? `${n === 1 ? "1 change waits" : `${n} changes wait`} to be sent.` : "";
      if (waiting.textContent !== text) waiting.textContent = text;
    } else if (status === "connected" && wasDown) {
      delete box.dataset.down;
      shown.textContent = "";
      said.textContent = "";
      waiting.textContent = "";
      if (sayOncePerPage("back")) this.live?.announce("Connected again.");
    }
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
  }

  /** A cell's control (data-action) was used: a click on a button or link, a change of an input. */
  #control(event, how) {
    const control = event.target.closest("[data-action]");
    if (!control || !this.contains(control)) return;
    const isInput = control.matches("input:not([type=checkbox]):not([type=radio]), select, textarea");
    if ((how === "click") === isInput) return;
    if (how === "click" && control.matches("a[href], button")) event.preventDefault();
    const item = control.closest("[data-item]")?.dataset.item ?? null;
    this.sendAction(control.dataset.action, item, controlPayload(control));
  }

  #changed(kind, message) {
    // The first welcome ends the loading state.
    if (kind === "reload" && this.hasAttribute("data-loading")) {
      delete this.dataset.loading;
      this.scroller.removeAttribute("aria-busy");
    }
    const me = this.viewer?.id;
    switch (message.type) {
      case "actionResult":
        if (message.op) this.#answered(message.op, message.status, message.message, message.value);
        break;
      case "reject":
        // Refused before the app saw it (rights, limits, an item gone).
        if (this.#actions.has(message.op)) this.#answered(message.op, "refused", message.message, null, message.code);
        break;
      case "selection":
        this.#emit("select", { items: [message.item], selected: message.selected, viewer: message.viewer, mine: message.viewer === me });
        break;
      case "selections":
        this.#emit("select", { items: message.items, selected: message.selected, viewer: message.viewer, mine: message.viewer === me });
        break;
      case "batch":
        if (message.moves?.length) {
          // [[fromSection, fromItem], [toSection, toItem]]: the item is where it landed in the order held.
          const moves = message.moves.map(([from, to]) => ({ from, to, item: this.state.order?.[to[0]]?.[to[1]] ?? null }));
          this.#emit("move", { seq: message.seq, by: message.by, mine: message.by === me, moves });
        }
        break;
    }
    this.#emit("change", { kind, message });
  }
}

/** When each page-wide sentence was last said: several elements lose one server together, and the person hears it once. */
const saidAt = new Map();
function sayOncePerPage(what) {
  const now = performance.now();
  const last = saidAt.get(what);
  saidAt.set(what, now);
  return last === undefined || now - last > 3000;
}

if (!customElements.get("collection-view")) customElements.define("collection-view", CollectionViewElement);
export { CONTROLS };
