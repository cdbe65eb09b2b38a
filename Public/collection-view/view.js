// Draws a CollectionState into the DOM: absolutely positioned cells moved with
// `transform`, only the window's cells present, DOM nodes pooled per reuse
// identifier. All writes happen in one requestAnimationFrame.
import { metrics } from "./metrics.js";
import { Bands } from "./bands.js";
import { makeListCell, fillListCell } from "./listcell.js";
import { applyBindings } from "./bind.js";
import { placement } from "./poses.js";
import { CellAccess, cellControls } from "./cellaccess.js";
import { drawGhosts } from "./ghosts.js";

const MOVE_MS = 320;
/** A person who asked for less motion: cells jump to their frames, new ones only fade. */
const reducedMotion = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");
const MAX_SPARES = 64;
/** The shortest self-sized row (the thumbnail's height). */
const MIN_ROW = 64;

export class CollectionView {
  /**
   * @param {HTMLElement} content the element whose children are the cells
   * @param {import("./state.js").CollectionState} state
   */
  constructor(content, state) {
    this.content = content;
    this.state = state;
    /** Roles, names and states of cells for assistive technology (cellaccess.js). */
    this.access = new CellAccess(content, state);
    /** key -> {node, x, y, w, h} */
    this.live = new Map();
    /** reuse id -> nodes ready for reuse */
    this.pool = new Map();
    this.pending = null;
    this.frameRequested = false;
    /** The cell the pointer carries: {key, x, y} (top-left, content coordinates), drawn there, not at its frame. */
    this.carried = null;
    /** The cell keyboard focus is on (key), marked with a focus ring. */
    this.focusedKey = null;
    /** Layouts whose cells size themselves: their text is measured and reported. */
    this.selfSizingLayouts = new Set();
    /** Called with [{item, width, height}] measured sizes that differ from the frames. */
    this.onMeasure = null;
    /** Cells drawn with new content or width, to measure at the start of the next frame. */
    this.toMeasure = new Map();
    /** key -> "width×height" last reported, so that nothing is reported twice. */
    this.reported = new Map();
    /** Called when a section that scrolls on its own scrolled. */
    this.onBandScroll = null;
    /** Sections that scroll on their own: scrollers inside the content. */
    this.bands = new Bands(content, () => this.onBandScroll?.());
  }

  /** Notes a change from CollectionState.apply and draws it in the next frame. */
  schedule(change) {
    if (!this.pending) this.pending = { animate: false, removed: new Set(), deleted: new Set(), reload: false, kinds: new Set(), appear: new Map(), disappear: new Map() };
    const p = this.pending;
    p.kinds.add(change.kind);
    if (change.kind === "reload") p.reload = true;
    if (change.offset) p.offset = change.offset;
    // Counts and positions in sections may change: every cell's labels are checked.
    if (change.kind !== "window") p.refresh = true;
    if (change.animate) p.animate = true;
    for (const key of change.removed ?? []) p.removed.add(key);
    for (const id of change.deletedIds ?? []) p.deleted.add("i:" + id);
    // Where the layout starts inserted cells and ends deleted ones (absent: in place, transparent).
    for (const pose of change.appear ?? []) p.appear.set(pose.key, pose);
    for (const pose of change.disappear ?? []) p.disappear.set(pose.key, pose);
    if (!this.frameRequested) {
      this.frameRequested = true;
      requestAnimationFrame(() => this.render());
    }
  }

  render() {
    this.frameRequested = false;
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    const start = metrics.enabled ? performance.now() : 0;
    this.measure();   // reads first, while the layout from the last frame is clean
    const scroller = this.content.parentElement;
    p.visibleTop = scroller.scrollTop;
    p.visibleBottom = p.visibleTop + scroller.clientHeight;
    p.viewWidth = scroller.clientWidth;
    this.draw(p);
    if (metrics.enabled) {
      void this.content.offsetHeight;   // style and layout now, so that they are counted
      metrics.frames.push({ kinds: [...p.kinds], ms: performance.now() - start });
    }
  }

