// The mirrored identifier order: UIKit's batch rules on id lists, and the checksum.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyOrder, orderChecksum, verifyOrder, touchedSections } from "../../Public/collection-view/order.js";
import { CollectionState } from "../../Public/collection-view/state.js";

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

test("state: a wrong count stops the batch at once; a wrong checksum is found by verifyChecksums", () => {
  const s = new CollectionState();
  s.apply({ type: "welcome", viewer: { id: "v1", name: "V", color: "#000" }, seq: 1, contentSize: { width: 1, height: 1 },
    sections: info([["a", "b"]]), elements: [], selections: [], viewers: [], order: [["a", "b"]] });
  const good = { type: "batch", seq: 2, by: "v2", deletes: [], deletedIds: [], inserts: [], insertedIds: [],
    moves: [[[0, 0], [0, 1]]], reloads: [], replay: false, sections: info([["b", "a"]]), contentSize: { width: 1, height: 1 }, elements: [], remove: [] };
  assert.equal(s.apply(good).kind, "batch");
  assert.deepEqual(s.order, [["b", "a"]]);
  // The server says the move gives b, a again: the order held (a, b) disagrees.
  assert.equal(s.verifyChecksums(), null);
  const wrong = { ...good, seq: 3, sections: info([["b", "a"]]) };
  assert.equal(s.apply(wrong).kind, "batch");
  assert.match(s.verifyChecksums(), /section s0: the order held does not match the server's checksum/);
  assert.equal(s.verifyChecksums(), null, "checked once");
  // A count that does not fit is caught at once, and the batch is not applied.
  const short = { ...good, seq: 4, moves: [], sections: [{ id: "s0", count: 3 }] };
  const change = s.apply(short);
  assert.equal(change.kind, "diverged");
  assert.match(change.reason, /2 items held, 3 on the server/);
  assert.equal(s.seq, 3);
});

/** UIKit's rules, written the slow obvious way: fill the new slots. */
function referenceApply(batch, order) {
  return order.map((ids, s) => {
    const count = batch.sections[s].count;
    const slots = new Array(count).fill(undefined);
    const gone = new Set(batch.deletes.filter(([ds]) => ds === s).map(([, i]) => i));
    for (const [[fs, fi], [ts, ti]] of batch.moves) {
      if (fs === s) gone.add(fi);
      if (ts === s) slots[ti] = order[fs][fi];
    }
    batch.inserts.forEach(([is, i], k) => { if (is === s) slots[i] = batch.insertedIds[k]; });
    let slot = 0;
    ids.forEach((id, i) => {
      if (gone.has(i)) return;
      while (slots[slot] !== undefined) slot++;
      slots[slot] = id;
    });
    return slots;
  });
}

test("random batches: the order comes out as UIKit's rules say", () => {
  let seed = 11;
  const rand = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const shuffled = (xs) => { for (let i = xs.length - 1; i > 0; i--) { const j = rand(i + 1); [xs[i], xs[j]] = [xs[j], xs[i]]; } return xs; };
  for (let round = 0; round < 300; round++) {
    const order = [0, 1, 2].map((s) => Array.from({ length: rand(12) }, (_, i) => `s${s}-${i}`));
    // Pick deletes and moves among the old items, then distinct new places for moves and inserts.
    const all = shuffled(order.flatMap((ids, s) => ids.map((_, i) => [s, i])));
    const deletes = all.slice(0, rand(3)), moving = all.slice(deletes.length, deletes.length + rand(4));
    const inserts = Array.from({ length: rand(3) }, () => rand(3));
    const counts = order.map((ids, s) => ids.length - deletes.filter(([d]) => d === s).length - moving.filter(([m]) => m === s).length);
    const targets = [...moving.map(() => rand(3)), ...inserts];
    targets.forEach((s) => counts[s]++);
    const free = counts.map((n) => shuffled(Array.from({ length: n }, (_, i) => i)));
    const place = (s) => [s, free[s].pop()];
    const batch = {
      deletes, moves: moving.map((from, k) => [from, place(targets[k])]),
      inserts: [], insertedIds: [], sections: counts.map((count, s) => ({ id: `s${s}`, count })),
    };
    inserts.forEach((s, k) => { batch.inserts.push(place(s)); batch.insertedIds.push(`new${round}-${k}`); });
    assert.deepEqual(applyOrder(batch, order), referenceApply(batch, order), JSON.stringify(batch));
  }
});
