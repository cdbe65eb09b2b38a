// The mirrored identifier order: UIKit's batch rules on id lists, and the checksum.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyOrder, orderChecksum, verifyOrder, touchedSections } from "../../Public/js/order.js";
import { CollectionState } from "../../Public/js/state.js";

/** Reference FNV-1a 64 with BigInt, written from PROTOCOL.md alone. */
function reference(ids) {
  let h = 0xcbf29ce484222325n;
  const step = (b) => { h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn; };
  for (const id of ids) {
    for (const b of new TextEncoder().encode(id)) step(b);
    step(0x1f);
  }
  return h.toString(16).padStart(16, "0");
}

test("checksum matches the server's (fixed vectors) and a BigInt reference", () => {
  // Vectors computed with the server's definition (PROTOCOL.md, Checksums).
  assert.equal(orderChecksum([]), "cbf29ce484222325");
  assert.equal(orderChecksum(["p1", "p2", "p3"]), "3f021761233f0174");
  assert.equal(orderChecksum(["é", "日本", "x"]), "612ba291ec8d3202");
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let n = 0; n < 200; n++) {
    const ids = Array.from({ length: rand() % 20 }, () => `id${rand() % 100000}${rand() % 9 === 0 ? "ü" : ""}`);
    assert.equal(orderChecksum(ids), reference(ids));
  }
});

const info = (order) => order.map((ids, s) => ({ id: `s${s}`, count: ids.length, checksum: orderChecksum(ids) }));

test("a batch applied to the order gives the server's order", () => {
  const before = [["a", "b", "c", "d"], ["x", "y"]];
  const after = [["n1", "c", "a", "d"], ["b", "x"]];
  // delete y (1-1); b moves 0-1 → 1-0; c moves 0-2 → 0-1; insert n1 at 0-0.
  const batch = {
    deletes: [[1, 1]], inserts: [[0, 0]], insertedIds: ["n1"],
    moves: [[[0, 1], [1, 0]], [[0, 2], [0, 1]]], sections: info(after),
  };
  const order = applyOrder(batch, before);
  assert.deepEqual(order, after);
  assert.equal(verifyOrder(order, batch.sections, touchedSections(batch)), null);
});

test("a wrong order is caught by its count or its checksum", () => {
  const order = [["a", "b", "c"]];
  assert.match(verifyOrder(order, [{ id: "s0", count: 4, checksum: orderChecksum(["a", "b", "c", "d"]) }], new Set([0])), /3 items held, 4 on the server/);
  assert.match(verifyOrder(order, [{ id: "s0", count: 3, checksum: orderChecksum(["b", "a", "c"]) }], new Set([0])), /checksum/);
  assert.throws(() => applyOrder({ deletes: [], inserts: [[0, 9]], insertedIds: ["z"], moves: [], sections: [{ id: "s0", count: 4 }] }, order), /out of range/);
});

test("state: a batch that does not fit the order held asks for a reload and is not applied", () => {
  const s = new CollectionState();
  s.apply({ type: "welcome", viewer: { id: "v1", name: "V", color: "#000" }, seq: 1, contentSize: { width: 1, height: 1 },
    sections: info([["a", "b"]]), elements: [], selections: [], viewers: [], order: [["a", "b"]] });
  const good = { type: "batch", seq: 2, by: "v2", deletes: [], deletedIds: [], inserts: [], insertedIds: [],
    moves: [[[0, 0], [0, 1]]], reloads: [], replay: false, sections: info([["b", "a"]]), contentSize: { width: 1, height: 1 }, elements: [], remove: [] };
  assert.equal(s.apply(good).kind, "batch");
  assert.deepEqual(s.order, [["b", "a"]]);
  // The server says the move gives b, a again: the order held (a, b) disagrees.
  const wrong = { ...good, seq: 3, sections: info([["b", "a"]]) };
  const change = s.apply(wrong);
  assert.equal(change.kind, "diverged");
  assert.match(change.reason, /checksum/);
  assert.equal(s.seq, 2);
});
