// What assistive technology and the keyboard make of cells: their roles (an option
// of a listbox; a row of a grid when the template holds controls, which an option
// may not; a treeitem once a list row has an outline disclosure), their names and
// states, and a cell's controls, which are no Tab stops of their own.

import { shownAccessories } from "./listcell.js";

/** What a person can use inside a cell (as interaction.js's CONTROLS). */
const CELL_CONTROLS = "[data-action], [data-outline], [data-accessory-action], button, input, select, textarea, a[href], [contenteditable]";

/** A cell's controls (a template's, found once; a list row's accessories change). */
export function cellControls(node) {
  if (node._listCell) return [...node.querySelectorAll(CELL_CONTROLS)];
  node._controls ??= [...node.querySelectorAll(CELL_CONTROLS)];
  return node._controls;
}

export class CellAccess {
  constructor(content, state) {
    this.content = content;
    this.state = state;
    /** Whether the collection is an outline (a tree), since a row with a disclosure came. */
    this.isTree = false;
  }

  /** Gives the collection's listbox another role (grid, tree): its cells are rows or treeitems. */
  #becomes(role) {
    this.content.closest("[role=listbox]")?.setAttribute("role", role);
  }

  /**
   * A cell whose template holds controls is a row of a grid, its content one
   * gridcell: the collection becomes a grid, with the same selection and keyboard.
   * The gridcell takes no box of its own (display: contents), so the template's
   * layout is unchanged.
   */
  makeRow(node) {
    const cell = document.createElement("div");
    cell.setAttribute("role", "gridcell");
    cell.className = "cv-gridcell";
    cell.style.display = "contents";
    cell.append(...node.childNodes);
    node.append(cell);
    node.setAttribute("role", "row");
    this.#becomes("grid");
  }

  /**
   * A cell's role, name, place and states (`set` writes an attribute when it
   * changed); its controls named with it: "Vote, Fix the login", not a list of "Vote".
   */
  describe(node, e, set) {
    const section = this.state.sections[e.section];
    if (node._listCell) this.#describeListRow(node, e, set);
    // (A grid's row takes no place in a set: its name says it. A tree's row's set
    // is its siblings, written by #describeListRow.)
    const role = node.getAttribute("role");
    if (role !== "row" && role !== "treeitem") {
      set("aria-posinset", String(e.item + 1));
      set("aria-setsize", String(section?.count ?? -1));
    }
    const name = this.state.nameOf(e);
    set("aria-label", `${name}, ${e.item + 1} of ${section?.count ?? "?"} in ${section?.title ?? ""}`);
    // A cell is an option of the listbox unless its template says otherwise.
    if (!role) node.setAttribute("role", "option");
    for (const control of cellControls(node)) {
      // (An outline's disclosure names itself, Expand or Collapse, and takes no focus.)
      if (control.matches("[data-outline], [data-accessory=outlineDisclosure]")) continue;
      if (control.tabIndex !== -1) control.tabIndex = -1;
      // (A label the template binds to the content is the page's own.)
      if (/(^|\s)aria-label:/.test(control.dataset.bind ?? "")) continue;
      control._ownName ??= control.getAttribute("aria-label") || control.getAttribute("title") || control.textContent.trim();
      const label = control._ownName ? `${control._ownName}, ${name}` : name;
      if (control.getAttribute("aria-label") !== label) control.setAttribute("aria-label", label);
    }
  }

  /**
   * A list row's states: checked when it shows a checkmark; in an outline, a
   * treeitem with its level, whether it is expanded, and its place among its siblings.
   */
  #describeListRow(node, e, set) {
    const c = e.content ?? {};
    const accessories = shownAccessories(c.accessories, this.state.editing);
    if (accessories.includes("checkmark")) set("aria-checked", "true");
    else if (node.hasAttribute("aria-checked")) node.removeAttribute("aria-checked");
    const disclosure = accessories.find((a) => a.startsWith("outlineDisclosure"));
    if (disclosure && !this.isTree) {
      this.isTree = true;
      this.#becomes("tree");
    }
    if (!this.isTree) return;
    set("role", "treeitem");
    const level = Number(c.indentationLevel ?? 0) || 0;
    set("aria-level", String(level + 1));
    if (disclosure) set("aria-expanded", String(disclosure.endsWith(":expanded")));
    else if (node.hasAttribute("aria-expanded")) node.removeAttribute("aria-expanded");
    // Its siblings: the rows around it at its level, up to a row above it (its parent).
    const ids = this.state.order?.[e.section];
    if (!ids) return;
    const levelAt = (i) => Number(this.state.elements.get("i:" + ids[i])?.content?.indentationLevel ?? NaN);
    const count = (from, step) => {
      let n = 0;
      for (let i = from; i >= 0 && i < ids.length; i += step) {
        const l = levelAt(i);
        if (!(l >= level)) break;
        if (l === level) n++;
      }
      return n;
    };
    const before = count(e.item - 1, -1);
    set("aria-posinset", String(before + 1));
    set("aria-setsize", String(before + count(e.item + 1, 1) + 1));
  }
}

/**
 * Tab and a cell's controls: Tab from the focused cell (`cell`, its node) goes into
 * its controls, Tab and Shift+Tab go through them, Shift+Tab from the first (or
 * Escape) comes back to the `scroller`; Tab past the last leaves the collection as
 * Tab would. Returns whether it handled the key (and then prevented its default).
 */
export function cellControlKey(event, scroller, cell) {
  const inControl = event.target !== scroller;
  if (inControl) cell = event.target.closest("[data-item]");
  if (!cell || !scroller.contains(cell)) return false;
  const controls = cellControls(cell).filter((c) => !c.disabled && !c.hidden && c.offsetParent !== null);
  const go = (target) => {
    event.preventDefault();
    target.focus();
    return true;
  };
  if (!inControl) return !event.shiftKey && controls.length > 0 && go(controls[0]);
  const at = controls.indexOf(event.target.closest(CELL_CONTROLS));
  if (at < 0) return false;
  if (event.key === "Escape" || (event.shiftKey && at === 0)) return go(scroller);
  const next = at + (event.shiftKey ? -1 : 1);
  return next < controls.length && go(controls[next]);
}
