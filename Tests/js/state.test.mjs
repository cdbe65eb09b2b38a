// The client's protocol and state code, without a DOM.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CollectionState } from "../../Public/collection-view/state.js";
import * as protocol from "../../Public/collection-view/protocol.js";

const cell = (id, item, y) => ({ key: `i:${id}`, kind: "cell", reuse: "photo", section: 0, item, frame: [0, y, 100, 100], zIndex: 0, alpha: 1, hidden: false, content: { title: id } });
const welcome = (extra = {}) => ({
  type: "welcome", protocol: 1, viewer: { id: "v1", name: "Viewer 1", color: "#f00" }, seq: 3,
  contentSize: { width: 320, height: 1000 }, sections: [{ id: "a", title: "A", count: 2 }],
  elements: [cell("p1", 0, 0), cell("p2", 1, 110)], selections: [{ viewer: "v2", items: ["p2"] }],
  viewers: [{ id: "v1", name: "Viewer 1", color: "#f00" }, { id: "v2", name: "Viewer 2", color: "#0f0" }], ...extra,
});

test("welcome replaces everything and keeps others' selections", () => {
  const s = new CollectionState();
  const change = s.apply(welcome());
  assert.equal(change.kind, "reload");
  assert.equal(s.seq, 3);
  assert.deepEqual([...s.elements.keys()], ["i:p1", "i:p2"]);
  assert.deepEqual(s.othersSelecting("p2"), ["#0f0"]);
  assert.equal(s.isSelectedByMe("p2"), false);
});

test("welcome and resume say what this viewer may do; absent means everything", () => {
  const s = new CollectionState();
  s.apply(welcome());
  assert.equal(s.can.has("edit"), true);
  s.apply(welcome({ can: ["view", "select"] }));
  assert.deepEqual([...s.can], ["view", "select"]);
  s.apply({ type: "resume", viewer: { id: "v3", name: "Viewer 3", color: "#00f" }, fromSeq: 3, seq: 3, selections: [], viewers: [], focuses: [], layout: "grid" });
  assert.equal(s.can.has("edit"), true);
});

test("window adds and removes by key", () => {
  const s = new CollectionState();
  s.apply(welcome());
  s.apply({ type: "window", contentSize: { width: 320, height: 1000 }, add: [cell("p3", 2, 220)], remove: ["i:p1"] });
  assert.deepEqual([...s.elements.keys()].sort(), ["i:p2", "i:p3"]);
});

test("batches apply in sequence; a gap is reported, not applied", () => {
  const s = new CollectionState();
  s.apply(welcome());
  const batch = (seq, elements, remove, deletedIds = []) => ({
    type: "batch", seq, by: "v2", deletes: [], deletedIds, inserts: [], insertedIds: [], moves: [], reloads: [], replay: false,
    sections: [{ id: "a", title: "A", count: 2, checksum: "0" }],
    contentSize: { width: 320, height: 900 }, elements, remove,
  });
  const gap = s.apply(batch(5, [cell("p9", 0, 0)], []));
  assert.deepEqual(gap, { kind: "gap", expected: 4, got: 5 });
  assert.equal(s.elements.has("i:p9"), false);
  const ok = s.apply(batch(4, [cell("p2", 0, 0), cell("p9", 1, 110)], ["i:p1"]));
  assert.equal(ok.kind, "batch");
  assert.deepEqual(ok.inserted, ["i:p9"]);
  assert.equal(s.seq, 4);
  assert.deepEqual(s.elements.get("i:p2").frame, [0, 0, 100, 100]);
  assert.equal(s.elements.has("i:p1"), false);
  // Deleting an item clears its selection marks.
  s.apply(batch(5, [cell("p9", 0, 0)], ["i:p2"], ["p2"]));
  assert.deepEqual(s.othersSelecting("p2"), []);
});

test("selection and presence", () => {
  const s = new CollectionState();
  s.apply(welcome());
  s.apply({ type: "selection", viewer: "v1", item: "p1", selected: true });
  assert.equal(s.isSelectedByMe("p1"), true);
  assert.deepEqual(s.mySelection(), ["p1"]);
  s.apply({ type: "selection", viewer: "v1", item: "p1", selected: false });
  assert.equal(s.isSelectedByMe("p1"), false);
  // A viewer leaving takes its selection marks along.
  s.apply({ type: "presenceChange", joined: [{ id: "v3", name: "Viewer 3", color: "#00f" }], left: ["v2"] });
  assert.deepEqual(s.othersSelecting("p2"), []);
  assert.deepEqual([...s.viewers.keys()].sort(), ["v1", "v3"]);
});

