// The ticket board's page: one live collection; only a ticket's owner may move it
// (the server's rule), so open it as ?name=Ana, ?name=Ben or ?name=Chloé.
import { LiveCollection, announcer } from "/collection-view/v1/collection.js";
import { showStatus, drawViewers } from "./chrome.js";

const announce = announcer(document.getElementById("announcer"));
const params = new URLSearchParams(location.search);
const live = new LiveCollection({
  scroller: document.getElementById("scroller"),
  content: document.getElementById("content"),
  announce,
  collection: "tickets",
  name: params.get("name") ?? undefined,
  onChange: () => {
    document.getElementById("seq").textContent = `seq ${live.state.seq}`;
    drawViewers(document.getElementById("viewers"), live.state);
  },
  onStatus: (status) => showStatus(status, document.getElementById("status-text"), announce),
});
window.__tickets = live;
