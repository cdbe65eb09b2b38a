import { test } from "node:test";
import assert from "node:assert/strict";
import { placement, matrix } from "../../Public/collection-view/poses.js";

test("a frame of the box's own size is a plain translation", () => {
  assert.equal(placement([10, 20, 100, 50], 100, 50), "translate(10px, 20px)");
});

test("a frame of another size scales about the center, so its corners land on the frame", () => {
  // A 100 × 50 box shown at [8, -92, 200, 100]: its center goes to (108, -42).
  const css = placement([8, -92, 200, 100], 100, 50);
  assert.equal(css, "translate(58px, -67px) scale(2, 2)");
  // Top-left corner: center (58 + 50, -67 + 25) less half the scaled size (100, 50).
  assert.deepEqual([58 + 50 - 100, -67 + 25 - 50], [8, -92]);
});

test("a scroller's origin and the layout's transform are applied", () => {
  assert.equal(placement([204, 8, 188, 50], 188, 50, [200, 0], [0.2, 0, 0, 0.2, 0, 0]),
    "translate(4px, 8px) matrix(0.2, 0, 0, 0.2, 0, 0)");
  assert.equal(matrix(undefined), "");
});
