// The client's mirror of its window: elements by key, built only from what the
// server sent, plus selections and viewers, and the whole identifier order,
// checked against every batch's counts and checksums. No DOM here: view.js draws it.
import { applyOrder, touchedSections, verifyOrder } from "./order.js";

export class CollectionState {
  constructor() {
    /** Fresh copies asked for after a gap or a divergence. */
    this.reloads = 0;
    /** This viewer's editing mode (the server's isEditing; kept across reloads). */
    this.editing = false;
    /** The content field that names a cell to people (`label-field`; then `title`, then `text`). */
    this.labelField = "title";
    this.reset();
  }

  /**
   * What a cell is called, for screen readers and announcements: its content's
   * `labelField`, else `title`, else `text` (a list row's), else its place ("item 3"),
   * never its identifier.
   */
  nameOf(element) {
    const c = element?.content ?? {};
    const name = c[this.labelField] ?? c.title ?? c.text;
    if (name) return name;
    return element && element.item != null ? `item ${element.item + 1}` : "an item";
  }

  reset() {
    /** @type {Map<string, object>} key -> element (frame, content, …) */
    this.elements = new Map();
    this.sections = [];
    /** Every section's item ids in order (from welcome.order), or null. */
    this.order = null;
    /** Sections changed since their checksums were last checked. */
    this.unverified = new Set();
    this.contentSize = { width: 0, height: 0 };
    /** Sections that scroll on their own: [{section, frame, axis, length, behavior, pitch, offset}]. */
    this.bands = [];
    this.seq = 0;
    this.epoch = null;
    this.me = null;
    this.viewers = new Map();
    /** item id -> Set of viewer ids that selected it */
    this.selections = new Map();
    /** viewer id -> item id its keyboard focus is on */
    this.focuses = new Map();
    /** viewer id -> {item, x, y}: an item another viewer is dragging */
    this.drags = new Map();
    /** The layout every viewer uses ("grid", "list"). */
    this.layout = "grid";
  }

  /** Applies one server message; returns a change record for the view. */
  apply(m) {
    switch (m.type) {
      case "welcome":
        return this.#welcome(m);
      case "order": {
        // The next ids of a section's order, right after a welcome whose order follows.
        const ids = this.order?.[m.section];
        if (!ids) return { kind: "ignored" };
        for (const id of m.ids) ids.push(id);
        return { kind: "order", last: m.last };
      }
      case "window": {
        let removed = m.remove;
        if (m.replace) {
          removed = [...this.elements.keys()].filter((key) => !m.add.some((e) => e.key === key));
          this.elements.clear();
        }
        for (const key of m.remove) this.elements.delete(key);
        for (const e of m.add) this.elements.set(e.key, e);
        this.contentSize = m.contentSize;
        this.bands = m.bands ?? [];
        // offset: measured sizes moved the content; scroll so that what was at the top stays there.
        return { kind: "window", animate: !!m.animated, removed, offset: m.offset ?? null };
      }
      case "resume":
        // Our state is kept; the missed batches follow, then the whole window.
        this.me = m.viewer;
        this.can = new Set(m.can ?? ["view", "select", "edit"]);
        this.viewers = new Map(m.viewers.map((v) => [v.id, v]));
        this.selections = new Map();
        for (const s of m.selections) for (const item of s.items) this.#setSelected(s.viewer, item, true);
        this.focuses = new Map((m.focuses ?? []).map((f) => [f.viewer, f.item]));
        this.drags = new Map();
        if (m.layout) this.layout = m.layout;   // a switch made while we were away
        return { kind: "resume" };
      case "batch":
        return this.#batch(m);
      case "selection":
        this.#setSelected(m.viewer, m.item, m.selected);
        return { kind: "selection", item: m.item };
      case "selections":
        for (const item of m.items) this.#setSelected(m.viewer, item, m.selected);
        return { kind: "selection" };
      case "editing":
        this.editing = m.on;
        return { kind: "editing" };
      case "focus":
        if (m.item) this.focuses.set(m.viewer, m.item);
        else this.focuses.delete(m.viewer);
        return { kind: "selection" };
      case "drag":
        if (m.item) this.drags.set(m.viewer, { item: m.item, x: m.x, y: m.y, over: m.over ?? null });
        else this.drags.delete(m.viewer);
        return { kind: "drag" };
      case "layout":
        this.layout = m.name;
        return { kind: "layout", by: m.by };
      case "presenceChange":
        // Joins and leaves since the last one; the welcome (or resume) had the list.
        for (const v of m.joined) this.viewers.set(v.id, v);
        for (const id of m.left) this.viewers.delete(id);
        for (const v of [...this.focuses.keys()]) if (!this.viewers.has(v)) this.focuses.delete(v);
        for (const v of [...this.drags.keys()]) if (!this.viewers.has(v)) this.drags.delete(v);
        for (const [item, set] of this.selections) {
          for (const v of set) if (!this.viewers.has(v)) set.delete(v);
          if (set.size === 0) this.selections.delete(item);
        }
        return { kind: "presence" };
      default:
        return { kind: m.type };
    }
  }