  draw(p) {
    const state = this.state;
    const animate = p.animate && !p.reload;
    const still = reducedMotion?.matches ?? false;
    // Moved cells slide by CSS transition (on while the content has `animating`),
    // which starts from where a sliding cell is now: no reads needed to retarget.
    this.content.classList.toggle("animating", animate && !still);
    this.content.style.height = `${state.contentSize.height}px`;
    // A layout that scrolls sideways: the content is as wide as the server says.
    const scroller = this.content.parentElement;
    const horizontal = state.contentSize.width > p.viewWidth + 1;
    const width = horizontal ? `${state.contentSize.width}px` : "";
    if (this.content.style.width !== width) {
      this.content.style.width = width;
      scroller.classList.toggle("cv-horizontal", horizontal);
    }
    if (p.offset) {
      scroller.scrollTop = p.offset.y;
      if (horizontal) scroller.scrollLeft = p.offset.x;
    }
    this.bands.sync(state);
    const selfSizing = this.selfSizingLayouts.has(state.layout);
    const onScreen = (top, height) => top + height > p.visibleTop - 50 && top < p.visibleBottom + 50;
    if (p.reload || this.drawnLayout !== state.layout) {
      // A fresh copy or another layout: the server holds no measured sizes; measure all again.
      this.drawnLayout = state.layout;
      this.reported.clear();
      for (const entry of this.live.values()) entry.measuredWidth = undefined;
    }

    for (const [key, entry] of this.live) {
      if (state.elements.has(key)) continue;
      this.live.delete(key);
      if (animate && p.deleted.has(key)) {
        const pose = p.disappear.get(key);
        const last = pose && !still ? { opacity: pose.alpha, transform: placement(pose.frame, entry.w, entry.h, entry.origin, pose.transform) } : { opacity: 0 };
        entry.node.animate([{ opacity: entry.opacity || 1 }, last], { duration: MOVE_MS, easing: "ease-in" }).onfinish = () => this.recycle(entry.node);
      } else {
        this.recycle(entry.node);
      }
    }

    for (const [key, e] of state.elements) {
      const [x, y, w, h] = e.frame;
      let entry = this.live.get(key);
      const isNew = !entry;
      // Cells of a section that scrolls on its own sit in its scroller, placed from its origin.
      const band = this.bands.bandOf(e);
      // The background view stays in place behind the content as it scrolls.
      const parent = e.kind === "background" ? this.backgroundLayer() : band ? band.inner : this.content;
      if (isNew) {
        // A node from the pool was hidden (display: none): it does not slide from its old place.
        entry = { node: this.dequeue(e.reuse), x, y, w, h, transform: "", z: "", opacity: "" };
        this.live.set(key, entry);
      } else if (entry.element === e && !p.refresh && !entry.wasCarried && this.carried?.key !== key && entry.node.parentElement === parent) {
        continue;   // the same element as last drawn: nothing to write
      }
      entry.element = e;
      const node = entry.node;
      if (node.parentElement !== parent) {
        parent.appendChild(node);
        entry.transform = "";
      }
      const origin = band ? band.band.frame : undefined;
      const to = e.transform ? placement(e.frame, w, h, origin, e.transform)
        : band ? `translate(${x - origin[0]}px, ${y - origin[1]}px)` : `translate(${x}px, ${y}px)`;
      entry.origin = origin;
      node.dataset.key = key;
      if (isNew || entry.w !== w || entry.h !== h) {
        node.style.width = `${w}px`;
        node.style.height = `${h}px`;
      }
      const carried = this.carried?.key === key;
      // A cell off screen before and after does not slide (a transition costs style work).
      if (animate && !isNew) node.classList.toggle("still", !onScreen(entry.y, entry.h) && !onScreen(y, h));
      const transform = carried ? this.carriedTransform(e) : to;
      if (entry.transform !== transform) node.style.transform = entry.transform = transform;
      node.classList.toggle("carried", carried);
      entry.wasCarried = carried;
      const z = carried ? "1500" : String(e.zIndex);
      if (entry.z !== z) node.style.zIndex = entry.z = z;
      const opacity = e.hidden ? "0" : String(e.alpha);
      if (entry.opacity !== opacity) node.style.opacity = entry.opacity = opacity;
      const filled = node._content !== e.content;
      this.fill(node, e);
      if (selfSizing && e.kind === "cell" && (isNew || filled || entry.measuredWidth !== w)) {
        entry.measuredWidth = w;
        this.toMeasure.set(key, node);
      }
      if (animate && isNew && !carried) {
        // An inserted cell starts where the layout says; any other cell new to the window fades in.
        const pose = still ? null : p.appear.get(key);
        const first = pose ? { opacity: pose.alpha, transform: placement(pose.frame, w, h, origin, pose.transform) } : { opacity: 0, transform: to };
        node.animate([first, { opacity: e.hidden ? 0 : e.alpha, transform: to }], { duration: MOVE_MS, easing: "ease-out" });
      }
      entry.x = x;
      entry.y = y;
      entry.w = w;
      entry.h = h;
    }
    if (this.toMeasure.size) requestAnimationFrame(() => this.measure());
  }

