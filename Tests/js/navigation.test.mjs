// Keyboard geometry and live-region sentences, without a DOM.
import { test } from "node:test";
import assert from "node:assert/strict";
import { neighbour, edge, nearest } from "../../Public/collection-view/navigation.js";
import { describeBatch, describePosition } from "../../Public/collection-view/announce.js";
import { CollectionState } from "../../Public/collection-view/state.js";

// A 3-column grid of 100×100 cells, 110 apart, items 0…7 in section 0.
const grid = new Map();
for (let i = 0; i < 8; i++) {
  const e = { key: `i:p${i}`, kind: "cell", section: 0, item: i, frame: [(i % 3) * 110, 20 + Math.floor(i / 3) * 110, 100, 100], content: { title: `P${i}` } };
  grid.set(e.key, e);
}
grid.set("h:s", { key: "h:s", kind: "header", section: 0, frame: [0, 0, 320, 20], content: {} });

test("up and down follow the grid's columns, not the index order", () => {
  assert.equal(neighbour(grid, "i:p1", "ArrowDown").key, "i:p4");
  assert.equal(neighbour(grid, "i:p4", "ArrowDown").key, "i:p7");
  assert.equal(neighbour(grid, "i:p5", "ArrowDown").key, "i:p7"); // the short last line: nearest in x
  assert.equal(neighbour(grid, "i:p4", "ArrowUp").key, "i:p1");
  assert.equal(neighbour(grid, "i:p1", "ArrowUp"), null);
});

test("left and right follow the item order and wrap lines", () => {
  assert.equal(neighbour(grid, "i:p2", "ArrowRight").key, "i:p3");
  assert.equal(neighbour(grid, "i:p3", "ArrowLeft").key, "i:p2");
  assert.equal(neighbour(grid, "i:p7", "ArrowRight"), null);
  assert.equal(neighbour(grid, "i:p2", "ArrowRight", "i:p3").key, "i:p4"); // skipping the item being moved
});

test("edges and nearest", () => {
  assert.equal(edge(grid, false).key, "i:p0");
  assert.equal(edge(grid, true).key, "i:p7");
  assert.equal(nearest(grid, { x: 160, y: 180 }).key, "i:p4");
});

test("remote batches are described; our own are not", () => {
  const s = new CollectionState();
  s.apply({ type: "welcome", viewer: { id: "v1", name: "Ann", color: "#f00" }, seq: 0, contentSize: { width: 1, height: 1 },
    sections: [{ id: "a", title: "Summer", count: 8 }], elements: [...grid.values()], selections: [],
    viewers: [{ id: "v1", name: "Ann", color: "#f00" }, { id: "v2", name: "Bo", color: "#0f0" }] });
  const base = { inserts: [], deletes: [], moves: [], reloads: [] };
  assert.equal(describeBatch({ ...base, by: "v2", moves: [[[0, 0], [0, 3]]] }, s), "P3 moved to position 4 in Summer by Bo.");
  assert.equal(describeBatch({ ...base, by: "v2", inserts: [[0, 0], [0, 1]] }, s), "2 items added to Summer by Bo.");
  assert.equal(describeBatch({ ...base, by: "v2", deletes: [[0, 1]], moves: [[[0, 2], [0, 5]], [[0, 5], [0, 2]]] }, s),
    "1 item deleted; Summer reordered by Bo.");
  assert.equal(describeBatch({ ...base, by: "v1", moves: [[[0, 0], [0, 3]]] }, s), null);
  // The app's own change is said to be the server's, not another viewer's.
  assert.equal(describeBatch({ ...base, by: "server", inserts: [[0, 0]] }, s), "1 item added to Summer by the server.");
  assert.equal(describePosition(grid.get("i:p4"), s), "Position 5 of 8 in Summer.");
});

test("a page scrolling a screen a frame reports its offset led by its movement; a slow one, as it is", async () => {
  const { leadOffset } = await import("../../Public/collection-view/scrolllead.js");
  const viewport = { width: 1200, height: 800 }, max = { x: 0, y: 100_000 };
  assert.deepEqual(leadOffset(null, { x: 0, y: 800 }, viewport, max), { x: 0, y: 800 });
  assert.deepEqual(leadOffset({ x: 0, y: 800 }, { x: 0, y: 1600 }, viewport, max), { x: 0, y: 2400 });
  assert.deepEqual(leadOffset({ x: 0, y: 1600 }, { x: 0, y: 800 }, viewport, max), { x: 0, y: 0 });
  assert.deepEqual(leadOffset({ x: 0, y: 800 }, { x: 0, y: 1100 }, viewport, max), { x: 0, y: 1100 });
  // Never more than a viewport ahead: the window keeps one screen each side, so the
  // viewport itself stays in it.
  assert.deepEqual(leadOffset({ x: 0, y: 0 }, { x: 0, y: 2000 }, viewport, max), { x: 0, y: 2800 });
  assert.deepEqual(leadOffset({ x: 0, y: 99_000 }, { x: 0, y: 99_900 }, viewport, max), { x: 0, y: 100_000 });
  assert.deepEqual(leadOffset({ x: 0, y: 5 }, { x: 0, y: 5 }, viewport, max), { x: 0, y: 5 });
});

test("a refusal is said after 'Not done', a failure after 'Failed', a lost connection's as it is", async () => {
  const { describeRefusal } = await import("../../Public/collection-view/announce.js");
  assert.equal(describeRefusal({ code: "forbidden", message: "Ana may not move cards" }), "Not done: Ana may not move cards");
  assert.equal(describeRefusal({ code: "failed", message: "the action threw" }), "Failed: the action threw");
  assert.equal(describeRefusal({ code: "offline", message: "Not connected: a move needs the connection; try again once it is back." }),
               "Not connected: a move needs the connection; try again once it is back.");
});

test("a drag near a scroller's top or bottom edge scrolls it, faster the deeper in", async () => {
  const { edgeScrollSpeed, SCROLL_EDGE } = await import("../../Public/collection-view/navigation.js");
  const r = { top: 100, bottom: 500 };
  assert.equal(edgeScrollSpeed(300, r), 0, "in the middle: still");
  assert.equal(edgeScrollSpeed(100 + SCROLL_EDGE, r), 0, "at the band's inner edge: still");
  assert.equal(edgeScrollSpeed(100 + SCROLL_EDGE - 1, r), -1);
  assert.equal(edgeScrollSpeed(100, r), -12, "at the top edge: a quarter of the band a frame");
  assert.equal(edgeScrollSpeed(60, r), -22, "above it: faster");
  assert.equal(edgeScrollSpeed(500 - SCROLL_EDGE + 1, r), 1);
  assert.equal(edgeScrollSpeed(500, r), 12);
});
