// The board page: two <collection-view> elements side by side; cards are dragged
// between them, onto folders, and in from outside (dragdrop.js).
import "/collection-view/v1/collection-view.js";
import { announcer } from "/collection-view/v1/collection.js";
import { DragController } from "/collection-view/v1/dragdrop.js";
import { showStatus, drawViewers } from "./chrome.js";

const announce = announcer(document.getElementById("announcer"));
const drags = new DragController(announce);
const statuses = new Map();

const views = [...document.querySelectorAll("collection-view")];
for (const view of views) {
  drags.register(view.live);
  view.addEventListener("change", (e) => {
    const kind = e.detail.kind;
    if (kind === "reload" || kind === "presence") drawViewers(document.getElementById("viewers"), view.state);
  });
  view.addEventListener("status", (e) => {
    // Connected when every column is.
    statuses.set(view.getAttribute("collection"), e.detail.status);
    const all = [...statuses.values()];
    const overall = all.every((s) => s === "connected") ? "connected" : all.includes("reconnecting") ? "reconnecting" : "connecting";
    // (The columns say the loss and the return themselves.)
    showStatus(overall, document.getElementById("status-text"), null);
  });
}

// For tests and the curious.
window.__board = { columns: views.map((v) => v.live), views, drags };