  /**
   * Self-sizing: reads the height each newly configured cell's text needs and
   * reports those that differ from their frames. Runs at the start of a frame
   * (reads only). A size is reported once per width: the server's frame then
   * matches, so measuring again reports nothing (no invalidation loop).
   */
  measure() {
    if (!this.toMeasure.size) return;
    const sizes = [];
    for (const [key, node] of this.toMeasure) {
      const entry = this.live.get(key);
      const body = node.querySelector("[data-measure]");
      if (!entry || entry.node !== node || !body) continue;
      // A list row centres its text (which carries its own padding): its height is the text's.
      const top = node._listCell ? 0 : body.offsetTop;
      const height = Math.max(Number(node.dataset.minHeight ?? MIN_ROW), Math.ceil(top + body.offsetHeight));
      const size = `${entry.w}×${height}`;
      if (Math.abs(height - entry.h) < 0.5 || this.reported.get(key) === size) continue;
      this.reported.set(key, size);
      sizes.push({ item: key.slice(2), width: entry.w, height });
    }
    this.toMeasure.clear();
    for (let i = 0; i < sizes.length; i += 500) this.onMeasure?.(sizes.slice(i, i + 500));
  }

  /**
   * Measures every drawn cell of a self-sizing layout again (the page's styles or
   * fonts arrived after they were first drawn, say), reporting what changed.
   */
  remeasure() {
    if (!this.selfSizingLayouts.has(this.state.layout)) return;
    this.reported.clear();
    for (const [key, entry] of this.live) if (entry.element?.kind === "cell") this.toMeasure.set(key, entry.node);
    if (this.toMeasure.size) requestAnimationFrame(() => this.measure());
  }

  /**
   * The layer the background view (kind `background`) is drawn in: before the
   * content in the scroller, stuck to its top-left corner, taking no room.
   */
  backgroundLayer() {
    if (!this.background) {
      const layer = document.createElement("div");
      layer.className = "cv-background";
      layer.style.cssText = "position: sticky; top: 0; left: 0; width: 0; height: 0; z-index: 0;";
      this.content.parentElement.insertBefore(layer, this.content);
      this.background = layer;
    }
    return this.background;
  }

  /**
   * Where the carried cell is drawn: at `carried` (its top-left in content
   * coordinates, unscrolled as its frame is), from its band's origin when it sits in
   * a section that scrolls on its own.
   */
  carriedTransform(e) {
    const band = e && this.bands.bandOf(e);
    const [bx, by] = band ? band.band.frame : [0, 0];
    return `translate(${this.carried.x - bx}px, ${this.carried.y - by}px) scale(1.05)`;
  }

  /** Moves the carried cell to the pointer at once (no wait for the server). */
  carry(key, x, y) {
    this.carried = key ? { key, x, y } : null;
    const entry = key && this.live.get(key);
    if (entry) {
      entry.node.style.transform = entry.transform = this.carriedTransform(entry.element);
      entry.node.style.zIndex = "1500";
      entry.node.classList.add("carried");
    }
  }

  /** Ends carrying: the cell slides from where it was dropped to its next frame. */
  drop(key, x, y) {
    this.carried = null;
    const entry = this.live.get(key);
    if (entry) {
      entry.x = x;
      entry.y = y;
      entry.node.classList.remove("carried");
      // It slides to its frame now: where the move put it, or, refused, back home.
      this.schedule({ kind: "drop", animate: true });
    }
  }

