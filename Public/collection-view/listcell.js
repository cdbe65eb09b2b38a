// The library's list row: how a cell of reuse "list-cell" (CollectionViewListCell
// on the server) is drawn when the page has no template of that id. Its fields:
// text, secondaryText, image (images.js: a URL, a system symbol, or a short text
// such as an emoji), listStyle ("value": the secondary text on the text's line, at
// the trailing edge), accessories (names, space-separated; "insert!" has the
// server's action handler, "delete@editing" shows only in editing mode,
// "name@notEditing" only out of it), indentationLevel; and where the layout puts
// it: listAppearance, listPosition (first, middle, last, only), listSeparator, listHeader, and the
// separators' configuration where set: listSeparatorTop, listSeparatorColor,
// listSeparatorInsets and listSeparatorTopInsets ("leading trailing", in points).
// Content is text only: nothing here is read as HTML.

import { drawImage } from "./images.js";

const ACCESSORIES = {
  disclosureIndicator: "›",
  checkmark: "✓",
  delete: "−",
  insert: "+",
  reorder: "≡",
  "outlineDisclosure:collapsed": "▸",
  "outlineDisclosure:expanded": "▾",
};
/** Accessories at the leading edge (UIKit puts these before the content). */
const LEADING = new Set(["delete", "insert", "outlineDisclosure:collapsed", "outlineDisclosure:expanded"]);

/** A fresh list row node. */
export function makeListCell() {
  const node = document.createElement("div");
  node.className = "cv-list-cell";
  node.setAttribute("role", "option");
  node.dataset.minHeight = "44";   // UIKit's shortest row, when it sizes itself
  const part = (cls, field) => {
    const span = document.createElement("span");
    span.className = cls;
    if (field) span.dataset.field = field;
    return span;
  };
  const text = part("cv-list-text");
  text.dataset.measure = "";
  text.append(part("cv-list-primary", "text"), part("cv-list-secondary", "secondaryText"));
  node.append(part("cv-list-leading"), part("cv-list-image"), text, part("cv-list-trailing"));
  return node;
}

/**
 * The accessories of a field shown in editing mode or out of it, each `{name, action}`:
 * an entry is a name, then "!" when the server runs an action handler for it, then
 * "@editing" (shown only while editing) or "@notEditing" (only out of it).
 */
export function accessoryEntries(field, editing) {
  return (field ?? "").split(/\s+/).filter(Boolean).flatMap((entry) => {
    const [named, when] = entry.split("@");
    if (when === "editing" && !editing) return [];
    if (when === "notEditing" && editing) return [];
    const action = named.endsWith("!");
    return [{ name: action ? named.slice(0, -1) : named, action }];
  });
}

/** The names of the accessories shown in editing mode or out of it (see accessoryEntries). */
export function shownAccessories(field, editing) {
  return accessoryEntries(field, editing).map((e) => e.name);
}

/** What a person hears for an accessory that runs the server's action handler. */
const ACTION_LABELS = {
  disclosureIndicator: "Show", checkmark: "Check", delete: "Delete", insert: "Add", reorder: "Reorder", custom: "More",
};

/** Writes the row's place in its list and its accessories (its text fields are filled as any template's). */
export function fillListCell(node, content, editing = false) {
  const set = (key, value) => {
    if ((node.dataset[key] ?? "") !== value) node.dataset[key] = value;
  };
  set("appearance", content.listAppearance ?? "");
  set("position", content.listPosition ?? "");
  set("separator", content.listSeparator ?? "");
  set("header", content.listHeader ?? "");
  set("separatorTop", content.listSeparatorTop ?? "");
  set("listStyle", content.listStyle ?? "");
  drawImage(node.querySelector(".cv-list-image"), content.image);
  node.style.setProperty("--cv-indent", String(Number(content.indentationLevel ?? 0) || 0));
  // The separators' configuration: colour, and insets as "leading trailing" points.
  const style = (name, value) => {
    if (value) node.style.setProperty(name, value);
    else node.style.removeProperty(name);
  };
  const insets = (field) => (content[field] ?? "").split(" ").filter(Boolean).map((n) => `${Number(n) || 0}px`);
  const [leading, trailing] = insets("listSeparatorInsets");
  const [topLeading, topTrailing] = insets("listSeparatorTopInsets");
  style("--cv-separator-color", content.listSeparatorColor);
  style("--cv-separator-leading", leading);
  style("--cv-separator-trailing", trailing);
  style("--cv-separator-top-leading", topLeading);
  style("--cv-separator-top-trailing", topTrailing);
  const entries = accessoryEntries(content.accessories, editing).filter((e) => e.name in ACCESSORIES);
  const key = entries.map((e) => e.name + (e.action ? "!" : "")).join(" ") + "\u0000" + (content.text ?? "");
  if (node._accessories === key) return;
  node._accessories = key;
  const make = ({ name, action }) => {
    // One with the server's action handler is a button (the accessory message).
    const span = document.createElement(action ? "button" : "span");
    span.className = "cv-accessory";
    span.dataset.accessory = name.split(":")[0];
    span.textContent = ACCESSORIES[name];
    span.setAttribute("aria-hidden", "true");
    if (action) {
      span.type = "button";
      span.dataset.accessoryAction = "";
      span.setAttribute("aria-hidden", "false");
      span.setAttribute("aria-label", ACTION_LABELS[span.dataset.accessory] ?? "");
    }
    if (name.startsWith("outlineDisclosure")) {
      // A control: choosing it expands or collapses the row's children (the outline
      // message), or, with an action handler, runs it.
      const expanded = name.endsWith(":expanded");
      span.dataset.expanded = String(expanded);
      if (!action) {
        span.dataset.outline = "";
        span.setAttribute("role", "button");
      }
      span.setAttribute("aria-hidden", "false");
      span.setAttribute("aria-expanded", String(expanded));
      span.setAttribute("aria-label", `${expanded ? "Collapse" : "Expand"} ${content.text ?? ""}`.trim());
    }
    return span;
  };
  node.querySelector(".cv-list-leading").replaceChildren(...entries.filter((e) => LEADING.has(e.name)).map(make));
  node.querySelector(".cv-list-trailing").replaceChildren(...entries.filter((e) => !LEADING.has(e.name)).map(make));
}
