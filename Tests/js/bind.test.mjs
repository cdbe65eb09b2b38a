// Attributes bound to content fields: which may be, and how a data-bind value reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isBindable, parseBindings, classTokens } from "../../Public/collection-view/bind.js";

test("class, title, aria-* and data-* may be bound; code and URLs may not", () => {
  for (const a of ["class", "title", "aria-pressed", "aria-label", "data-owner", "data-vote-count"]) assert.equal(isBindable(a), true, a);
  for (const a of ["onclick", "onmouseover", "href", "src", "action", "formaction", "style", "xlink:href", "srcdoc",
                   "data-item", "data-action", "data-bind", "data-field", "id", "aria-", "data-"]) assert.equal(isBindable(a), false, a);
});

test("a data-bind value: pairs kept, refusals named", () => {
  assert.deepEqual(parseBindings("aria-pressed:voted  data-owner:owner CLASS:state onclick:title href:url nofield: :x"), {
    bindings: [{ attribute: "aria-pressed", field: "voted" }, { attribute: "data-owner", field: "owner" }, { attribute: "class", field: "state" }],
    refused: ["onclick", "href", "nofield:", ":x"],
  });
  assert.deepEqual(parseBindings(undefined), { bindings: [], refused: [] });
});

test("class tokens are plain names only", () => {
  assert.deepEqual(classTokens("done  urgent"), ["done", "urgent"]);
  assert.deepEqual(classTokens('x" onclick="y <b> ok'), ["ok"]);
  assert.deepEqual(classTokens(undefined), []);
});
