// The board page: two live collections side by side; cards are dragged between
// them, onto folders, and in from outside (dragdrop.js).
import { LiveCollection, announcer } from "/collection-view/v1/collection.js";
import { DragController } from "/collection-view/v1/dragdrop.js";
import { showStatus, drawViewers } from "./chrome.js";

const announce = announcer(document.getElementById("announcer"));
const params = new URLSearchParams(location.search);
const drags = new DragController(announce);
const statuses = new Map();

const columns = [...document.querySelectorAll(".scroller[data-collection]")].map((scroller) => {
  const name = scroller.dataset.collection;
  const live = new LiveCollection({
    scroller,
    content: scroller.querySelector(".content"),
    announce,
    collection: name,
    name: params.get("name") ?? undefined,
    dropSessions: true,
    onChange: (kind) => {
      if (kind === "reload" || kind === "presence") drawViewers(document.getElementById("viewers"), live.state);
    },
    onStatus: (status) => {
      // Connected when every column is.
      statuses.set(name, status);
      const all = [...statuses.values()];
      const overall = all.every((s) => s === "connected") ? "connected" : all.includes("reconnecting") ? "reconnecting" : "connecting";
      showStatus(overall, document.getElementById("status-text"), announce);
    },
  });
  drags.register(live);
  return live;
});

// For tests and the curious.
window.__board = { columns, drags };
