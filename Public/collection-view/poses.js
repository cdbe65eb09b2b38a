// CSS transforms for the server's frames and poses. A cell is a box of its own
// width and height at the content's origin, moved by `transform` (about its
// center, CSS's default origin): a frame of another size is reached by scaling.

/** A layout attributes' transform, `[a, b, c, d, tx, ty]`, as CSS (empty for none). */
export function matrix(t) {
  return t ? ` matrix(${t.join(", ")})` : "";
}

/**
 * The CSS transform that shows a box of `width` × `height` at `frame`
 * (`[x, y, w, h]`, content coordinates) with an extra transform about its
 * center; `origin` is the `[x, y]` of the scroller the box sits in.
 */
export function placement(frame, width, height, origin = [0, 0], transform = undefined) {
  const [x, y, w, h] = frame;
  // (Written so that a box of the frame's own size moves by exactly x and y.)
  const tx = x - origin[0] + (w - width) / 2;
  const ty = y - origin[1] + (h - height) / 2;
  const scale = w !== width || h !== height ? ` scale(${width ? w / width : 1}, ${height ? h / height : 1})` : "";
  return `translate(${tx}px, ${ty}px)${scale}${matrix(transform)}`;
}
