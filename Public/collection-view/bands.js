// Sections that scroll on their own (the server's `bands`): each is a scroller of
// its own inside the content, holding its section's cells and their badges. The
// server sends the cells its offset brings near; this module reports the offsets
// and brings a band to rest where its behaviour says (UIKit's orthogonal scrolling
// behaviours), with the browser's smooth scrolling.

/** Where a band comes to rest: the offset nearest `offset` that its behaviour allows. */
export function restingOffset(band, offset, start, visible) {
  const max = Math.max(0, band.length - visible);
  const clamp = (v) => Math.min(max, Math.max(0, v));
  const step = band.behavior === "paging" ? visible : band.pitch;
  if (!(step > 0)) return clamp(offset);
  switch (band.behavior) {
    case "continuousGroupLeadingBoundary":
      return clamp(Math.round(offset / step) * step);
    case "paging":
    case "groupPaging":
    case "groupPagingCentered": {
      // One page (or group) at a time, in the direction of the swipe; a scroll far
      // past that (a fling, a jump to an item) rests at the nearest stop.
      const from = Math.round(start / step) * step;
      const moved = offset - from;
      if (Math.abs(moved) > 1.5 * step) return clamp(Math.round(offset / step) * step);
      if (Math.abs(moved) < step / 8) return clamp(from);
      return clamp(from + Math.sign(moved) * step);
    }
    default:
      return clamp(offset);
  }
}

export class Bands {
  /**
   * @param {HTMLElement} content the collection's content element
   * @param {() => void} onScroll called when a band scrolled (the page then reports it)
   */
  constructor(content, onScroll) {
    this.content = content;
    this.onScroll = onScroll;
    /** section id -> {band, node, inner, start, settling} */
    this.live = new Map();
    /** section index -> live entry, for the current draw */
    this.bySection = new Map();
  }

  /** Brings the band scrollers in line with the state's bands (in a frame's write phase). */
  sync(state) {
    const wanted = new Map((state.bands ?? []).map((b) => [b.section, b]));
    for (const [id, entry] of this.live) {
      if (wanted.has(id)) continue;
      // Its cells go back to the content before the scroller goes.
      for (const child of [...entry.inner.children]) this.content.appendChild(child);
      entry.node.remove();
      this.live.delete(id);
    }
    for (const [id, band] of wanted) {
      let entry = this.live.get(id);
      if (!entry) {
        entry = this.#make(id, band);
        entry.node.setAttribute("aria-label", state.sections.find((s) => s.id === id)?.title || id);
      }
      const [x, y, w, h] = band.frame;
      const horizontal = band.axis !== "y";
      const geometry = `${x},${y},${w},${h},${band.length},${band.axis}`;
      if (entry.geometry !== geometry) {
        entry.geometry = geometry;
        entry.node.classList.toggle("cv-band-y", !horizontal);
        entry.node.style.transform = `translate(${x}px, ${y}px)`;
        entry.node.style.width = `${w}px`;
        entry.node.style.height = `${h}px`;
        entry.inner.style.width = `${horizontal ? band.length : w}px`;
        entry.inner.style.height = `${horizontal ? h : band.length}px`;
      }
      entry.band = band;
      if (entry.fresh) {
        // A new scroller starts where the server has this viewer (after a reconnect, say).
        entry.fresh = false;
        if (band.offset > 0) {
          if (horizontal) entry.node.scrollLeft = band.offset;
          else entry.node.scrollTop = band.offset;
        }
        entry.reported = entry.rest = band.offset;
      }
    }
    this.bySection.clear();
    state.sections.forEach((s, index) => {
      const entry = this.live.get(s.id);
      if (entry) this.bySection.set(index, entry);
    });
  }

  #make(id, band) {
    const node = document.createElement("div");
    node.className = "cv-band";
    node.dataset.section = id;
    node.setAttribute("role", "group");
    // A person with a keyboard scrolls it too: it takes focus, and arrows scroll it.
    node.tabIndex = 0;
    const inner = document.createElement("div");
    inner.className = "cv-band-content";
    node.append(inner);
    this.content.appendChild(node);
    // rest: where the band last came to rest (a swipe pages from there).
    const entry = { band, node, inner, fresh: true, rest: 0, geometry: "", reported: 0 };
    node.addEventListener("scroll", () => this.onScroll(), { passive: true });
    node.addEventListener("scrollend", () => this.#settle(entry));
    this.live.set(id, entry);
    return entry;
  }

  /** A band stopped scrolling: bring it to rest where its behaviour says. */
  #settle(entry) {
    const horizontal = entry.band.axis !== "y";
    const visible = horizontal ? entry.node.clientWidth : entry.node.clientHeight;
    const now = this.offsetOf(entry);
    // A keyboard reveal put the band where the focused element shows: it rests there.
    if (entry.revealed != null && Math.abs(now - entry.revealed) < 0.5) {
      entry.rest = now;
      entry.revealed = null;
      return;
    }
    entry.revealed = null;
    const rest = restingOffset(entry.band, now, entry.rest, visible);
    entry.rest = rest;
    // The smooth scroll there ends in another scrollend, already at rest.
    // (At once for a person who asked for less motion.)
    const behavior = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? "instant" : "smooth";
    if (Math.abs(rest - now) >= 0.5) entry.node.scrollTo(horizontal ? { left: rest, behavior } : { top: rest, behavior });
  }

  offsetOf(entry) {
    return entry.band.axis === "y" ? entry.node.scrollTop : entry.node.scrollLeft;
  }

  /** Offsets that changed since last reported, by section id (null: none). */
  takeOffsets() {
    let out = null;
    for (const [id, entry] of this.live) {
      const offset = Math.round(this.offsetOf(entry));
      if (offset === entry.reported) continue;
      entry.reported = offset;
      (out ??= {})[id] = offset;
    }
    return out;
  }

  /** Forgets what was reported (a new connection knows nothing); true if a scroller is scrolled. */
  forgetReported() {
    let any = false;
    for (const entry of this.live.values()) {
      entry.reported = 0;
      if (this.offsetOf(entry) > 0) any = true;
    }
    return any;
  }

  /** The band an element is drawn in (its section's, for cells and their badges), or undefined. */
  bandOf(e) {
    if (e.kind !== "cell" && !(e.kind === "supplementary" && e.item != null)) return undefined;
    return this.bySection.get(e.section);
  }

  /** Scrolls the element's band so that the element is in view (keyboard focus). */
  reveal(e) {
    const entry = this.bandOf(e);
    if (!entry) return;
    const horizontal = entry.band.axis !== "y";
    const [bx, by] = entry.band.frame;
    const start = horizontal ? e.frame[0] - bx : e.frame[1] - by;
    const length = horizontal ? e.frame[2] : e.frame[3];
    const offset = this.offsetOf(entry), visible = horizontal ? entry.node.clientWidth : entry.node.clientHeight;
    let to = offset;
    if (start < offset) to = start - 8;
    else if (start + length > offset + visible) to = start + length - visible + 8;
    if (to === offset) return;
    if (horizontal) entry.node.scrollLeft = to;
    else entry.node.scrollTop = to;
    // Not snapped to a page when it stops: the focused element stays wholly in view.
    entry.revealed = this.offsetOf(entry);
  }
}
