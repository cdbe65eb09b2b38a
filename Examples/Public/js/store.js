// The storefront's page: one <collection-view> over the "store" collection. Its
// carousels are sections that scroll on their own (the server's bands): the
// component draws each in a scroller of its own and reports its offset.
import "/collection-view/v1/collection-view.js";
import { announcer } from "/collection-view/v1/collection.js";
import { showStatus, drawViewers } from "./chrome.js";

const view = document.getElementById("store");
const say = announcer(view.querySelector(".cv-announcer"));
view.addEventListener("change", () => drawViewers(document.getElementById("viewers"), view.state));
view.addEventListener("status", (e) => showStatus(e.detail.status, document.getElementById("status-text"), say));
window.__store = view;
