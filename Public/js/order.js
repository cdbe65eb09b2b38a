// The whole identifier order, mirrored from what the server sent (welcome.order,
// then each batch), and checked against every batch's section counts and
// checksums. No DOM here.

const encoder = new TextEncoder();
const TWO32 = 4294967296;

/** 64-bit FNV-1a over each id's UTF-8 bytes followed by 0x1F, as 16 hex digits (PROTOCOL.md, Checksums). */
export function orderChecksum(ids) {
  // The 64-bit hash as two 32-bit halves; the prime 0x100000001b3 is 2^40 + 0x1b3.
  let hi = 0xcbf29ce4, lo = 0x84222325;
  const step = (byte) => {
    lo = (lo ^ byte) >>> 0;
    const low = lo * 0x1b3;
    const carry = Math.floor(low / TWO32);
    hi = (hi * 0x1b3 + carry + ((lo << 8) >>> 0)) % TWO32;
    lo = low % TWO32;
  };
  for (const id of ids) {
    let ascii = true;
    for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 0x7f) { ascii = false; break; }
    if (ascii) for (let i = 0; i < id.length; i++) step(id.charCodeAt(i));
    else for (const byte of encoder.encode(id)) step(byte);
    step(0x1f);
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
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
  const removed = new Set(batch.deletes.map(([s, i]) => `${s}:${i}`));
  const placed = counts.map((n) => new Array(n).fill(undefined));
  for (const [[fs, fi], [ts, ti]] of batch.moves) {
    if (!order[fs] || fi >= order[fs].length || !placed[ts] || ti >= placed[ts].length) throw new Error(`move ${fs}-${fi} → ${ts}-${ti} out of range`);
    removed.add(`${fs}:${fi}`);
    placed[ts][ti] = order[fs][fi];
  }
  if (batch.inserts.length !== batch.insertedIds.length) throw new Error("inserts without identifiers");
  batch.inserts.forEach(([s, i], k) => {
    if (!placed[s] || i >= placed[s].length) throw new Error(`insert ${s}-${i} out of range`);
    placed[s][i] = batch.insertedIds[k];
  });
  for (let s = 0; s < order.length; s++) {
    let slot = 0;
    const target = placed[s];
    for (let i = 0; i < order[s].length; i++) {
      if (removed.size && removed.has(`${s}:${i}`)) continue;
      while (slot < target.length && target[slot] !== undefined) slot++;
      if (slot >= target.length) throw new Error(`section ${s} overflows`);
      target[slot] = order[s][i];
    }
    if (target.includes(undefined)) throw new Error(`section ${s}: a slot was left empty`);
  }
  return placed;
}

/** Sections the batch changed (by index after the batch). */
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
