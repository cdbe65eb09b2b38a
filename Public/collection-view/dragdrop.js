// Drag and drop across the collections of a page, and from outside it. A pointer
// drag (started in a collection with drop sessions) carries a floating copy of
// the cell; whichever collection is under the pointer hears `dropUpdate` once a
// frame and answers with its drop delegate's proposal, shown as the cursor and an
// insertion indicator (or a highlighted folder). Release sends `drop`; a
// placeholder stands where the items go until the server's ack (or reject).
// External text, links and files arrive through the browser's drag events.
import * as protocol from "./protocol.js";
import { nextOp } from "./collection.js";
import { externalKinds, externalItems } from "./dropdata.js";
import { edgeScrollSpeed } from "./navigation.js";

const CURSORS = { move: "grabbing", copy: "copy", forbidden: "not-allowed", cancel: "no-drop" };

export class DragController {
  constructor(announce) {
    this.announce = announce;
    /** @type {import("./collection.js").LiveCollection[]} */
    this.collections = [];
    /** The pointer drag under way: {source, item, ghost, node, offsetX, offsetY, clientX, clientY, target, queued}. */
    this.session = null;
    /** op -> {live, placeholder, title}: drops waiting for the server. */
    this.pending = new Map();
    /** The external drag hovering a collection: {live, kinds, queued, x, y}. */
    this.external = null;
    window.addEventListener("pointermove", (e) => this.move(e));
    window.addEventListener("pointerup", (e) => this.end(e));
    window.addEventListener("pointercancel", () => this.cancel());
    window.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.session) {
        e.preventDefault();
        this.cancel();
      }
    });
  }

  /** Takes part in drags: its items can be dragged to the others, and it takes drops. */
  register(live) {
    this.collections.push(live);
    live.interaction.dragController = this;
    live.onDropMessage = (m) => this.message(live, m);
    live.onConnectionLost = () => this.connectionLost(live);
    const scroller = live.scroller;
    scroller.addEventListener("dragover", (e) => this.externalOver(live, e));
    scroller.addEventListener("dragleave", (e) => {
      if (this.external?.live === live && !scroller.contains(e.relatedTarget)) this.clearExternal();
    });
    scroller.addEventListener("drop", (e) => this.externalDrop(live, e));
  }

  /** The registered collection whose scroller is under a client point. */
  collectionAt(x, y) {
    return this.collections.find((live) => {
      const r = live.scroller.getBoundingClientRect();
      return x >= r.left && x < r.right && y >= r.top && y < r.bottom;
    }) ?? null;
  }

  // MARK: pointer drags

  /** Starts a drag of `item` from `interaction`'s collection (the pointer is at client x, y). */
  begin(interaction, item, x, y) {
    const source = this.collections.find((live) => live.interaction === interaction);
    const entry = source?.view.live.get("i:" + item);
    if (!source || !entry) return;
    // The source's drag delegate says what the drag carries: the item lifted, and this
    // viewer's other selected items added. Without the connection nothing is lifted,
    // and the person is told (as a move begun offline is).
    const at = source.contentPoint(x, y);
    if (!source.send(protocol.dragBegin(item, at.x, at.y))) return interaction.refuseOffline();
    const rect = entry.node.getBoundingClientRect();
    const ghost = entry.node.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.classList.add("drag-ghost");
    ghost.classList.remove("selected", "highlighted", "focused");
    ghost.style.cssText = `position: fixed; left: 0; top: 0; width: ${rect.width}px; height: ${rect.height}px; z-index: 5000; pointer-events: none;`;
    document.body.appendChild(ghost);
    entry.node.classList.add("lifted");
    this.session = { source, item, ghost, node: entry.node, offsetX: x - rect.left, offsetY: y - rect.top, clientX: x, clientY: y, target: null, queued: false,
      id: null, carried: [item] };
    for (const other of source.state.mySelection()) if (other !== item) source.send(protocol.dragAdd(other, at.x, at.y));
    document.body.classList.add("dragging");
    this.follow();
    this.autoScroll(this.session);
    this.announce(`Picked up ${source.state.nameOf(source.state.elements.get("i:" + item))}.`);
  }

  move(event) {
    const s = this.session;
    if (!s) return;
    event.preventDefault();
    s.clientX = event.clientX;
    s.clientY = event.clientY;
    this.follow();
  }

  /** The ghost follows at once; the collection under the pointer hears once a frame. */
  follow() {
    const s = this.session;
    const target = this.collectionAt(s.clientX, s.clientY);   // reads (layout) before the write below
    s.ghost.style.transform = `translate(${s.clientX - s.offsetX}px, ${s.clientY - s.offsetY}px) rotate(-1.5deg)`;
    if (target !== s.target) {
      s.target?.view.showDropTarget(null);
      s.target = target;
      s.proposal = null;
      this.setCursor(target ? null : "cancel");
    }
    if (target) this.queueProposal(s);
  }

  /** Once a frame at most, the collection under the pointer is asked what a drop there would do. */
  queueProposal(s) {
    if (s.queued) return;
    s.queued = true;
    requestAnimationFrame(() => {
      s.queued = false;
      if (this.session !== s || !s.target) return;
      const at = s.target.contentPoint(s.clientX, s.clientY);
      s.target.send(protocol.dropUpdate(at.x, at.y, this.sourceOf(s)));
    });
  }

  /**
   * Every frame of drag `s`: near the top or bottom edge of the collection under the
   * pointer, that collection scrolls (a short column on a phone takes a card below
   * what it shows), and is asked again what a drop there would do.
   */
  autoScroll(s) {
    if (this.session !== s) return;
    const scroller = s.target?.scroller;
    const speed = scroller ? edgeScrollSpeed(s.clientY, scroller.getBoundingClientRect()) : 0;
    if (speed) {
      scroller.scrollTop += speed;
      this.queueProposal(s);
    }
    requestAnimationFrame(() => this.autoScroll(s));
  }

  sourceOf(s) {
    const source = { collection: s.source.state.collection ?? s.source.collection, item: s.item };
    if (s.id) source.session = s.id;   // its items, as the drag delegate said (without: the item alone)
    return source;
  }

  end(event) {
    const s = this.session;
    if (!s) return;
    s.clientX = event.clientX;
    s.clientY = event.clientY;
    const target = this.collectionAt(s.clientX, s.clientY);
    const proposal = target && s.target === target ? s.proposal : null;
    const dropping = !!target && !(proposal && !["move", "copy"].includes(proposal.operation));
    this.finish(dropping);
    if (!dropping) {
      this.announce(proposal?.operation === "forbidden" ? "That drop is not allowed there." : "Drag cancelled.");
      return;
    }
    const at = target.contentPoint(s.clientX, s.clientY);
    const op = nextOp();
    const title = s.source.state.nameOf(s.source.state.elements.get("i:" + s.item));
    if (!target.send(protocol.drop(op, at.x, at.y, this.sourceOf(s)))) return this.refuseOffline(s.source, "the drop was not sent; try again once the connection is back");
    this.wait(op, target, proposal, title, s.source);
  }

  /**
   * `live`'s connection is lost: a drag from or over it ends where it began, and a
   * drop it had not answered loses its placeholder (once back, the collection shows
   * whether it was done). The person is told.
   */
  connectionLost(live) {
    const s = this.session;
    if (s && (s.source === live || s.target === live)) {
      this.finish(true);   // no dragEnd: the connection that would carry it is gone
      this.refuseOffline(s.source, "the drag ended; try again once the connection is back");
    }
    for (const [op, waiting] of this.pending) {
      if (waiting.live !== live && waiting.source !== live) continue;
      this.pending.delete(op);
      waiting.placeholder?.remove();
      this.refuseOffline(waiting.source ?? live, `whether ${waiting.title} was dropped shows once the connection is back`);
    }
  }

  /** Tells the person (through `live`'s refusals) that the connection is down and what it cost. */
  refuseOffline(live, what) {
    live.interaction.onRefused?.({ code: "offline", message: `Not connected: ${what}.` });
  }

  cancel() {
    if (!this.session) return;
    this.finish();
    this.announce("Drag cancelled.");
  }

  /** Ends the drag on the page; `dropping`: the drag's session ends once the drop is answered. */
  finish(dropping = false) {
    const s = this.session;
    this.session = null;
    if (!dropping) s.source.send(protocol.dragEnd());
    s.ghost.remove();
    s.node.classList.remove("lifted");
    s.target?.view.showDropTarget(null);
    document.body.classList.remove("dragging");
    this.setCursor(null);
  }

  setCursor(operation) {
    document.body.style.cursor = operation ? CURSORS[operation] ?? "" : this.session ? "grabbing" : "";
  }

  // MARK: server answers

  message(live, m) {
    if (m.type === "dragSession") {
      const s = this.session;
      if (s?.source === live) {
        s.id = m.session;
        s.carried = m.items;
        s.ghost.dataset.count = m.items.length > 1 ? String(m.items.length) : "";
      }
      return;
    }
    if (m.type === "dropProposal") {
      if (this.session?.target === live) {
        this.session.proposal = m;
        live.view.showDropTarget(m);
        this.setCursor(m.operation);
      } else if (this.external?.live === live) {
        this.external.proposal = m;
        live.view.showDropTarget(m);
      }
      return;
    }
    const waiting = m.op && this.pending.get(m.op);
    if (!waiting) return;
    this.pending.delete(m.op);
    waiting.placeholder?.remove();
    // The drop is answered: the drag's session (on the source's connection) can end now, not before.
    waiting.source?.send(protocol.dragEnd());
    if (m.type === "ack") this.announce(`Dropped ${waiting.title}.`);
    else this.announce(`The drop was refused: ${m.message}`);
  }

  /**
   * A keyboard move that runs out of its collection sideways (Left or Right with no
   * cell that way): the item goes to the nearest collection that way, at the top of
   * what it shows there, as a drop (the target's drop delegate and the source's
   * rules decide, as for a pointer drag). Returns whether there was one.
   */
  keyboardAcross(interaction, item, key) {
    if (key !== "ArrowLeft" && key !== "ArrowRight") return false;
    const source = this.collections.find((live) => live.interaction === interaction);
    if (!source) return false;
    const from = source.scroller.getBoundingClientRect();
    const right = key === "ArrowRight";
    const target = this.collections
      .filter((live) => live !== source)
      .map((live) => ({ live, r: live.scroller.getBoundingClientRect() }))
      .filter(({ r }) => (right ? r.left >= from.right - 1 : r.right <= from.left + 1) && r.bottom > from.top && r.top < from.bottom)
      .sort((a, b) => (right ? a.r.left - b.r.left : b.r.right - a.r.right))[0]?.live;
    if (!target) return false;
    interaction.cancelMove({ quiet: true });
    // Just above the first cell it shows: the gap before it, not into it (a folder
    // takes what is dropped on it); its first place if it shows none.
    const top = target.scroller.scrollTop;
    const shown = [...target.state.elements.values()].filter((e) => e.kind === "cell" && e.frame[1] + e.frame[3] > top)
      .sort((a, b) => a.frame[1] - b.frame[1] || a.frame[0] - b.frame[0])[0];
    const at = shown ? { x: shown.frame[0] + shown.frame[2] / 2, y: Math.max(0, shown.frame[1] - 1) } : { x: 12, y: top + 12 };
    const ref = { collection: source.state.collection ?? source.collection, item };
    const title = source.state.nameOf(source.state.elements.get("i:" + item));
    const op = nextOp();
    target.send(protocol.dropUpdate(at.x, at.y, ref));
    target.send(protocol.drop(op, at.x, at.y, ref));
    this.wait(op, target, null, title);
    // The keyboard goes with it: the target's cell is focused once it is there.
    target.scroller.focus();
    target.interaction.focusWhenShown = item;
    const name = target.scroller.getAttribute("aria-label") ?? target.collection ?? "the next collection";
    this.announce(`Moving ${title} to ${name}.`);
    return true;
  }

  /** A placeholder where the drop goes, until the server answers `op`; then the drag of `source` ends. */
  wait(op, live, proposal, title, source = null) {
    const placeholder = proposal ? live.view.showPlaceholder(proposal, title) : null;
    this.pending.set(op, { live, placeholder, title, source });
  }

  // MARK: external drags (text, links, files)

  externalOver(live, event) {
    const kinds = externalKinds(event.dataTransfer?.types);
    if (!kinds.length) return;
    event.preventDefault();   // this collection may take it: the server's proposal says how
    if (this.external?.live !== live) {
      this.clearExternal();
      this.external = { live, kinds, queued: false, proposal: null };
    }
    const x = this.external;
    const at = live.contentPoint(event.clientX, event.clientY);
    x.x = at.x;
    x.y = at.y;
    const operation = x.proposal?.operation;
    event.dataTransfer.dropEffect = operation === "copy" ? "copy" : operation === "move" ? "move" : operation ? "none" : "copy";
    if (x.queued) return;
    x.queued = true;
    requestAnimationFrame(() => {
      x.queued = false;
      if (this.external === x) live.send(protocol.dropUpdate(x.x, x.y, null, x.kinds));
    });
  }

  clearExternal() {
    this.external?.live.view.showDropTarget(null);
    this.external = null;
  }

  externalDrop(live, event) {
    const items = externalItems(event.dataTransfer);
    if (!items.length) return;
    event.preventDefault();
    const proposal = this.external?.live === live ? this.external.proposal : null;
    this.clearExternal();
    if (proposal && !["move", "copy"].includes(proposal.operation)) {
      this.announce("That drop is not allowed there.");
      return;
    }
    const at = live.contentPoint(event.clientX, event.clientY);
    const op = nextOp();
    live.send(protocol.drop(op, at.x, at.y, null, items));
    this.wait(op, live, proposal, items.length === 1 ? items[0].value.slice(0, 60) : `${items.length} items`);
  }
}