  /** Fills a node's fields from the element's content and selection state. */
  fill(node, e) {
    const content = e.content;
    if (node._content !== content) {
      node._content = content;
      for (const field of node.querySelectorAll("[data-field]")) {
        const text = content[field.dataset.field] ?? "";
        if (field.matches("input, select, textarea")) {
          // A control shows the value unless the viewer is typing in it.
          if (document.activeElement !== field && field.value !== text) {
            if (field.type === "checkbox") field.checked = text === "true";
            else field.value = text;
          }
        } else field.textContent = text;
      }
      for (const swatch of node.querySelectorAll("[data-fill]")) swatch.style.background = content[swatch.dataset.fill] ?? "";
      if (node.dataset.bind !== undefined) applyBindings(node, content);
      for (const bound of node.querySelectorAll("[data-bind]")) applyBindings(bound, content);
      if (node._listCell) fillListCell(node, content, this.state.editing);
      // The item's kind ("folder", "text", …), for styles.
      if ((node.dataset.kind ?? "") !== (content.kind ?? "")) node.dataset.kind = content.kind ?? "";
    }
    if (e.kind === "cell") {
      const item = e.key.slice(2);
      const mine = this.state.isSelectedByMe(item);
      const others = this.state.othersSelecting(item);
      node.classList.toggle("selected", mine);
      node.classList.toggle("remote-selected", others.length > 0);
      const focusColor = this.state.focusedByOther(item);
      node.classList.toggle("remote-focus", !!focusColor);
      node.classList.toggle("focused", this.focusedKey === e.key);
      node.classList.toggle("picked", this.pickedKey === e.key);
      const section = this.state.sections[e.section];
      // Attributes and properties are written only when they change.
      const set = (name, value) => {
        if (node.getAttribute(name) !== value) node.setAttribute(name, value);
      };
      set("aria-selected", mine ? "true" : "false");
      this.access.describe(node, e, set);
      if (node.id !== "cell-" + item) node.id = "cell-" + item;
      if (node.dataset.item !== item) node.dataset.item = item;
      const remote = others[0] ?? "transparent", remoteFocus = focusColor ?? "transparent";
      if (node._remote !== remote) node.style.setProperty("--remote", (node._remote = remote));
      if (node._remoteFocus !== remoteFocus) node.style.setProperty("--remote-focus", (node._remoteFocus = remoteFocus));
    }
  }

  /** Marks the cell picked up by keyboard (`picked`), or none. */
  setPicked(item) {
    const key = item ? "i:" + item : null;
    if (this.pickedKey === key) return;
    if (this.pickedKey) this.live.get(this.pickedKey)?.node.classList.remove("picked");
    this.pickedKey = key;
    if (key) this.live.get(key)?.node.classList.add("picked");
  }

  /** Draws other viewers' drag ghosts (ghosts.js). */
  drawGhosts() {
    drawGhosts(this);
  }

  /**
   * Shows where a drop would go (a dropProposal, or null to clear): the item it
   * would go into is highlighted, or a bar marks the gap it would be inserted at.
   */
  showDropTarget(p) {
    this.dropInto?.classList.remove("drop-into");
    this.dropInto = null;
    this.content.classList.toggle("drop-forbidden", p?.operation === "forbidden");
    const rect = p && (p.operation === "move" || p.operation === "copy") ? this.dropRect(p) : null;
    if (p?.intent === "insertIntoDestinationIndexPath" && p.target && rect) {
      this.dropInto = this.live.get("i:" + p.target)?.node ?? null;
      this.dropInto?.classList.add("drop-into");
    }
    if (!this.indicator) {
      this.indicator = document.createElement("div");
      this.indicator.className = "drop-indicator";
      this.indicator.setAttribute("aria-hidden", "true");
      this.content.appendChild(this.indicator);
    }
    const bar = rect && !this.dropInto ? rect.bar : null;
    this.indicator.hidden = !bar;
    if (bar) {
      this.indicator.style.transform = `translate(${bar.x}px, ${bar.y}px)`;
      this.indicator.style.width = `${bar.w}px`;
      this.indicator.style.height = `${bar.h}px`;
    }
  }

