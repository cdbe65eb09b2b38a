// The settings page: a sidebar <collection-view> over the "settings" collection
// (UIKit's sidebar list with outlines), and a pane that names the row this viewer
// chose. The server decides what choosing does: a checkmark moves, a switch flips.
import "/collection-view/v1/collection-view.js";
import { announcer } from "/collection-view/v1/collection.js";
import { showStatus, drawViewers } from "./chrome.js";

const view = document.getElementById("settings");
const say = announcer(view.querySelector(".cv-announcer"));
const title = document.getElementById("detail-title");
const text = document.getElementById("detail-text");

function showChosen() {
  const state = view.state;
  const [item] = state?.mySelection() ?? [];
  const element = item && state.elements.get("i:" + item);
  if (!element) return;
  const checked = (element.content.accessories ?? "").split(" ").includes("checkmark");
  title.textContent = element.content.text ?? item;
  text.textContent = element.content.secondaryText
    ?? (element.content.accessories?.includes("outlineDisclosure") ? "Open it to see what it holds." : checked ? "On." : "Off.");
}

view.addEventListener("change", () => {
  drawViewers(document.getElementById("viewers"), view.state);
  showChosen();
});
view.addEventListener("status", (e) => showStatus(e.detail.status, document.getElementById("status-text"), say));
window.__settings = view;
