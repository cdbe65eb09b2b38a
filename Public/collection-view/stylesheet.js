// The library's stylesheet (collection-view.css: what the component, list rows,
// swipe actions and menus need), added to the page once, before the page's own.
const STYLESHEET = new URL("./collection-view.css", import.meta.url).href;

export function addStylesheet() {
  if (document.querySelector(`link[data-collection-view]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLESHEET;
  link.dataset.collectionView = "";
  document.head.prepend(link);   // first, so that the page's own rules win where it may style
}
