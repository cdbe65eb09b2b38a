// One live collection on a page: its connection, state, view and input, wired
// together. A page may hold several (the board holds two); the page's own chrome
// (toolbar, status line) listens through `onChange` and `onStatus`.
import * as protocol from "./protocol.js";
import { CollectionState } from "./state.js";
import { CollectionView } from "./view.js";
import { Connection } from "./connection.js";
import { Interaction } from "./interaction.js";
import { SwipeController } from "./swipe.js";
import { ContextMenuController } from "./contextmenu.js";
import { describeBatch, describeRefusal } from "./announce.js";
import { Outbox } from "./outbox.js";
import { metrics } from "./metrics.js";
import { leadOffset } from "./scrolllead.js";

let opCounter = 0;
/** A fresh op id (unique on this page). */
export const nextOp = () => `op-${Date.now().toString(36)}-${++opCounter}`;


/** Refusals that end this viewer's move under way. */
const MOVE_REFUSALS = new Set(["not_movable", "not_moving", "forbidden", "unknown_item", "refused", "storage_unavailable", "unavailable"]);
/** Refusals no person needs to hear of (the client recovers by itself). */
const QUIET = new Set(["rate_limited", "stale", "not_ready", "move_cancelled", "op_reused"]);

export class LiveCollection {
  /**
   * @param {{scroller: HTMLElement, content: HTMLElement, announce: (text: string) => void,
   *   collection?: string, name?: string, labelField?: string, selfSizingLayouts?: Set<string>, dropSessions?: boolean, endpoint?: string,
   *   token?: string, onChange?: (kind: string, message: object) => void, onStatus?: (status: string) => void,
   *   onRefused?: (detail: {code: string, message: string, op: string?}) => void,
   *   onPending?: (waiting: number) => void}} options
   *   `collection` names the server's collection (none: the default one); `endpoint`
   *   is the WebSocket path ("/ws"), resolved against the page's address; `token`, a
   *   signed token sent as `?token=` (a cookie the server reads works without it); with
   *   `dropSessions`, a pointer drag is a drag-and-drop session (see dragdrop.js)
   *   rather than an interactive movement; with `contextMenus`, a right-click, long press
   *   or the menu key opens the server's context menu (see contextmenu.js). `onPending`
   *   hears how many changes wait for the connection (see `submit`).
   */
  constructor({ scroller, content, announce, collection, name, labelField, selfSizingLayouts, dropSessions = false, contextMenus = false, endpoint = "/ws", token, onChange, onStatus, onRefused, onPending }) {
    Object.assign(this, { scroller, content, announce, collection, name, onRefused, onPending });
    /** Edits and actions kept until answered; those made offline go out when the connection is back. */
    this.outbox = new Outbox();
    this.onChange = onChange ?? (() => {});
    /** Called with every dropProposal, ack and reject (the drag controller listens). */
    this.onDropMessage = null;
    /** Told when the connection is lost (the drag controller ends what waited on it). */
    this.onConnectionLost = null;
    this.state = new CollectionState();
    if (labelField) this.state.labelField = labelField;
    this.view = new CollectionView(content, this.state);
    if (selfSizingLayouts) this.view.selfSizingLayouts = selfSizingLayouts;
    this.view.onMeasure = (sizes) => this.send(protocol.measure(sizes));
    this.view.onBandScroll = () => this.queueScroll();
    this.checksumsScheduled = false;

    const url = new URL(endpoint, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    if (token) url.searchParams.set("token", token);
    this.connection = new Connection(url.href, {
      onOpen: () => {
        // After a reconnect, ask to resume from the last batch applied.
        const s = this.state;
        // A transition does not outlive its connection.
        this.transition = null;
        this.send(protocol.hello(this.viewport(), this.offset(), name, s.epoch ? s.seq : undefined, s.epoch, collection));
        // A new connection starts out of editing mode: ask for it again.
        if (s.editing) this.send(protocol.editing(true));
        this.flushOutbox();
      },
      onMessage: (message) => this.receive(message),
      onStatus: (status) => {
        if (status === "reconnecting") this.onConnectionLost?.();
        onStatus?.(status);
      },
    });
    this.interaction = new Interaction({
      scroller, content, state: this.state, view: this.view, send: (m) => this.send(m), nextOp, announce, dropSessions,
    });

    this.interaction.onRefused = (detail) => this.refused(detail);
    this.interaction.swipe = this.swipe = new SwipeController({ content, send: (m) => this.send(m), announce });
    if (contextMenus) {
      this.contextMenu = new ContextMenuController({
        scroller, state: this.state, view: this.view, send: (m) => this.send(m), contentPoint: (x, y) => this.contentPoint(x, y),
      });
    }
    // A list row's accessory with the server's action handler: the handler runs there.
    content.addEventListener("click", (e) => {
      const accessory = e.target.closest("[data-accessory-action]");
      const item = accessory?.closest("[data-item]")?.dataset.item;
      if (!item) return;
      e.preventDefault();
      this.send(protocol.accessory(item, accessory.dataset.accessory));
    });
    // An outline row's disclosure: expand or collapse its children (for everyone).
    content.addEventListener("click", (e) => {
      const disclosure = e.target.closest("[data-outline]");
      const item = disclosure?.closest("[data-item]")?.dataset.item;
      if (!item) return;
      e.preventDefault();
      this.send(protocol.outline(item, disclosure.dataset.expanded !== "true"));
    });

    // Scrolling and resizing: one message per animation frame at most.
    this.scrollQueued = false;
    this.resized = false;
    scroller.addEventListener("scroll", () => this.queueScroll(), { passive: true });
    this.resizeObserver = new ResizeObserver(() => {
      this.resized = true;
      this.queueScroll();
    });
    this.resizeObserver.observe(scroller);
  }

  send(message) {
    return this.connection.send(message);
  }

  /**
   * Sends an edit or action that carries an op, or keeps it until the connection is
   * back (then it goes out after the hello, in the order made, and the server's
   * answer settles it). Returns "sent", "queued" or "refused" (too many wait; the
   * person is told).
   */
  submit(message) {
    const connected = this.connection.socket?.readyState === WebSocket.OPEN;
    const verdict = this.outbox.add(message, connected);
    if (verdict === "full") {
      this.refused({ code: "offline", message: `Not connected, and ${this.outbox.limit} changes already wait to be sent: try again once the connection is back.`, op: message.op });
      return "refused";
    }
    if (verdict === "send" && this.send(message)) return "sent";
    this.onPending?.(this.outbox.waiting);
    return "queued";
  }

  /** The connection is back: what waited goes out; actions lost on the way are reported failed. */
  flushOutbox() {
    if (this.outbox.size === 0) return;
    const { send, lost } = this.outbox.resume();
    for (const m of send) this.send(m);
    for (const m of lost) this.onLostAction?.(m);
    this.onPending?.(this.outbox.waiting);
  }

  /** Closes the connection for good (no reconnect). */
  close() {
    this.connection.close();
    this.resizeObserver?.disconnect();
    clearTimeout(this.resendTimer);
  }

  viewport() {
    return { width: Math.max(1, this.scroller.clientWidth), height: Math.max(1, this.scroller.clientHeight) };
  }

  offset() {
    return { x: this.scroller.scrollLeft, y: this.scroller.scrollTop };
  }

  /** A point in this collection's content coordinates. */
  contentPoint(clientX, clientY) {
    const r = this.content.getBoundingClientRect();
    return { x: clientX - r.left, y: clientY - r.top };
  }

  queueScroll() {
    if (this.scrollQueued) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      const now = this.offset(), viewport = this.viewport();
      // Fast, the offset is led by the last frame's movement, so that the window covers
      // the frames its answer takes (not in self-sizing layouts: the server anchors rows
      // by the offset it heard).
      const max = { x: this.scroller.scrollWidth - viewport.width, y: this.scroller.scrollHeight - viewport.height };
      const sent = this.view.selfSizingLayouts.has(this.state.layout) ? now : leadOffset(this.lastScroll, now, viewport, max);
      this.lastScroll = now;
      this.send(protocol.scroll(sent, this.resized ? viewport : undefined, this.view.bands.takeOffsets() ?? undefined));
      this.resized = false;
      // Led ahead: the next frame says where the page is once it stops.
      if (sent.x !== now.x || sent.y !== now.y) this.queueScroll();
    });
  }

  // MARK: interactive transitions

  /** Starts moving this viewer's own layout towards `layout` (the server's name); nothing if one is under way. */
  beginTransition(layout) {
    if (this.transition || !layout || layout === this.state.layout) return false;
    this.transition = { layout, progress: 0, queued: false };
    this.send(protocol.transitionBegin(layout));
    return true;
  }

  /** How far along the transition is (0-1): one message a frame at most, the server answers with the frames. */
  setTransitionProgress(progress) {
    const t = this.transition;
    if (!t) return;
    t.progress = Math.min(1, Math.max(0, progress));
    if (t.queued) return;
    t.queued = true;
    requestAnimationFrame(() => {
      t.queued = false;
      if (this.transition === t) this.send(protocol.transitionUpdate(t.progress));
    });
  }

  /** Ends the transition: in its target layout (`finish`), else back where it started. */
  endTransition(finish) {
    const t = this.transition;
    if (!t) return;
    this.transition = null;
    this.send(protocol.transitionEnd(!!finish));
  }

  /** A new connection's server holds no section offsets: say where the section scrollers are. */
  restoreBandOffsets() {
    if (this.view.bands.forgetReported()) this.queueScroll();
  }

  /** After the server dropped a message for the rate limit: send the viewport again in half a second. */
  resendViewportSoon() {
    if (this.resendTimer) return;
    this.resendTimer = setTimeout(() => {
      this.resendTimer = null;
      this.resized = true;
      this.queueScroll();
    }, 500);
  }

  /**
   * Something this viewer did was refused or failed ({code, message, op}): the page's
   * `onRefused` shows it (the element: an event and a notice), else it is announced.
   */
  refused(detail) {
    if (this.onRefused) this.onRefused(detail);
    else this.announce(describeRefusal(detail));
  }

  receive(message) {
    const start = metrics.enabled ? performance.now() : 0;
    const change = this.state.apply(message);
    if (metrics.enabled) metrics.applied = performance.now() - start;
    const { view, interaction, state } = this;
    switch (change.kind) {
      case "reload":
      case "window":
      case "batch":
        view.schedule(change);
        if (change.kind === "reload") this.restoreBandOffsets();
        interaction.resolvePendingFocus();
        if (change.kind === "window") interaction.movedWindow();
        // Others' ghosts stand by item: where items moved, so do they.
        if (state.drags.size) requestAnimationFrame(() => view.drawGhosts());
        if (change.kind === "batch") {
          this.announce(describeBatch(message, state));
          this.scheduleChecksums();
        }
        break;
      case "gap":
      case "diverged":
        // Out of order, or an order that does not match the server's: ask for a
        // fresh copy rather than show a wrong order.
        this.reload(change.kind === "gap" ? `expected batch ${change.expected}, got ${change.got}` : change.reason);
        break;
      case "layout":
        // A layout for everyone ends this viewer's transition (the server has ended it).
        if (change.by !== state.me?.id) this.transition = null;
        view.schedule(change);   // cells of a self-sizing layout are measured
        if (change.by !== state.me?.id) this.announce(`Switched to ${state.layout} layout by ${state.viewerName(change.by)}.`);
        break;
      case "resume":
      case "replay":
        this.scheduleChecksums();
        if (change.kind === "resume") this.restoreBandOffsets();
        break;
      case "drag":
        requestAnimationFrame(() => view.drawGhosts());
        break;
      case "selection":
      case "editing":
        view.refreshEditing();
        break;
      case "presence":
        view.refreshSelection();
        view.drawGhosts();
        break;
      case "error":
      case "reject": {
        if (message.code === "move_cancelled") interaction.moveLost();
        else if (MOVE_REFUSALS.has(message.code)) interaction.moveRefused();
        // The moves and end a refused move had sent already are refused too ("no
        // movement under way"): the first refusal said why.
        const echo = message.code === "not_moving" && interaction.refusedMoveAt > performance.now() - 5000;
        // A dropped message may have been a scroll: say where we are again, a little later.
        if (message.code === "rate_limited") this.resendViewportSoon();
        else if (!QUIET.has(message.code) && !echo) this.refused({ code: message.code, message: message.message, op: message.op ?? null });
        console.warn("server:", message.code, message.message);
        break;
      }
    }
    if (message.type === "ack" || message.type === "reject") interaction.answered(message);
    if (["ack", "reject", "actionResult", "error"].includes(message.type) && this.outbox.settle(message.op)) this.onPending?.(this.outbox.waiting);
    if (["dropProposal", "ack", "reject", "dragSession"].includes(message.type)) this.onDropMessage?.(message);
    if (message.type === "swipeActions") this.swipe.message(message);
    if (message.type === "contextMenu") this.contextMenu?.message(message);
    // A swiped row another viewer deleted: its actions close.
    if (message.type === "batch" && this.swipe.open && message.deletedIds?.includes(this.swipe.open.item)) this.swipe.close();
    this.onChange(change.kind, message);
  }

  /** Reloads after a gap or a wrong order: a fresh copy rather than a wrong one shown. */
  reload(why) {
    console.warn("reloading:", why);
    this.state.reloads += 1;
    this.send(protocol.hello(this.viewport(), this.offset(), undefined, undefined, undefined, this.collection));
  }

  // Checksums of the sections batches changed are checked when the page is idle
  // (within 200 ms), off the path of drawing the batch.
  scheduleChecksums() {
    if (this.checksumsScheduled) return;
    this.checksumsScheduled = true;
    const run = () => {
      this.checksumsScheduled = false;
      const start = metrics.enabled ? performance.now() : 0;
      const why = this.state.verifyChecksums();
      if (metrics.enabled) metrics.checks.push(performance.now() - start);
      if (why) this.reload(why);
    };
    if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 200 });
    else setTimeout(run, 50);
  }
}

/** A polite live-region announcer over `region`. */
export function announcer(region) {
  return (text) => {
    if (!text) return;
    region.textContent = "";
    // A fresh text node each time, so that the same sentence twice is read twice.
    requestAnimationFrame(() => { region.textContent = text; });
  };
}
