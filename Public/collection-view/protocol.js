// Protocol v1 messages: builders for what the client sends, and a check of
// what it receives. No DOM here.
export const SUBPROTOCOL = "collection.v1";
export const VERSION = 1;

export const hello = (viewport, offset, name, lastSeq, epoch, collection) => {
  // wantOrder: every section's ids come with the welcome, so that each batch's
  // counts and checksums can be checked against the order held.
  const m = { type: "hello", protocol: VERSION, viewport, offset, wantOrder: true };
  if (name) m.name = name;
  if (collection) m.collection = collection;
  if (Number.isInteger(lastSeq) && epoch) {
    m.lastSeq = lastSeq;
    m.epoch = epoch;
  }
  return m;
};
/** The viewport scrolled (or was resized); `sectionOffsets`: sections scrolled on their own, by id. */
export const scroll = (offset, viewport, sectionOffsets) => {
  const m = { type: "scroll", offset };
  if (viewport) m.viewport = viewport;
  if (sectionOffsets) m.sectionOffsets = sectionOffsets;
  return m;
};
export const select = (item, selected) => ({ type: "select", item, selected });
export const insert = (op, section, count) => ({ type: "insert", op, section, count });
export const remove = (op, items) => ({ type: "delete", op, items });
export const shuffle = (op, section) => ({ type: "shuffle", op, section });
export const move = (op, item, section, after) => ({ type: "move", op, item, section, after: after ?? null });
export const reload = (op, items) => ({ type: "reload", op, items });
export const focus = (item) => ({ type: "focus", item: item ?? null });
export const drag = (item, x, y) => ({ type: "drag", item: item ?? null, x, y });
export const moveBegin = (item) => ({ type: "moveBegin", item });
export const moveUpdate = (x, y) => ({ type: "moveUpdate", x, y });
export const moveEnd = (op) => ({ type: "moveEnd", op });
export const moveCancel = () => ({ type: "moveCancel" });
export const layout = (name) => ({ type: "layout", name });
/** An interactive transition of this viewer's own layout to `layout`: begin, progress (0-1), end (finish or cancel). */
export const transitionBegin = (layout) => ({ type: "transitionBegin", layout });
export const transitionUpdate = (progress) => ({ type: "transitionUpdate", progress });
export const transitionEnd = (finish) => ({ type: "transitionEnd", finish });
export const measure = (sizes) => ({ type: "measure", sizes });
export const editing = (on) => ({ type: "editing", on });
export const selectRange = (from, to, replace) => ({ type: "selectRange", from, to, selected: true, replace });
/** Scroll so that `item` sits at `position` (top, center, bottom, nearest): the server answers with a window and its offset. */
export const scrollToItem = (item, position = "nearest") => ({ type: "scrollToItem", item, position });
/** A named control was used: `item` is its cell's item (null outside cells), `payload` string fields; `op` ties the answer (actionResult) to it. */
export const action = (name, item, payload = {}, op) => ({ type: "action", name, item: item ?? null, payload, ...(op ? { op } : {}) });
/** A drag out of this collection: lift `item` at (x, y), add more, end it (the server's drag delegate says what it carries). */
export const dragBegin = (item, x, y) => ({ type: "dragBegin", item, x, y });
export const dragAdd = (item, x, y) => ({ type: "dragAdd", item, x, y });
export const dragEnd = () => ({ type: "dragEnd" });
/** A list row's accessory `name` (one with the server's action handler) was chosen on row `item`. */
export const accessory = (item, name) => ({ type: "accessory", item, name });
/** Expand (or collapse) an outline's row `item`: its children show (or hide) for everyone. */
export const outline = (item, expanded) => ({ type: "outline", item, expanded });
/** A list row's swipe from `edge` ("leading", "trailing"): ask which actions it reveals, then perform one. */
export const swipeActions = (item, edge) => ({ type: "swipeActions", item, edge });
export const swipeAction = (item, edge, index) => ({ type: "swipeAction", item, edge, index });
/** A context menu for `items` (empty: the background) at (x, y) in content coordinates; choose the action at `path`; close it. */
export const contextMenu = (items, x, y) => ({ type: "contextMenu", items, x, y });
export const contextMenuAction = (path) => ({ type: "contextMenuAction", path });
export const contextMenuEnd = () => ({ type: "contextMenuEnd" });
/** A drag hovering at (x, y): `source` {collection, item} for an item here, else `kinds` of external data. */
export const dropUpdate = (x, y, source, kinds) => (source ? { type: "dropUpdate", x, y, source } : { type: "dropUpdate", x, y, items: kinds.map((kind) => ({ kind })) });
/** The drag released at (x, y): `source` for an item here, else `items` [{kind, value}]. */
export const drop = (op, x, y, source, items) => (source ? { type: "drop", op, x, y, source } : { type: "drop", op, x, y, items });

const SERVER_TYPES = new Set(["welcome", "resume", "window", "batch", "ack", "reject", "selection", "presenceChange", "error", "focus", "drag", "layout",
  "dropProposal", "editing", "selections", "dragSession", "swipeActions", "contextMenu", "actionResult", "order"]);

/** Parses a server frame; throws with a reason if it is not a v1 server message. */
export function parseServerMessage(text) {
  const m = JSON.parse(text);
  if (m === null || typeof m !== "object" || !SERVER_TYPES.has(m.type)) {
    throw new Error(`unexpected server message: ${String(text).slice(0, 80)}`);
  }
  return m;
}
