// Context menus (UIKit's contextMenuConfigurationForItemsAt): a right-click, a
// long press or the menu key (Shift+F10) on a cell asks the server for the menu of
// that item, or of this viewer's selection when the item is in it; the server's
// delegate answers with the menu, shown at the pointer. Choosing an action asks the
// server to run it; Escape, Tab or a click elsewhere closes the menu. Arrow keys
// move through the entries, Right opens a submenu and Left closes it.
import * as protocol from "./protocol.js";
import { addStylesheet } from "./stylesheet.js";

export class ContextMenuController {
  /**
   * @param {{scroller: HTMLElement, state: import("./state.js").CollectionState, view: import("./view.js").CollectionView,
   *   send: (m: object) => void, contentPoint: (x: number, y: number) => {x: number, y: number}}} options
   */
  constructor({ scroller, state, view, send, contentPoint }) {
    Object.assign(this, { scroller, state, view, send, contentPoint });
    addStylesheet();
    /** The menu asked for: {items, x, y} (client coordinates), until the server answers. */
    this.pending = null;
    /** The open menu's root element, and the open submenus from the top down. */
    this.root = null;
    this.stack = [];
    scroller.addEventListener("contextmenu", (e) => this.ask(e));
    scroller.addEventListener("keydown", (e) => {
      if (e.key !== "ContextMenu" && !(e.shiftKey && e.key === "F10")) return;
      e.preventDefault();   // no second, browser-made contextmenu event
      this.askForFocused();
    });
    this.outside = (e) => {
      if (this.root && !e.target.closest?.(".cv-menu")) this.close(true);
    };
  }

  /** A context menu event on the collection (a right-click, a long press): asks the server for the menu. */
  ask(e) {
    e.preventDefault();
    const cell = e.target.closest?.("[data-item]");
    if (!cell && e.button !== 2 && this.view.focusedKey) return this.askForFocused();
    this.open(cell?.dataset.item, e.clientX, e.clientY);
  }

  /** The menu key or Shift+F10: the focused cell's menu, at its middle. */
  askForFocused() {
    const node = this.view.focusedKey ? this.view.live.get(this.view.focusedKey)?.node : null;
    if (!node) return;
    const r = node.getBoundingClientRect();
    this.open(node.dataset.item, r.left + r.width / 2, r.top + r.height / 2);
  }

  /** Asks for `item`'s menu (or, when it is selected, the selection's; none: the background's) at (x, y) in the window. */
  open(item, x, y) {
    const mine = this.state.mySelection();
    const items = item ? (mine.includes(item) ? mine : [item]) : [];
    if (this.root) this.close(true);
    this.pending = { items, x, y };
    const p = this.contentPoint(x, y);
    this.send(protocol.contextMenu(items, p.x, p.y));
  }

  /** The server's `contextMenu` answer. */
  message(m) {
    const p = this.pending;
    if (!p || p.items.join("\n") !== m.items.join("\n")) return;
    this.pending = null;
    if (!m.menu) return;
    this.root = this.build(m.menu, []);
    this.root.classList.add("cv-menu-root");
    this.place(this.root, p.x, p.y);
    this.returnFocus = document.activeElement;
    document.addEventListener("pointerdown", this.outside, true);
    this.focusFirst(this.root);
  }

  /** A menu element for `entry` (whose entries are at `path` + their index). */
  build(entry, path) {
    const menu = document.createElement("div");
    menu.className = "cv-menu";
    menu.setAttribute("role", "menu");
    menu.setAttribute("aria-label", entry.title || "Actions");
    menu.addEventListener("keydown", (e) => this.key(e, menu));
    if (entry.title && path.length === 0) {
      const title = document.createElement("div");
      title.className = "cv-menu-title";
      title.textContent = entry.title;
      menu.append(title);
    }
    const add = (children, base) => {
      for (const child of children) {
        const at = [...base, child.index];
        if (child.children && child.inline) {
          menu.append(this.separator());
          add(child.children, at);
          menu.append(this.separator());
          continue;
        }
        menu.append(this.item(child, at));
      }
    };
    add(entry.children ?? [], path);
    return menu;
  }

  separator() {
    const line = document.createElement("div");
    line.className = "cv-menu-separator";
    line.setAttribute("role", "separator");
    return line;
  }

