// External drags: kinds while hovering, items at the drop; editing and range selections in the state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { externalKinds, externalItems } from "../../Public/collection-view/dropdata.js";
import { CollectionState } from "../../Public/collection-view/state.js";
import * as protocol from "../../Public/collection-view/protocol.js";

/** A DataTransfer stand-in: `data` by type, and files. */
const transfer = (data, files = []) => ({ types: [...Object.keys(data), ...(files.length ? ["Files"] : [])], files, getData: (t) => data[t] ?? "" });

test("kinds while hovering: files, a link, or text", () => {
  assert.deepEqual(externalKinds(["Files"]), ["file"]);
  assert.deepEqual(externalKinds(["text/uri-list", "text/plain"]), ["url"]);
  assert.deepEqual(externalKinds(["text/plain"]), ["text"]);
  assert.deepEqual(externalKinds(["text/html"]), []);
  assert.deepEqual(externalKinds(undefined), []);
});

test("items at the drop: file names, the first link, else the text", () => {
  const files = Array.from({ length: 25 }, (_, i) => ({ name: `photo-${i}.jpg` }));
  const dropped = externalItems(transfer({}, files));
  assert.equal(dropped.length, 20);
  assert.deepEqual(dropped[0], { kind: "file", value: "photo-0.jpg" });
  assert.deepEqual(externalItems(transfer({ "text/uri-list": "# comment\r\nhttps://a.example/x\nhttps://b.example/", "text/plain": "ignored" })),
    [{ kind: "url", value: "https://a.example/x" }]);
  assert.deepEqual(externalItems(transfer({ "text/plain": "x".repeat(3000) })), [{ kind: "text", value: "x".repeat(2000) }]);
  assert.deepEqual(externalItems(transfer({ "text/html": "<b>no</b>" })), []);
});

test("drop messages carry a source or external items, never both", () => {
  assert.deepEqual(protocol.dropUpdate(1, 2, { collection: "a", item: "p1" }), { type: "dropUpdate", x: 1, y: 2, source: { collection: "a", item: "p1" } });
  assert.deepEqual(protocol.dropUpdate(1, 2, null, ["text"]), { type: "dropUpdate", x: 1, y: 2, items: [{ kind: "text" }] });
  assert.deepEqual(protocol.drop("o", 1, 2, null, [{ kind: "url", value: "u" }]), { type: "drop", op: "o", x: 1, y: 2, items: [{ kind: "url", value: "u" }] });
  assert.equal(protocol.hello({ width: 1, height: 1 }, { x: 0, y: 0 }, undefined, undefined, undefined, "board").collection, "board");
});

test("a range selection and editing mode", () => {
  const s = new CollectionState();
  s.apply({ type: "welcome", protocol: 1, viewer: { id: "v1", name: "V1", color: "#f00" }, seq: 0, contentSize: { width: 1, height: 1 },
    sections: [], elements: [], selections: [], viewers: [{ id: "v1", name: "V1", color: "#f00" }], collection: "backlog" });
  assert.equal(s.collection, "backlog");
  assert.equal(s.apply({ type: "selections", viewer: "v1", items: ["a", "b", "c"], selected: true }).kind, "selection");
  s.apply({ type: "selections", viewer: "v1", items: ["b"], selected: false });
  assert.deepEqual(s.mySelection().sort(), ["a", "c"]);
  assert.equal(s.apply({ type: "editing", on: true }).kind, "editing");
  assert.equal(s.editing, true);
  // A fresh copy (welcome) keeps editing mode: it is this viewer's, not the collection's.
  s.apply({ type: "welcome", protocol: 1, viewer: { id: "v1", name: "V1", color: "#f00" }, seq: 0, contentSize: { width: 1, height: 1 },
    sections: [], elements: [], selections: [], viewers: [] });
  assert.equal(s.editing, true);
});
