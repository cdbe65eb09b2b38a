// The outbox: what is made offline waits (bounded) and goes out in order on the
// return; an edit lost on the way goes out again (the server answers a repeated op
// once), an action lost on the way does not (it is given up); answers settle.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Outbox } from "../../Public/collection-view/outbox.js";

const insert = (op) => ({ type: "insert", op, section: "s", count: 1 });
const action = (op) => ({ type: "action", op, name: "vote", item: "i", payload: {} });

test("changes made offline wait, go out in order on the return, and answers settle them", () => {
  const box = new Outbox(3);
  assert.equal(box.add(insert("e1"), false), "queued");
  assert.equal(box.add(action("a1"), false), "queued");
  assert.equal(box.waiting, 2);
  const { send, lost } = box.resume();
  assert.deepEqual(send.map((m) => m.op), ["e1", "a1"]);
  assert.deepEqual(lost, []);
  assert.equal(box.waiting, 0);
  assert.equal(box.size, 2);
  assert.equal(box.settle("a1").name, "vote");
  assert.equal(box.settle("a1"), null);
  assert.equal(box.settle(undefined), null);
  assert.equal(box.size, 1);
});

test("past the bound a change made offline is refused, and sent ones do not count", () => {
  const box = new Outbox(2);
  assert.equal(box.add(insert("sent"), true), "send");
  assert.equal(box.add(insert("e1"), false), "queued");
  assert.equal(box.add(insert("e2"), false), "queued");
  assert.equal(box.add(insert("e3"), false), "full");
  assert.equal(box.waiting, 2);
});

test("on a return, edits sent and unanswered go again; actions sent and unanswered are given up", () => {
  const box = new Outbox();
  box.add(insert("e1"), true);
  box.add(action("a1"), true);
  box.add(action("a2"), false);
  const { send, lost } = box.resume();
  assert.deepEqual(send.map((m) => m.op), ["e1", "a2"]);
  assert.deepEqual(lost.map((m) => m.op), ["a1"]);
  assert.equal(box.size, 2);
});

test("answers that never come do not grow it without bound", () => {
  const box = new Outbox(2);
  for (let i = 0; i < 100; i++) box.add(insert(`e${i}`), true);
  assert.ok(box.size <= 8, `${box.size}`);
  assert.throws(() => box.add({ type: "insert" }, true));
});