  /** One entry: an action, or a submenu's opener. */
  item(entry, path) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cv-menu-item";
    button.tabIndex = -1;
    const attributes = entry.attributes ?? [];
    const checkable = entry.state != null;
    button.setAttribute("role", checkable ? "menuitemcheckbox" : "menuitem");
    if (checkable) button.setAttribute("aria-checked", entry.state === "on" ? "true" : "mixed");
    if (attributes.includes("disabled")) button.setAttribute("aria-disabled", "true");
    button.classList.toggle("cv-destructive", attributes.includes("destructive"));
    button.dataset.path = path.join(".");
    if (entry.image) {
      const image = document.createElement("span");
      image.className = "cv-menu-image";
      image.setAttribute("aria-hidden", "true");
      if (/^(https?:|\/)/.test(entry.image)) {
        const img = document.createElement("img");
        img.src = entry.image;
        img.alt = "";
        image.append(img);
      } else image.textContent = entry.image;
      button.append(image);
    }
    const title = document.createElement("span");
    title.className = "cv-menu-label";
    title.textContent = entry.title;
    button.append(title);
    if (entry.children) {
      button.setAttribute("aria-haspopup", "menu");
      button.setAttribute("aria-expanded", "false");
      button.classList.add("cv-submenu");
      button.addEventListener("click", () => this.openSubmenu(button, entry, path, true));
      button.addEventListener("pointerenter", () => this.openSubmenu(button, entry, path, false));
    } else {
      button.addEventListener("click", () => this.choose(button, entry, path));
      button.addEventListener("pointerenter", () => {
        this.closeSubmenusBelow(button.closest(".cv-menu"));
        button.focus();
      });
    }
    return button;
  }

  openSubmenu(button, entry, path, focus) {
    const parent = button.closest(".cv-menu");
    this.closeSubmenusBelow(parent);
    const menu = this.build(entry, path);
    menu.classList.add("cv-menu-sub");
    menu.opener = button;
    button.setAttribute("aria-expanded", "true");
    const r = button.getBoundingClientRect();
    this.place(menu, r.right - 4, r.top - 4);
    this.stack.push(menu);
    if (focus) this.focusFirst(menu);
    else button.focus();
  }

  closeSubmenusBelow(menu) {
    while (this.stack.length && this.stack[this.stack.length - 1] !== menu) {
      const sub = this.stack.pop();
      sub.opener?.setAttribute("aria-expanded", "false");
      sub.remove();
    }
  }

  choose(button, entry, path) {
    if (button.getAttribute("aria-disabled") === "true") return;
    this.send(protocol.contextMenuAction(path));
    if ((entry.attributes ?? []).includes("keepsMenuPresented")) return;
    this.close(false);
  }

  /** Closes the menu; `tell`: the server hears that nothing was chosen. */
  close(tell) {
    if (!this.root) return;
    this.closeSubmenusBelow(null);
    this.root.remove();
    this.root = null;
    document.removeEventListener("pointerdown", this.outside, true);
    if (tell) this.send(protocol.contextMenuEnd());
    (this.returnFocus?.isConnected ? this.returnFocus : this.scroller).focus({ preventScroll: true });
  }

  key(e, menu) {
    const items = [...menu.children].filter((n) => n.classList.contains("cv-menu-item"));
    const at = items.indexOf(document.activeElement);
    const move = (to) => items[(to + items.length) % items.length]?.focus();
    switch (e.key) {
      case "ArrowDown": move(at + 1); break;
      case "ArrowUp": move(at < 0 ? items.length - 1 : at - 1); break;
      case "Home": move(0); break;
      case "End": move(items.length - 1); break;
      case "ArrowRight":
        if (document.activeElement?.classList.contains("cv-submenu")) document.activeElement.click();
        break;
      case "ArrowLeft":
      case "Escape":
        if (menu !== this.root) {
          const opener = menu.opener;
          this.closeSubmenusBelow(opener.closest(".cv-menu"));
          opener.focus();
        } else if (e.key === "Escape") this.close(true);
        break;
      case "Tab": this.close(true); break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  focusFirst(menu) {
    [...menu.children].find((n) => n.classList.contains("cv-menu-item") && n.getAttribute("aria-disabled") !== "true")?.focus();
  }

  /** Puts a menu at (x, y) in the window, kept inside it. */
  place(menu, x, y) {
    menu.style.position = "fixed";
    menu.style.left = "0px";
    menu.style.top = "0px";
    document.body.append(menu);
    const r = menu.getBoundingClientRect();
    menu.style.left = `${Math.max(4, Math.min(x, innerWidth - r.width - 4))}px`;
    menu.style.top = `${Math.max(4, Math.min(y, innerHeight - r.height - 4))}px`;
  }
}
