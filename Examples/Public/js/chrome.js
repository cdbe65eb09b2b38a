// Page chrome shared by the photos page and the board: the status line and the
// viewers present.

/**
 * The status line's dot (the body's data-status), word and the changes waiting to be
 * sent; the loss and the return are said once each through `say` (none on pages whose
 * <collection-view> says them itself).
 */
export function showStatus(status, text, say, waiting = 0) {
  document.body.dataset.status = status;
  text.textContent = waiting ? `${status} · ${waiting} waiting` : status;
  // Said once when lost and once when back, not at every retry.
  const lost = document.body.dataset.lost === "true";
  if (status === "reconnecting" && !lost) {
    document.body.dataset.lost = "true";
    say?.("Connection lost; reconnecting.");
  } else if (status === "connected" && lost) {
    document.body.dataset.lost = "false";
    say?.("Connected.");
  }
}

/** The status line follows a <collection-view>: its connection and the changes waiting (it says them itself). */
export function followStatus(view) {
  const text = document.getElementById("status-text");
  view.addEventListener("status", (e) => showStatus(e.detail.status, text, null, view.pendingCount));
  view.addEventListener("pending", (e) => showStatus(view.dataset.status, text, null, e.detail.waiting));
}

/** The viewers present, as coloured dots (redrawn only when they change). */
export function drawViewers(box, state) {
  const key = JSON.stringify([...state.viewers.values()].map((v) => [v.id, v.name, v.color, v.guest, v.id === state.me?.id]));
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  // This viewer first; past four, the rest are one "+N" (their names in its title).
  const everyone = [...state.viewers.values()].sort((a, b) => (b.id === state.me?.id) - (a.id === state.me?.id));
  const shown = everyone.length > 4 ? everyone.slice(0, 3) : everyone;
  const rest = everyone.slice(shown.length);
  const more = document.createElement("span");
  more.className = "viewer more";
  more.textContent = `+${rest.length}`;
  more.title = rest.map((v) => state.viewerName(v.id)).join(", ");
  box.replaceChildren(
    ...shown.map((v) => {
      const dot = document.createElement("span");
      // A guest (not signed in) picked its own name: shown dashed, and said so.
      dot.className = "viewer" + (v.id === state.me?.id ? " me" : "") + (v.guest ? " guest" : "");
      dot.style.setProperty("--color", v.color);
      // Its name in black or white, whichever reads better on its colour.
      dot.style.color = readableOn(v.color);
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
    ...(rest.length ? [more] : []),
  );
}

/** Black or white, whichever contrasts more with `color` (#rrggbb), by WCAG's relative luminance. */
export function readableOn(color) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color ?? "");
  if (!m) return "#fff";
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05).
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000" : "#fff";
}
