// Pinching between layouts: a trackpad pinch (a wheel event with ctrlKey, as
// browsers send it) or two fingers on a touch screen drive an interactive
// transition of this viewer's layout, from one of `layouts` to the next (zooming
// in) or the one before (zooming out). Letting go past halfway finishes it;
// otherwise it goes back.

const WHEEL_PER_TRANSITION = 240;
const WHEEL_IDLE_MS = 260;

/**
 * @param {HTMLElement} scroller the collection's scroller
 * @param {import("./collection.js").LiveCollection} live
 * @param {string[]} layouts the server's layout names, smallest items first (e.g. ["grid", "list"])
 */
export function attachPinch(scroller, live, layouts) {
  let wheel = null; // {zoomIn, progress, timer}
  const target = (zoomIn) => {
    const i = layouts.indexOf(live.state.layout);
    if (i < 0) return null;
    return layouts[zoomIn ? i + 1 : i - 1] ?? null;
  };
  const end = () => {
    if (!wheel) return;
    live.endTransition(wheel.progress >= 0.5);
    wheel = null;
  };

  scroller.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();   // the page is not zoomed
    if (!wheel) {
      const zoomIn = event.deltaY < 0;
      if (!live.beginTransition(target(zoomIn))) return;
      wheel = { zoomIn, progress: 0, timer: 0 };
    }
    wheel.progress = Math.min(1, Math.max(0, wheel.progress + (wheel.zoomIn ? -event.deltaY : event.deltaY) / WHEEL_PER_TRANSITION));
    live.setTransitionProgress(wheel.progress);
    clearTimeout(wheel.timer);
    wheel.timer = setTimeout(end, WHEEL_IDLE_MS);
  }, { passive: false });

  // Two fingers: the distance between them, against where they started.
  const touches = new Map();
  let pinch = null; // {start, zoomIn, progress}
  const distance = () => {
    const [a, b] = [...touches.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  scroller.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (touches.size === 2) pinch = { start: distance(), zoomIn: null, progress: 0 };
  });
  scroller.addEventListener("pointermove", (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (!pinch || touches.size !== 2 || !pinch.start) return;
    const scale = distance() / pinch.start;
    if (pinch.zoomIn === null) {
      if (Math.abs(scale - 1) < 0.05) return;
      pinch.zoomIn = scale > 1;
      if (!live.beginTransition(target(pinch.zoomIn))) {
        pinch = null;
        return;
      }
    }
    pinch.progress = Math.min(1, Math.max(0, pinch.zoomIn ? scale - 1 : (1 - scale) * 2));
    live.setTransitionProgress(pinch.progress);
  });
  const lift = (e) => {
    if (!touches.delete(e.pointerId)) return;
    if (pinch?.zoomIn != null) live.endTransition(pinch.progress >= 0.5);
    pinch = null;
  };
  scroller.addEventListener("pointerup", lift);
  scroller.addEventListener("pointercancel", lift);
}
