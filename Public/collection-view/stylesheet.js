// The library's stylesheet (collection-view.css: what the component, list rows,
// swipe actions and menus need), added to the page once, before the page's own.
const STYLESHEET = new URL("./collection-view.css", import.meta.url).href;

let loaded = null;

/** Adds the stylesheet (once); the promise settles when it has loaded (or failed to). */
export function addStylesheet() {
  if (loaded) return loaded;
  const existing = document.querySelector(`link[data-collection-view]`);
  const link = existing ?? document.createElement("link");
  loaded = new Promise((resolve) => {
    if (existing?.sheet) return resolve();
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
  });
  if (!existing) {
    link.rel = "stylesheet";
    link.href = STYLESHEET;
    link.dataset.collectionView = "";
    document.head.prepend(link);   // first, so that the page's own rules win where it may style
  }
  return loaded;
}
