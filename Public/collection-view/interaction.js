// Pointer and keyboard: highlight, selection with modifiers, keyboard focus by
// geometry, and reorder by pointer or keyboard. It reads events and the state,
// sends protocol messages, and asks the view to draw.
import * as protocol from "./protocol.js";
import { neighbour, nearest, edge, center, edgeScrollSpeed } from "./navigation.js";
import { cellControlKey } from "./cellaccess.js";
import { describePosition } from "./announce.js";

const DRAG_THRESHOLD = 6;
const TOUCH_HOLD_MS = 350;

/** Elements inside cells that take their own input. */
export const CONTROLS = "[data-action], [data-outline], [data-accessory-action], button, input, select, textarea, a[href], [contenteditable]";

export class Interaction {
  #moving = null;

  /** The move under way: {item, keyboard, offsetX, offsetY, clientX, clientY}, or null. */
  get moving() {
    return this.#moving;
  }

  set moving(m) {
    this.#moving = m;
    // An item picked up by keyboard looks picked up, not merely focused.
    this.view.setPicked(m?.keyboard ? m.item : null);
  }

  constructor({ scroller, content, state, view, send, nextOp, announce, dropSessions = false }) {
    Object.assign(this, { scroller, content, state, view, send, nextOp, announce, dropSessions });
    /** The page's drag controller (dragdrop.js), when drags may leave this collection. */
    this.dragController = null;
    /** Told of a move refused here, before the server (no connection): {code, message}. */
    this.onRefused = null;
    /** The move whose end waits for the server's answer: {op, item, keyboard}. */
    this.dropping = null;
    /** When the server last refused a move under way (what it had sent after is refused too). */
    this.refusedMoveAt = -Infinity;
    this.focusedItem = null;
    this.anchor = null;
    this.press = null; // {item, x, y, pointerId, type, timer, dragging}
    this.pendingFocus = null; // "first" | "last" | {x, y}
    /** An item coming from another collection (a keyboard move across): focused once it is here. */
    this.focusWhenShown = null;
    content.addEventListener("pointerdown", (e) => this.pointerDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    window.addEventListener("pointercancel", (e) => this.pointerCancel(e));
    // Once a held touch has lifted a cell (or a list row is being swiped), the finger's
    // moves are the drag's: the browser may not take them for a scroll (which would
    // cancel the pointer). Moves before the hold are left alone: they scroll.
    content.addEventListener("touchmove", (e) => {
      if (e.cancelable && (this.press?.dragging || this.press?.swiping || (this.moving && !this.moving.keyboard))) e.preventDefault();
    }, { passive: false });
    scroller.addEventListener("keydown", (e) => this.keyDown(e));
    scroller.addEventListener("focus", () => {
      // The first item in view takes the focus, without scrolling (the focus may come
      // with a click on a control, which must stay under the pointer).
      if (!this.focusedItem) this.focus(this.firstVisible(), false);
      this.markFocus();
    });
    content.addEventListener("contextmenu", (e) => this.press?.dragging && e.preventDefault());
  }

  // MARK: geometry

  contentPoint(clientX, clientY) {
    const r = this.content.getBoundingClientRect();
    return { x: clientX - r.left, y: clientY - r.top };
  }

  firstVisible() {
    const top = this.scroller.scrollTop;
    const cells = [...this.state.elements.values()].filter((e) => e.kind === "cell" && e.frame[1] + e.frame[3] > top);
    cells.sort((a, b) => a.section - b.section || a.item - b.item);
    return cells[0]?.key.slice(2) ?? null;
  }

  element(item) {
    return item ? this.state.elements.get("i:" + item) : undefined;
  }

  // MARK: pointer

  pointerDown(event) {
    // A cell's own controls (buttons, inputs, data-action) are the page's: no selection, no drag.
    if (event.target.closest(CONTROLS)) return;
    const node = event.target.closest("[data-item]");
    if (!node || event.button !== 0 || this.moving) return;
    const item = node.dataset.item;
    node.classList.add("highlighted");
    this.press = { item, node, x: event.clientX, y: event.clientY, pointerId: event.pointerId, type: event.pointerType, dragging: false,
      ctrl: event.ctrlKey || event.metaKey, shift: event.shiftKey };
    // A list row's reorder accessory is a handle: pressing it lifts the row at once.
    if (event.target.closest('[data-accessory="reorder"]')) {
      event.preventDefault();
      return this.startPointerMove();
    }
    if (event.pointerType === "touch") {
      // On touch a short press lifts the item; a swipe scrolls.
      this.press.timer = setTimeout(() => this.startPointerMove(), TOUCH_HOLD_MS);
    }
  }

  pointerMove(event) {
    const p = this.press;
    if (!p || event.pointerId !== p.pointerId) return;
    // A list row dragged sideways is a swipe (its actions), not a move.
    if (this.swipe?.follow(event)) return event.preventDefault();
    if (!p.dragging && this.swipe?.claims(p, event)) {
      p.node.classList.remove("highlighted");
      p.swiping = true;
      return;
    }
    if (!p.dragging) {
      const far = Math.hypot(event.clientX - p.x, event.clientY - p.y) > DRAG_THRESHOLD;
      if (!far) return;
      if (p.type === "touch") return this.cancelPress(); // moved before the hold: a scroll
      this.startPointerMove();
    }
    if (this.moving) {
      event.preventDefault();
      this.moving.clientX = event.clientX;
      this.moving.clientY = event.clientY;
      this.followPointer();
    }
  }

  pointerUp(event) {
    const p = this.press;
    if (!p || event.pointerId !== p.pointerId) return;
    clearTimeout(p.timer);
    p.node.classList.remove("highlighted");
    this.press = null;
    if (p.swiping) return this.swipe?.release(event);
    if (p.dragging) return this.moving ? this.endMove() : undefined;   // a drop session ends in the drag controller
    if (event.target.closest("[data-item]")?.dataset.item !== p.item) return;
    // A list row's delete accessory reveals its trailing swipe actions (UIKit's).
    if (event.target.closest('[data-accessory="delete"]') && this.swipe?.openFromKeyboard(p.item, p.node)) {
      this.swipe.endedSwipe = true;   // the click that follows is not a tap elsewhere
      return;
    }
    this.click(p.item, p);
    this.focus(p.item, false);
  }

  /**
   * The browser took the pointer (a touch that became a scroll, a system gesture):
   * a move under way ends as Escape ends it (`moveCancel`: the cell goes back, the
   * others' ghost goes), a swipe closes, a press is forgotten.
   */
  pointerCancel(event) {
    const p = this.press;
    if (p && event.pointerId !== p.pointerId) return;
    if (p?.swiping) this.swipe?.cancel();
    if (this.moving && !this.moving.keyboard) return this.cancelMove();
    this.cancelPress();
  }

  cancelPress() {
    if (!this.press) return;
    clearTimeout(this.press.timer);
    this.press.node.classList.remove("highlighted");
    this.press = null;
  }

  /**
   * A click: alone selects only this item; Ctrl/Cmd (or any click in editing mode)
   * toggles; Shift extends from the anchor over the whole order, in one message.
   */
  click(item, { ctrl, shift }) {
    const mine = new Set(this.state.mySelection());
    if (shift && this.anchor) {
      // Shift: the range from the anchor becomes the selection (Ctrl+Shift adds it).
      return this.send(protocol.selectRange(this.anchor, item, !ctrl));
    }
    this.anchor = item;
    if (this.state.editing) ctrl = true;
    if (ctrl) return this.send(protocol.select(item, !mine.has(item)));
    // Only this item: one message, however many were selected.
    if (mine.size !== 1 || !mine.has(item)) this.send(protocol.selectRange(item, item, true));
  }

  startPointerMove() {
    const p = this.press;
    if (!p || this.moving) return;
    const e = this.element(p.item);
    if (!e) return this.cancelPress();
    p.dragging = true;
    p.node.classList.remove("highlighted");
    if (this.dropSessions && this.dragController) return this.dragController.begin(this, p.item, p.x, p.y);
    if (!this.send(protocol.moveBegin(p.item))) return this.refuseOffline();
    const at = this.contentPoint(p.x, p.y);
    this.moving = { item: p.item, keyboard: false, offsetX: at.x - e.frame[0], offsetY: at.y - e.frame[1], clientX: p.x, clientY: p.y };
    this.followPointer();
    this.autoScroll();
  }

  /** The carried cell follows at once; the server hears once a frame. */
  followPointer() {
    const m = this.moving;
    if (!m || m.keyboard) return;
    const at = this.contentPoint(m.clientX, m.clientY);
    this.view.carry("i:" + m.item, at.x - m.offsetX, at.y - m.offsetY);
    if (!m.queued) {
      m.queued = true;
      requestAnimationFrame(() => {
        if (this.moving !== m) return;
        m.queued = false;
        const e = this.element(m.item);
        const w = e?.frame[2] ?? 0, h = e?.frame[3] ?? 0;
        const now = this.contentPoint(m.clientX, m.clientY);
        this.send(protocol.moveUpdate(now.x - m.offsetX + w / 2, now.y - m.offsetY + h / 2));
      });
    }
  }

  /** Near the top or bottom edge while dragging, the collection scrolls. */
  autoScroll() {
    const m = this.moving;
    if (!m || m.keyboard) return;
    const speed = edgeScrollSpeed(m.clientY, this.scroller.getBoundingClientRect());
    if (speed) {
      this.scroller.scrollTop += speed;
      this.followPointer();
    }
    requestAnimationFrame(() => this.autoScroll());
  }

  endMove() {
    const m = this.moving;
    if (!m) return;
    this.moving = null;
    const carried = this.view.carried;
    const op = this.nextOp();
    const sent = this.send(protocol.moveEnd(op));
    if (carried) this.view.drop(carried.key, carried.x, carried.y);
    if (!sent) return this.refuseOffline();
    // "Dropped" is said once the server took it (refusals say why instead).
    this.dropping = { op, item: m.item, keyboard: m.keyboard };
  }

  /** The server's answer to a message with an op: a move's end is said, or undone. */
  answered(message) {
    const d = this.dropping;
    if (!d || message.op !== d.op) return false;
    this.dropping = null;
    if (message.type === "ack" && d.keyboard) {
      const e = this.element(d.item);
      this.announce(`Dropped ${this.state.nameOf(e)}. ${describePosition(e, this.state)}`);
    }
    return message.type === "reject";
  }

  /**
   * The server refused the move under way (the item is not this viewer's to move, it
   * is gone, the viewer may not edit): it ends here too, the cell going back to its
   * place in one animation. True when there was one.
   */
  moveRefused() {
    const m = this.moving;
    if (!m) return false;
    this.moving = null;
    this.refusedMoveAt = performance.now();
    const carried = this.view.carried;
    if (carried) this.view.drop(carried.key, carried.x, carried.y);
    this.cancelPress();
    return true;
  }

  /** A move begun with no connection: nothing is carried, and the person is told. */
  refuseOffline() {
    this.moving = null;
    const carried = this.view.carried;
    if (carried) this.view.drop(carried.key, carried.x, carried.y);
    this.cancelPress();
    this.onRefused?.({ code: "offline", message: "Not connected: a move needs the connection; try again once it is back." });
  }

  /** Ends the move under way where it started (`quiet`: nothing said, as when the item goes elsewhere). */
  cancelMove({ quiet = false } = {}) {
    const m = this.moving;
    if (!m) return;
    this.moving = null;
    const carried = this.view.carried;
    this.send(protocol.moveCancel());
    if (carried) this.view.drop(carried.key, carried.x, carried.y);
    this.cancelPress();
    if (!quiet) this.announce("Move cancelled.");
  }

  /** The server ended our move (the item was deleted). */
  moveLost() {
    const carried = this.view.carried;
    this.moving = null;
    this.press = null;
    if (carried) this.view.drop(carried.key, carried.x, carried.y);
    this.announce("The item was deleted by another viewer; move ended.");
  }

  // MARK: keyboard

  keyDown(event) {
    if (event.key === "Tab" || (event.key === "Escape" && event.target !== this.scroller)) {
      // Into and through a cell's controls (cellaccess.js).
      const cell = this.focusedItem && this.view.live.get("i:" + this.focusedItem)?.node;
      if (!this.moving && cellControlKey(event, this.scroller, cell)) return;
    }
    if (event.target !== this.scroller && event.target.closest(CONTROLS)) return;
    const key = event.key;
    if (this.moving) {
      if (key === "Escape") return this.consume(event, () => this.cancelMove());
      if (this.moving.keyboard) {
        if (key.startsWith("Arrow")) return this.consume(event, () => this.keyboardStep(key));
        if (key === "Enter" || key === " " || key === "m" || key === "M") return this.consume(event, () => this.endMove());
      }
      return;
    }
    const current = this.focusedItem && this.element(this.focusedItem) ? this.focusedItem : this.firstVisible();
    const viewportHeight = this.scroller.clientHeight;
    switch (key) {
      case "ArrowUp":
      case "ArrowDown":
      case "ArrowLeft":
      case "ArrowRight": {
        // An outline row: Right expands it, Left collapses it (then they move as usual).
        const disclosure = (key === "ArrowLeft" || key === "ArrowRight") && this.view.live.get("i:" + current)?.node.querySelector("[data-outline]");
        if (disclosure && (disclosure.dataset.expanded === "true") === (key === "ArrowLeft")) {
          return this.consume(event, () => this.send(protocol.outline(current, key === "ArrowRight")));
        }
        return this.consume(event, () => {
          const next = neighbour(this.state.elements, "i:" + current, key);
          if (next) this.focus(next.key.slice(2));
        });
      }
      case "Delete":
      case "Backspace": {
        // A list row's trailing swipe actions, from the keyboard.
        const node = current && this.view.live.get("i:" + current)?.node;
        if (node && this.swipe?.openFromKeyboard(current, node)) return this.consume(event, () => {});
        return;
      }
      case "Home":
        return this.consume(event, () => this.jump("first", 0));
      case "End":
        return this.consume(event, () => this.jump("last", this.state.contentSize.height));
      case "PageDown":
      case "PageUp": {
        return this.consume(event, () => {
          const e = this.element(current);
          const c = e ? center(e) : { x: 0, y: this.scroller.scrollTop };
          const target = { x: c.x, y: c.y + (key === "PageDown" ? viewportHeight : -viewportHeight) };
          this.jump(target, this.scroller.scrollTop + (key === "PageDown" ? viewportHeight : -viewportHeight));
        });
      }
      case " ":
      case "Enter":
        if (!current) return;
        return this.consume(event, () => {
          this.focus(current);
          this.click(current, { ctrl: key === " " || event.ctrlKey || event.metaKey, shift: event.shiftKey });
        });
      case "m":
      case "M":
        if (!current || event.ctrlKey || event.metaKey || event.altKey) return;
        return this.consume(event, () => this.keyboardPickUp(current));
      case "Escape":
        return this.consume(event, () => {
          for (const id of this.state.mySelection()) this.send(protocol.select(id, false));
        });
    }
  }

  consume(event, action) {
    event.preventDefault();
    action();
  }

  /** Scrolls to `top`, then focuses the cell the target names once the window holds it. */
  jump(target, top) {
    this.pendingFocus = target;
    const before = this.scroller.scrollTop;
    this.scroller.scrollTop = Math.max(0, top);
    if (this.scroller.scrollTop === before) this.resolvePendingFocus();
  }

  /** After each window or batch: a Home/End/Page jump lands on its cell. */
  resolvePendingFocus() {
    // An item moved here by keyboard from another collection: focused once it is here.
    if (this.focusWhenShown && this.state.elements.has("i:" + this.focusWhenShown)) {
      const item = this.focusWhenShown;
      this.focusWhenShown = null;
      this.focus(item);
    }
    const target = this.pendingFocus;
    if (!target) return;
    const e = target === "first" || target === "last" ? edge(this.state.elements, target === "last") : nearest(this.state.elements, target);
    if (!e) return;
    const section = this.state.sections[e.section];
    // Home and End wait until the window really holds the first or last item.
    if (target === "first" && (e.section !== 0 || e.item !== 0)) return;
    if (target === "last" && (e.section !== this.state.sections.length - 1 || e.item !== (section?.count ?? 0) - 1)) return;
    this.pendingFocus = null;
    this.focus(e.key.slice(2));
  }

  /** Moves keyboard focus (the one tab stop's active descendant) and tells the server. */
  focus(item, scroll = true) {
    if (!item) return;
    const changed = item !== this.focusedItem;
    this.focusedItem = item;
    this.anchor = this.anchor ?? item;
    if (changed) this.send(protocol.focus(item));
    this.markFocus();
    const e = this.element(item);
    if (scroll && e) {
      this.view.bands.reveal(e);
      const top = this.scroller.scrollTop, height = this.scroller.clientHeight;
      if (e.frame[1] < top) this.scroller.scrollTop = e.frame[1] - 8;
      else if (e.frame[1] + e.frame[3] > top + height) this.scroller.scrollTop = e.frame[1] + e.frame[3] - height + 8;
    }
  }

  markFocus() {
    this.view.focusedKey = this.focusedItem ? "i:" + this.focusedItem : null;
    if (this.focusedItem) this.scroller.setAttribute("aria-activedescendant", "cell-" + this.focusedItem);
    this.view.refreshSelection();
  }

  keyboardPickUp(item) {
    const e = this.element(item);
    if (!e) return;
    if (!this.send(protocol.moveBegin(item))) return this.refuseOffline();
    this.moving = { item, keyboard: true };
    this.announce(`Picked up ${this.state.nameOf(e)}. ${describePosition(e, this.state)} Arrow keys move it, Enter drops it, Escape cancels.`);
  }

  /** One arrow step of a keyboard move: to the slot of the neighbour that way. */
  keyboardStep(key) {
    const m = this.moving;
    // Besides the cells, an empty section's header is a place to go: its one place
    // (item 0), which the server takes a position over its header for.
    const places = new Map(this.state.elements);
    for (const e of this.state.elements.values()) {
      if (e.kind === "header" && this.state.sections[e.section]?.count === 0) places.set(e.key, { ...e, kind: "cell", item: -1 });
    }
    // Sideways with no cell beside it that way (a column, a list): into the page's next
    // collection that way, if there is one (the board's other column).
    if ((key === "ArrowLeft" || key === "ArrowRight") && this.dragController && !this.besideThatWay(places, m.item, key)
        && this.dragController.keyboardAcross(this, m.item, key)) return;
    const next = neighbour(places, "i:" + m.item, key);
    if (!next) return;
    m.lastTarget = center(next);
    this.send(protocol.moveUpdate(m.lastTarget.x, m.lastTarget.y));
  }

  /** Whether a cell shares `item`'s row on its left (or right) side. */
  besideThatWay(places, item, key) {
    const from = places.get("i:" + item);
    if (!from) return false;
    const [x, y, w, h] = from.frame;
    return [...places.values()].some((e) => e.kind === "cell" && e.key !== from.key
      && e.frame[1] < y + h && e.frame[1] + e.frame[3] > y
      && (key === "ArrowRight" ? e.frame[0] >= x + w : e.frame[0] + e.frame[2] <= x));
  }

  /** After a window during a keyboard move: say where the item is now. */
  movedWindow() {
    const m = this.moving;
    if (!m?.keyboard || !m.lastTarget) return;
    m.lastTarget = null;
    this.announce(describePosition(this.element(m.item), this.state));
  }
}
