// Where keyboard focus and reorder go, from the layout's frames alone (no DOM):
// up and down follow the geometry of the grid, left and right the item order.

const center = (e) => ({ x: e.frame[0] + e.frame[2] / 2, y: e.frame[1] + e.frame[3] / 2 });
const byIndex = (a, b) => a.section - b.section || a.item - b.item;

/** The window's cells in index-path order. */
export function cellsInOrder(elements) {
  return [...elements.values()].filter((e) => e.kind === "cell").sort(byIndex);
}

/**
 * The cell keyboard focus goes to from `fromKey` for `key` (ArrowUp/Down/Left/Right),
 * among the cells held (a Map of key -> element). Null when there is none that way.
 */
export function neighbour(elements, fromKey, key, skipKey) {
  const cells = cellsInOrder(elements).filter((e) => e.key !== skipKey);
  const from = elements.get(fromKey);
  if (!from) return cells[0] ?? null;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const all = cellsInOrder(elements);
    const i = all.findIndex((e) => e.key === fromKey);
    const step = key === "ArrowRight" ? 1 : -1;
    for (let j = i + step; j >= 0 && j < all.length; j += step) if (all[j].key !== skipKey) return all[j];
    return null;
  }
  const c = center(from);
  const down = key === "ArrowDown";
  // The nearest line in that direction, then the cell on it closest in x.
  const ahead = cells
    .filter((e) => e.key !== fromKey)
    .map((e) => ({ e, dy: down ? center(e).y - c.y : c.y - center(e).y, dx: Math.abs(center(e).x - c.x) }))
    .filter((x) => x.dy > from.frame[3] / 4);
  if (!ahead.length) return null;
  const line = Math.min(...ahead.map((x) => x.dy));
  const onLine = ahead.filter((x) => x.dy <= line + from.frame[3] / 2);
  onLine.sort((a, b) => a.dx - b.dx || a.dy - b.dy);
  return onLine[0].e;
}

/** The cell whose centre is nearest to `point` (content coordinates). */
export function nearest(elements, point) {
  let best = null;
  let bestD = Infinity;
  for (const e of elements.values()) {
    if (e.kind !== "cell") continue;
    const p = center(e);
    const d = (p.x - point.x) ** 2 + (p.y - point.y) ** 2;
    if (d < bestD) {
      best = e;
      bestD = d;
    }
  }
  return best;
}

/** First or last cell held, in index-path order. */
export function edge(elements, last) {
  const cells = cellsInOrder(elements);
  return (last ? cells[cells.length - 1] : cells[0]) ?? null;
}

export { center };

/** How close to a scroller's top or bottom edge a drag starts scrolling it, in px. */
export const SCROLL_EDGE = 48;

/**
 * How far a drag at client `y` scrolls a scroller whose client rect is `r` this frame:
 * negative near (or above) its top edge, positive near (or below) its bottom, faster
 * the deeper in; 0 elsewhere.
 */
export function edgeScrollSpeed(y, r) {
  if (y < r.top + SCROLL_EDGE) return -Math.ceil((r.top + SCROLL_EDGE - y) / 4);
  if (y > r.bottom - SCROLL_EDGE) return Math.ceil((y - (r.bottom - SCROLL_EDGE)) / 4);
  return 0;
}
