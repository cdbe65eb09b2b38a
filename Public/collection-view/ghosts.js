// Other viewers' drag ghosts: one per dragging viewer, in its colour, placed by item
// in this viewer's own layout (the mover's may differ: a phone's one column against
// three here); by the mover's point only when the item it is over is not drawn here.

/** Draws `view`'s ghosts from its state's drags (adding, moving and removing nodes). */
export function drawGhosts(view) {
  const { state, content } = view;
  view.ghosts ??= new Map();
  for (const [viewer, ghost] of view.ghosts) {
    if (!state.drags.has(viewer)) {
      ghost.remove();
      view.ghosts.delete(viewer);
    }
  }
  for (const [viewer, drag] of state.drags) {
    let ghost = view.ghosts.get(viewer);
    if (!ghost) {
      ghost = document.createElement("div");
      ghost.className = "ghost";
      ghost.setAttribute("aria-hidden", "true");
      content.appendChild(ghost);
      view.ghosts.set(viewer, ghost);
    }
    const info = state.viewers.get(viewer);
    const element = state.elements.get("i:" + drag.item);
    const [w, h] = element ? [element.frame[2], element.frame[3]] : [120, 120];
    ghost.textContent = `${info ? state.viewerName(viewer) : viewer}: ${state.nameOf(element)}`;
    ghost.style.setProperty("--color", info?.color ?? "#888");
    ghost.style.width = `${w}px`;
    ghost.style.height = `${h}px`;
    const over = drag.over && state.elements.get("i:" + drag.over.item);
    const [x, y] = over ? [over.frame[0] + over.frame[2] * drag.over.x, over.frame[1] + over.frame[3] * drag.over.y] : [drag.x, drag.y];
    ghost.style.transform = `translate(${x - w / 2}px, ${y - h / 2}px)`;
  }
}
