// Page chrome shared by the photos page and the board: the status line and the
// viewers present.

/** The status line's dot (the body's data-status) and word; a change is announced. */
export function showStatus(status, text, say) {
  const was = document.body.dataset.status;
  document.body.dataset.status = status;
  text.textContent = status;
  if (was && was !== status && status !== "connecting") say(status === "connected" ? "Connected." : "Connection lost; reconnecting.");
}

/** The viewers present, as coloured dots (redrawn only when they change). */
export function drawViewers(box, state) {
  const key = JSON.stringify([...state.viewers.values()].map((v) => [v.id, v.name, v.color, v.guest, v.id === state.me?.id]));
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(
    ...[...state.viewers.values()].map((v) => {
      const dot = document.createElement("span");
      // A guest (not signed in) picked its own name: shown dashed, and said so.
      dot.className = "viewer" + (v.id === state.me?.id ? " me" : "") + (v.guest ? " guest" : "");
      dot.style.setProperty("--color", v.color);
      dot.title = state.viewerName(v.id) + (v.id === state.me?.id ? " (you)" : "");
      dot.textContent = v.name.replace(/^Viewer /, "");
      if (v.guest) {
        const said = document.createElement("span");
        said.className = "visually-hidden";
        said.textContent = " (guest)";
        dot.append(said);
      }
      return dot;
    }),
  );
}