  #welcome(m) {
    this.reset();
    this.me = m.viewer;
    /** What this viewer may do here: "view", "select", "edit". */
    this.can = new Set(m.can ?? ["view", "select", "edit"]);
    this.epoch = m.epoch;
    this.seq = m.seq;
    this.sections = m.sections;
    // A large order follows the welcome in `order` parts (appended below).
    this.order = m.order ?? (m.orderFollows ? m.sections.map(() => []) : null);
    this.contentSize = m.contentSize;
    this.bands = m.bands ?? [];
    for (const e of m.elements) this.elements.set(e.key, e);
    this.viewers = new Map(m.viewers.map((v) => [v.id, v]));
    for (const s of m.selections) for (const item of s.items) this.#setSelected(s.viewer, item, true);
    for (const f of m.focuses ?? []) this.focuses.set(f.viewer, f.item);
    this.layout = m.layout ?? "grid";
    /** The server's name for this collection (drag sources name it). */
    this.collection = m.collection ?? null;
    return { kind: "reload", animate: false, removed: [] };
  }

  #batch(m) {
    if (m.seq !== this.seq + 1) {
      return { kind: "gap", expected: this.seq + 1, got: m.seq };
    }
    if (this.order) {
      // The order held must come out where the server says, or nothing is shown of
      // it. Counts are checked now; checksums (a pass over each touched section)
      // by `verifyChecksums`, which the page runs when idle.
      try {
        this.order = applyOrder(m, this.order);
      } catch (error) {
        return { kind: "diverged", seq: m.seq, reason: error.message };
      }
      for (const s of touchedSections(m)) this.unverified.add(s);
    }
    this.seq = m.seq;
    this.sections = m.sections;
    for (const id of m.deletedIds) this.selections.delete(id);
    const gone = new Set(m.deletedIds);
    for (const [v, item] of this.focuses) if (gone.has(item)) this.focuses.delete(v);
    for (const [v, d] of this.drags) if (gone.has(d.item)) this.drags.delete(v);
    if (m.replay) return { kind: "replay", seq: m.seq };
    this.contentSize = m.contentSize;
    this.bands = m.bands ?? [];
    const before = new Set(this.elements.keys());
    for (const key of m.remove) this.elements.delete(key);
    const inserted = [];
    for (const e of m.elements) {
      if (!before.has(e.key)) inserted.push(e.key);
      this.elements.set(e.key, e);
    }
    return { kind: "batch", animate: true, removed: m.remove, inserted, by: m.by, deletedIds: m.deletedIds, appear: m.appear, disappear: m.disappear };
  }

  /** Checks the checksums of the sections changed since the last check: null, or why the order held is wrong. */
  verifyChecksums() {
    if (!this.order || !this.unverified.size) return null;
    const why = verifyOrder(this.order, this.sections, this.unverified);
    this.unverified.clear();
    return why;
  }

  #setSelected(viewer, item, selected) {
    let set = this.selections.get(item);
    if (selected) {
      if (!set) this.selections.set(item, (set = new Set()));
      set.add(viewer);
    } else if (set) {
      set.delete(viewer);
      if (set.size === 0) this.selections.delete(item);
    }
  }

  /**
   * How to name viewer `id` to people: its name, marked "(guest)" when it is not
   * signed in (a guest picks its own name: a guest "Ana" is not the signed-in Ana).
   */
  viewerName(id) {
    const v = this.viewers.get(id);
    if (!v) return "another viewer";
    return v.guest ? `${v.name} (guest)` : v.name;
  }

  /** True when this viewer has selected `item`. */
  isSelectedByMe(item) {
    return !!this.me && !!this.selections.get(item)?.has(this.me.id);
  }

  /** Colours of the other viewers who selected `item`. */
  othersSelecting(item) {
    const set = this.selections.get(item);
    if (!set) return [];
    return [...set].filter((v) => v !== this.me?.id).map((v) => this.viewers.get(v)?.color ?? "#888");
  }

  /** Colour of another viewer whose focus is on `item`, or null. */
  focusedByOther(item) {
    for (const [v, focused] of this.focuses) if (focused === item && v !== this.me?.id) return this.viewers.get(v)?.color ?? "#888";
    return null;
  }

  /** Item ids this viewer has selected. */
  mySelection() {
    const out = [];
    for (const [item, set] of this.selections) if (this.me && set.has(this.me.id)) out.push(item);
    return out;
  }
}