test("resume keeps the state, replayed batches move the sequence, a replacing window resets elements", () => {
  const s = new CollectionState();
  s.apply(welcome({ epoch: "e1" }));
  assert.equal(s.epoch, "e1");
  assert.equal(s.apply({ type: "resume", viewer: { id: "v9", name: "Viewer 9", color: "#00f" }, fromSeq: 3, seq: 4, selections: [], viewers: [] }).kind, "resume");
  const replay = { type: "batch", seq: 4, by: "v2", deletes: [[0, 0]], deletedIds: ["p1"], inserts: [], insertedIds: [], moves: [], reloads: [],
    replay: true, sections: [{ id: "a", title: "A", count: 1, checksum: "0" }], contentSize: { width: 1, height: 1 }, elements: [], remove: [] };
  assert.deepEqual(s.apply(replay), { kind: "replay", seq: 4 });
  assert.equal(s.seq, 4);
  assert.equal(s.elements.size, 2);   // elements wait for the window
  const change = s.apply({ type: "window", contentSize: { width: 320, height: 500 }, add: [cell("p2", 0, 0)], remove: [], replace: true });
  assert.deepEqual([...s.elements.keys()], ["i:p2"]);
  assert.deepEqual(change.removed, ["i:p1"]);
});

test("message builders match docs/PROTOCOL.md", () => {
  assert.deepEqual(protocol.hello({ width: 10, height: 20 }, { x: 0, y: 5 }, undefined, 7, "e1"),
    { type: "hello", protocol: 1, viewport: { width: 10, height: 20 }, offset: { x: 0, y: 5 }, wantOrder: true, lastSeq: 7, epoch: "e1" });
  assert.deepEqual(protocol.hello({ width: 10, height: 20 }, { x: 0, y: 5 }, undefined, 7),
    { type: "hello", protocol: 1, viewport: { width: 10, height: 20 }, offset: { x: 0, y: 5 }, wantOrder: true });
  assert.deepEqual(protocol.move("o", "p1", "a", undefined), { type: "move", op: "o", item: "p1", section: "a", after: null });
  assert.deepEqual(protocol.scroll({ x: 0, y: 1 }), { type: "scroll", offset: { x: 0, y: 1 } });
  assert.deepEqual(protocol.remove("o", ["a"]), { type: "delete", op: "o", items: ["a"] });
  assert.throws(() => protocol.parseServerMessage('{"type":"nope"}'));
  assert.equal(protocol.parseServerMessage('{"type":"ack","op":"o","seq":1}').seq, 1);
});

test("other viewers' focus and drags, dropped when they leave or the item goes", () => {
  const s = new CollectionState();
  s.apply(welcome({ focuses: [{ viewer: "v2", item: "p1" }] }));
  assert.equal(s.focusedByOther("p1"), "#0f0");
  s.apply({ type: "focus", viewer: "v2", item: "p2" });
  assert.equal(s.focusedByOther("p1"), null);
  assert.equal(s.focusedByOther("p2"), "#0f0");
  assert.equal(s.apply({ type: "drag", viewer: "v2", item: "p1", x: 10, y: 20 }).kind, "drag");
  assert.deepEqual(s.drags.get("v2"), { item: "p1", x: 10, y: 20, over: null });
  // Where, by item: kept for the view to place the ghost in this viewer's own layout.
  s.apply({ type: "drag", viewer: "v2", item: "p1", x: 10, y: 20, over: { item: "p2", x: 0.5, y: 1 } });
  assert.deepEqual(s.drags.get("v2").over, { item: "p2", x: 0.5, y: 1 });
  s.apply({ type: "batch", seq: 4, by: "v2", deletes: [[0, 0]], deletedIds: ["p1"], inserts: [], insertedIds: [], moves: [], reloads: [],
    replay: false, sections: [], contentSize: { width: 1, height: 1 }, elements: [cell("p2", 0, 0)], remove: ["i:p1"] });
  assert.equal(s.drags.has("v2"), false);   // the dragged item was deleted
  s.apply({ type: "presenceChange", joined: [], left: ["v2"] });
  assert.equal(s.focusedByOther("p2"), null);   // v2 left
});

test("a cell is named by the page's label field, then title, then text, never by its id", () => {
  const s = new CollectionState();
  const cell = (content, item = 4) => ({ kind: "cell", section: 0, item, content });
  assert.equal(s.nameOf(cell({ title: "Summer", text: "ignored" })), "Summer");
  assert.equal(s.nameOf(cell({ text: "Dark mode" })), "Dark mode");   // a list row
  assert.equal(s.nameOf(cell({ id: "theme-auto" })), "item 5");
  assert.equal(s.nameOf(undefined), "an item");
  s.labelField = "name";
  assert.equal(s.nameOf(cell({ name: "Ana's card", title: "T" })), "Ana's card");
  assert.equal(s.nameOf(cell({ title: "T" })), "T");
});

test("a large order follows the welcome in parts, appended section by section", () => {
  const s = new CollectionState();
  s.apply(welcome({ orderFollows: true, sections: [{ id: "a", title: "A", count: 3 }, { id: "b", title: "B", count: 1 }] }));
  assert.deepEqual(s.order, [[], []]);
  assert.equal(s.apply({ type: "order", section: 0, ids: ["p1", "p2"], last: false }).kind, "order");
  s.apply({ type: "order", section: 0, ids: ["p3"], last: false });
  assert.equal(s.apply({ type: "order", section: 1, ids: ["q1"], last: true }).last, true);
  assert.deepEqual(s.order, [["p1", "p2", "p3"], ["q1"]]);
  // Without a welcome that said so, a part is ignored.
  const other = new CollectionState();
  other.apply(welcome());
  assert.equal(other.apply({ type: "order", section: 0, ids: ["x"], last: true }).kind, "ignored");
  assert.equal(other.order, null);
});