  /**
   * Where a proposal's destination is, from the elements held: the cell there
   * (insert before it), else the one before it (insert after), else the section's
   * header. Returns the cell-sized box and the indicator bar, or null.
   */
  dropRect(p) {
    if (p.section == null) return null;
    let at = null, before = null, header = null;
    for (const e of this.state.elements.values()) {
      if (e.section !== p.section) continue;
      if (e.kind === "header") header = e;
      else if (e.kind !== "cell") continue;
      else if (e.item === p.item) at = e;
      else if (e.item === p.item - 1) before = e;
    }
    // Cells of a section that scrolls on its own show moved back by its offset.
    const shown = (e) => {
      const band = this.bands.bandOf(e);
      if (!band) return e.frame;
      const offset = this.bands.offsetOf(band), [x, y, w, h] = e.frame;
      return band.band.axis === "y" ? [x, y - offset, w, h] : [x - offset, y, w, h];
    };
    if (p.intent === "insertIntoDestinationIndexPath") {
      if (!at) return null;
      const [x, y, w, h] = shown(at);
      return { box: { x, y, w, h } };
    }
    const ref = at ?? before;
    const width = this.content.clientWidth;
    if (!ref) {
      if (!header) return null;
      const [x, y, w, h] = header.frame;
      const box = { x: x + 10, y: y + h + 4, w: Math.min(w, width) - 20, h: 52 };
      return { box, bar: { x: box.x, y: box.y - 2, w: box.w, h: 4 } };
    }
    const [x, y, w, h] = shown(ref);
    const box = { x, y: at ? y : y + h + 8, w, h };
    // Full-width rows: a horizontal bar between them; a grid: a vertical bar between cells.
    if (w > width / 2) return { box, bar: { x, y: (at ? y - 4 : y + h + 4) - 2, w, h: 4 } };
    return { box: at ? box : { x: x + w + 8, y, w, h }, bar: { x: (at ? x - 4 : x + w + 4) - 2, y, w: 4, h } };
  }

  /** A placeholder box where a drop goes, until the server commits it; returns its node. */
  showPlaceholder(p, title) {
    const rect = this.dropRect(p);
    if (!rect) return null;
    const node = document.createElement("div");
    node.className = "drop-placeholder";
    node.setAttribute("role", "status");
    node.textContent = p.intent === "insertIntoDestinationIndexPath" ? `Adding ${title} to the folder…` : `Adding ${title}…`;
    const { x, y, w, h } = rect.box;
    node.style.transform = `translate(${x}px, ${y}px)`;
    node.style.width = `${w}px`;
    node.style.height = `${h}px`;
    this.content.appendChild(node);
    return node;
  }

  /** Refreshes selection marks on live cells (no layout change). */
  /** The viewer's editing mode changed: list rows show the accessories of the new mode. */
  refreshEditing() {
    for (const [, entry] of this.live) {
      if (entry.node._listCell && entry.node._content) fillListCell(entry.node, entry.node._content, this.state.editing);
    }
    this.refreshSelection();
  }

  refreshSelection() {
    for (const [key, entry] of this.live) {
      const e = this.state.elements.get(key);
      if (e) this.fill(entry.node, e);
    }
  }

  dequeue(reuse) {
    const nodes = this.pool.get(reuse);
    if (nodes?.length) {
      const node = nodes.pop();
      node.hidden = false;
      return node;
    }
    const template = document.getElementById(`tpl-${reuse}`);
    let node;
    if (template) {
      node = template.content.firstElementChild.cloneNode(true);
      if (cellControls(node).length) this.access.makeRow(node);
    } else if (reuse === "list-cell") {
      // The library's list row (CollectionViewListCell), unless the page draws its own.
      node = makeListCell();
      node._listCell = true;
    } else node = document.createElement("div");
    node.dataset.reuse = reuse;
    this.content.appendChild(node);
    return node;
  }

  recycle(node) {
    delete node.dataset.key;
    const reuse = node.dataset.reuse;
    if (!this.pool.has(reuse)) this.pool.set(reuse, []);
    const spares = this.pool.get(reuse);
    if (spares.length >= MAX_SPARES) {
      node.remove();
      return;
    }
    node.hidden = true;
    spares.push(node);
  }

  /** Number of live (shown) cells and headers. */
  get liveCount() {
    return this.live.size;
  }
}
