// The list row's pieces: images the server names (URLs become <img>, system symbols
// the page's glyphs, other names their text), and accessories by editing mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { imageText, isImageURL } from "../../Public/collection-view/images.js";

test("URLs and paths are drawn as images; names and symbols are not", () => {
  for (const url of ["https://example.com/a.jpg", "http://x/y.png", "/images/haute-route.jpg", "data:image/png;base64,AAAA"]) {
    assert.equal(isImageURL(url), true, url);
  }
  for (const name of ["🥾", "system:star", "photo1", "javascript:alert(1)", "data:text/html,<b>"]) {
    assert.equal(isImageURL(name), false, name);
  }
});

test("system symbols become the page's glyphs, unknown ones nothing; other names their text", () => {
  assert.equal(imageText("system:star.fill"), "★");
  assert.equal(imageText("system:mountain.2"), "⛰");
  assert.equal(imageText("system:no.such.symbol"), "");
  assert.equal(imageText("🥾"), "🥾");
});

test("accessories shown only in one editing mode are shown in that mode", async () => {
  const { shownAccessories } = await import("../../Public/collection-view/listcell.js");
  const field = "disclosureIndicator@notEditing checkmark delete@editing reorder@editing";
  assert.deepEqual(shownAccessories(field, false), ["disclosureIndicator", "checkmark"]);
  assert.deepEqual(shownAccessories(field, true), ["checkmark", "delete", "reorder"]);
  assert.deepEqual(shownAccessories(undefined, true), []);
});

test("an accessory with the server's action handler is marked, in any editing mode", async () => {
  const { accessoryEntries } = await import("../../Public/collection-view/listcell.js");
  const field = "insert!@editing outlineDisclosure:collapsed! checkmark";
  assert.deepEqual(accessoryEntries(field, true), [
    { name: "insert", action: true }, { name: "outlineDisclosure:collapsed", action: true }, { name: "checkmark", action: false }]);
  assert.deepEqual(accessoryEntries(field, false).map((e) => e.name), ["outlineDisclosure:collapsed", "checkmark"]);
});
