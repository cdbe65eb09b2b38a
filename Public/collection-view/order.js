// The whole identifier order, mirrored from what the server sent (welcome.order,
// then each batch), and checked against every batch's section counts and
// checksums. No DOM here.

const encoder = new TextEncoder();

/** 64-bit FNV-1a over each id's UTF-8 bytes followed by 0x1F, as 16 hex digits (PROTOCOL.md, Checksums). */
export function orderChecksum(ids) {
  // The hash as four 16-bit limbs (small integers stay fast); the prime
  // 0x100000001b3 is 2^40 + 0x1b3, so a multiply is a multiply by 0x1b3 plus a shift.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2;
  const step = (byte) => {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + (h0 << 8);
    const t3 = h3 * 0x1b3 + (h1 << 8);
    t1 += t0 >>> 16;
    h0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    h1 = t1 & 0xffff;
    h3 = (t3 + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
  };
  for (const id of ids) {
    let ascii = true;
    for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 0x7f) { ascii = false; break; }
    if (ascii) for (let i = 0; i < id.length; i++) step(id.charCodeAt(i));
    else for (const byte of encoder.encode(id)) step(byte);
    step(0x1f);
  }
  const hex = (limb) => limb.toString(16).padStart(4, "0");
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}

/**
 * Applies a batch's structure to `order` (an array of id arrays, one per section)
 * with UIKit's rules: removals at old positions, inserts and move targets at new
 * positions, the other ids keep their order in the remaining slots. Returns the new
 * order; throws an Error saying what does not fit.
 */
export function applyOrder(batch, order) {
  const counts = batch.sections.map((s) => s.count);
  if (counts.length !== order.length) throw new Error(`section count changed from ${order.length} to ${counts.length}`);
  // Only the sections the batch touches are copied; the others keep their arrays.
  const touched = touchedSections(batch);
  const next = order.slice();
  const removals = new Map(), placements = new Map();
  for (const s of touched) {
    if (!order[s]) throw new Error(`section ${s} out of range`);
    next[s] = order[s].slice();
    removals.set(s, []);
    placements.set(s, []);
  }
  for (const [s, i] of batch.deletes) {
    if (i >= order[s].length) throw new Error(`delete ${s}-${i} out of range`);
    removals.get(s).push(i);
  }
  for (const [[fs, fi], [ts, ti]] of batch.moves) {
    if (fi >= order[fs].length) throw new Error(`move ${fs}-${fi} → ${ts}-${ti} out of range`);
    removals.get(fs).push(fi);
    placements.get(ts).push([ti, order[fs][fi]]);
  }
  if (batch.inserts.length !== batch.insertedIds.length) throw new Error("inserts without identifiers");
  batch.inserts.forEach(([s, i], k) => placements.get(s).push([i, batch.insertedIds[k]]));
  // Removals at old positions, from the back; then inserts and move targets at
  // new positions, from the front: each lands where the batch says.
  for (const [s, indices] of removals) {
    indices.sort((a, b) => b - a);
    for (let k = 0; k < indices.length; k++) {
      if (k > 0 && indices[k] === indices[k - 1]) throw new Error(`section ${s}: item ${indices[k]} removed twice`);
      next[s].splice(indices[k], 1);
    }
  }
  for (const [s, items] of placements) {
    items.sort((a, b) => a[0] - b[0]);
    for (const [i, id] of items) {
      if (i > next[s].length) throw new Error(`insert ${s}-${i} out of range`);
      next[s].splice(i, 0, id);
    }
  }
  for (let s = 0; s < next.length; s++) {
    if (next[s].length !== counts[s]) throw new Error(`section ${s}: ${next[s].length} items held, ${counts[s]} on the server`);
  }
  return next;
}

/** Sections the batch changed (section indices do not change: edits move items only). */
export function touchedSections(batch) {
  const touched = new Set();
  for (const [s] of batch.inserts) touched.add(s);
  for (const [s] of batch.deletes) touched.add(s);
  for (const [[fs], [ts]] of batch.moves) {
    touched.add(fs);
    touched.add(ts);
  }
  return touched;
}

/** Null when `order` matches `sections`' counts (all) and checksums (those in `check`), else why not. */
export function verifyOrder(order, sections, check) {
  if (order.length !== sections.length) return `${order.length} sections held, ${sections.length} on the server`;
  for (let s = 0; s < sections.length; s++) {
    if (order[s].length !== sections[s].count) return `section ${sections[s].id}: ${order[s].length} items held, ${sections[s].count} on the server`;
    if (check.has(s) && sections[s].checksum !== undefined && orderChecksum(order[s]) !== sections[s].checksum) {
      return `section ${sections[s].id}: the order held does not match the server's checksum`;
    }
  }
  return null;
}
