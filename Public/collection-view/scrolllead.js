// Where the server is told this viewer is while it scrolls fast. The server sends the
// window one screen around the offset it hears; a page moving a screen or more a
// frame would outrun that window while the answer is on its way, so it reports its
// offset led by its last frame's movement (within the content). Once it stops, it
// reports where it is (collection.js).

/**
 * The offset to report: `current`, led along each axis by the movement since
 * `previous` when that movement was at least half the viewport, by one viewport at
 * most (the window's margin: led further, the window would leave part of the
 * viewport out); within 0 and `max`.
 */
export function leadOffset(previous, current, viewport, max) {
  if (!previous) return current;
  const lead = (from, to, size, limit) => {
    const d = to - from;
    if (Math.abs(d) < size / 2) return to;
    const ahead = Math.sign(d) * Math.min(Math.abs(d), size);
    return Math.min(Math.max(0, to + ahead), Math.max(0, limit));
  };
  return { x: lead(previous.x, current.x, viewport.width, max.x), y: lead(previous.y, current.y, viewport.height, max.y) };
}
