// The storefront's page: one <collection-view> over the "store" collection. Its
// carousels are sections that scroll on their own (the server's bands): the
// component draws each in a scroller of its own and reports its offset.
import "/collection-view/v1/collection-view.js";
import { followStatus, drawViewers } from "./chrome.js";

const view = document.getElementById("store");
view.addEventListener("change", () => drawViewers(document.getElementById("viewers"), view.state));
followStatus(view);
window.__store = view;
