// Sections that scroll on their own: where each behaviour comes to rest, the
// bands a state holds, and the scroll message that reports offsets.
import { test } from "node:test";
import assert from "node:assert/strict";
import { restingOffset } from "../../Public/collection-view/bands.js";
import { CollectionState } from "../../Public/collection-view/state.js";
import * as protocol from "../../Public/collection-view/protocol.js";

// Groups 330 apart in a 400-wide scroller; 5,000 of content.
const band = (behavior) => ({ section: "s", frame: [0, 0, 400, 100], axis: "x", length: 5000, behavior, pitch: 330, offset: 0 });

test("continuous rests where it stops; leading boundary at the nearest group", () => {
  assert.equal(restingOffset(band("continuous"), 1234, 0, 400), 1234);
  assert.equal(restingOffset(band("continuousGroupLeadingBoundary"), 1234, 0, 400), 1320);   // 4 × 330
  assert.equal(restingOffset(band("continuousGroupLeadingBoundary"), 1100, 0, 400), 990);
  assert.equal(restingOffset(band("continuous"), 9999, 0, 400), 4600);   // never past the end
});

test("group paging moves one group per swipe, either way, and a jump rests at the nearest", () => {
  for (const behavior of ["groupPaging", "groupPagingCentered"]) {
    assert.equal(restingOffset(band(behavior), 60, 0, 400), 330);
    assert.equal(restingOffset(band(behavior), 600, 660, 400), 330);
    assert.equal(restingOffset(band(behavior), 20, 0, 400), 0);   // too small a nudge
    assert.equal(restingOffset(band(behavior), 3000, 0, 400), 2970);   // a jump: the nearest group (9 × 330)
  }
});

test("paging moves a page (the scroller's width) at a time", () => {
  assert.equal(restingOffset(band("paging"), 150, 0, 400), 400);
  assert.equal(restingOffset(band("paging"), 700, 800, 400), 400);
  assert.equal(restingOffset(band("paging"), 4700, 4400, 400), 4600);   // the last page ends at the content's end
});

test("a state keeps the bands of its last window, batch or welcome", () => {
  const s = new CollectionState();
  s.apply({ type: "welcome", viewer: { id: "v1" }, epoch: "e", seq: 0, contentSize: { width: 400, height: 900 }, bands: [band("paging")],
    sections: [{ id: "s", title: "S", count: 0, checksum: "" }], elements: [], selections: [], viewers: [], focuses: [] });
  assert.equal(s.bands[0].behavior, "paging");
  s.apply({ type: "window", contentSize: { width: 400, height: 900 }, add: [], remove: [], replace: false, animated: false });
  assert.deepEqual(s.bands, []);   // absent: none
});

test("scroll messages carry section offsets only when there are some", () => {
  assert.deepEqual(protocol.scroll({ x: 0, y: 5 }), { type: "scroll", offset: { x: 0, y: 5 } });
  assert.deepEqual(protocol.scroll({ x: 0, y: 5 }, undefined, { s: 330 }), { type: "scroll", offset: { x: 0, y: 5 }, sectionOffsets: { s: 330 } });
});
