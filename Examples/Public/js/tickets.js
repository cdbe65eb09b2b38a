// The ticket board's page: one <collection-view>. Only a ticket's owner may move
// it (the server's rule), so open it as ?name=Ana, ?name=Ben or ?name=Chloé; the →
// button of a ticket is an app action the server handles.
import "/collection-view/v1/collection-view.js";
import { announcer } from "/collection-view/v1/collection.js";
import { showStatus, drawViewers } from "./chrome.js";

const view = document.getElementById("tickets");
const say = announcer(view.querySelector(".cv-announcer"));
view.addEventListener("change", () => {
  document.getElementById("seq").textContent = `seq ${view.state.seq}`;
  drawViewers(document.getElementById("viewers"), view.state);
});
view.addEventListener("status", (e) => showStatus(e.detail.status, document.getElementById("status-text"), say));
window.__tickets = view;
