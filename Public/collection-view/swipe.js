// Swipe actions of list rows (UIKit's swipe actions configurations): dragging a
// list row sideways (or pressing Delete on a focused row, for the trailing edge)
// asks the server which actions it reveals; they show as buttons at that edge, and
// choosing one asks the server to perform it. A full swipe performs the first
// action when the configuration says so. Escape, a tap elsewhere or another swipe
// closes them.
import * as protocol from "./protocol.js";
import { drawImage } from "./images.js";

const CLAIM = 12;          // px sideways before a drag is a swipe
const OPEN = 70;           // px sideways a swipe must reach to stay open
const FULL = 0.6;          // of the row's width: a full swipe

export class SwipeController {
  /** @param {{content: HTMLElement, send: (m: object) => void, announce: (t: string) => void}} options */
  constructor({ content, send, announce }) {
    Object.assign(this, { content, send, announce });
    /** The row being swiped or open: {item, node, edge, dx, actions, fullSwipe, buttons, pointerId, x, y}. */
    this.open = null;
    content.addEventListener("click", (e) => {
      // The click that ends a swipe's drag is not a tap elsewhere.
      if (this.endedSwipe) {
        this.endedSwipe = false;
        e.stopPropagation();
        return;
      }
      const button = e.target.closest(".cv-swipe-action");
      if (button && this.open) {
        e.preventDefault();
        e.stopPropagation();
        this.perform(Number(button.dataset.index));
      } else if (this.open && !e.target.closest(".cv-swipe-actions")) this.close();
    }, true);
    window.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.open) this.close();
    });
  }

  /** Whether a press on a list row that moved (dx, dy) is a swipe: it then follows the pointer. */
  claims(press, event) {
    const dx = event.clientX - press.x, dy = event.clientY - press.y;
    if (!press.node.classList.contains("cv-list-cell") || Math.abs(dx) < CLAIM || Math.abs(dx) < Math.abs(dy) * 1.5) return false;
    const edge = dx < 0 ? "trailing" : "leading";
    if (this.open && (this.open.item !== press.item || this.open.edge !== edge)) this.close();
    if (!this.open) this.start(press.item, press.node, edge);
    this.open.pointerId = event.pointerId;
    this.open.x = press.x;
    return true;
  }

  start(item, node, edge) {
    this.open = { item, node, edge, dx: 0, actions: null, fullSwipe: false, buttons: null };
    this.send(protocol.swipeActions(item, edge));
  }

  /** The pointer moved while swiping. */
  follow(event) {
    const o = this.open;
    if (!o || event.pointerId !== o.pointerId) return false;
    const dx = event.clientX - o.x;
    o.dx = o.edge === "trailing" ? Math.min(0, dx) : Math.max(0, dx);
    o.node.style.setProperty("--cv-swipe", `${o.dx}px`);
    o.node.classList.add("cv-swiping");
    return true;
  }

  /** The browser took the pointer mid-swipe: the row goes back. */
  cancel() {
    if (this.open && !this.open.keyboard) this.close();
  }

  /** The pointer was let go: stay open, perform a full swipe's first action, or close. */
  release(event) {
    const o = this.open;
    if (!o || event.pointerId !== o.pointerId) return false;
    o.pointerId = null;
    this.endedSwipe = true;
    setTimeout(() => { this.endedSwipe = false; }, 0);   // a click, if any, comes before this
    const width = o.node.getBoundingClientRect().width;
    // The server has not said yet which actions there are: they show when it does.
    if (o.actions === null && Math.abs(o.dx) >= OPEN) return true;
    if (Math.abs(o.dx) >= width * FULL && o.fullSwipe && o.actions?.length) this.perform(0);
    else if (Math.abs(o.dx) >= OPEN && o.actions?.length) this.show();
    else this.close();
    return true;
  }

  /** Opens the trailing actions of `item` from the keyboard (or its delete accessory). */
  openFromKeyboard(item, node) {
    if (!node?.classList.contains("cv-list-cell")) return false;
    this.close();
    this.start(item, node, "trailing");
    this.open.keyboard = true;
    return true;
  }

  /** The server's answer: which actions the swipe reveals. */
  message(m) {
    const o = this.open;
    if (m.type !== "swipeActions" || !o || m.item !== o.item || m.edge !== o.edge) return;
    o.actions = m.actions;
    o.fullSwipe = m.fullSwipe;
    if (!m.actions.length) return this.close();
    if (o.keyboard || (o.pointerId == null && Math.abs(o.dx) >= OPEN)) this.show();
  }

  /** Shows the action buttons at the swiped edge, the row moved aside to make room. */
  show() {
    const o = this.open;
    if (!o?.actions) return;
    if (!o.buttons) {
      const box = document.createElement("div");
      box.className = "cv-swipe-actions";
      box.dataset.edge = o.edge;
      o.actions.forEach((a, i) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cv-swipe-action";
        button.dataset.index = String(i);
        button.dataset.style = a.style;
        if (a.color) button.style.background = a.color;
        if (a.image) {
          // The action's image, above its title (or alone, the title then its name).
          const image = document.createElement("span");
          image.className = "cv-swipe-image";
          image.setAttribute("aria-hidden", "true");
          drawImage(image, a.image);
          button.append(image);
        }
        if (a.title) button.append(document.createTextNode(a.title));
        else if (a.image) button.setAttribute("aria-label", a.image.replace(/^system:/, "").replace(/[./]/g, " ").trim());
        box.append(button);
      });
      o.node.append(box);
      o.buttons = box;
    }
    const width = Math.max(80 * o.actions.length, o.buttons.getBoundingClientRect().width);
    o.dx = o.edge === "trailing" ? -width : width;
    o.node.style.setProperty("--cv-swipe", `${o.dx}px`);
    o.node.classList.add("cv-swiping", "cv-swipe-open");
    if (o.keyboard) o.buttons.querySelector("button")?.focus();
    this.announce(`${o.actions.length} action${o.actions.length === 1 ? "" : "s"}: ${o.actions.map((a) => a.title).join(", ")}.`);
  }

  perform(index) {
    const o = this.open;
    if (!o) return;
    this.send(protocol.swipeAction(o.item, o.edge, index));
    this.close();
  }

  close() {
    const o = this.open;
    if (!o) return;
    this.open = null;
    o.buttons?.remove();
    o.node.classList.remove("cv-swiping", "cv-swipe-open");
    o.node.style.removeProperty("--cv-swipe");
  }
}
