// The ticket board's page: one <collection-view>. Only a ticket's owner may move
// it (the server's rule), so open it as ?name=Ana, ?name=Ben or ?name=Chloé; the →
// button of a ticket is an app action the server handles.
import "/collection-view/v1/collection-view.js";
import { followStatus, drawViewers } from "./chrome.js";

const view = document.getElementById("tickets");
view.addEventListener("change", () => {
  document.getElementById("seq").textContent = `seq ${view.state.seq}`;
  drawViewers(document.getElementById("viewers"), view.state);
});
followStatus(view);
window.__tickets = view;
