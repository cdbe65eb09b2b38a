// Images the server names (its Image values): a URL (https:, data:, or a path from
// /) is drawn as an <img>; "system:" and a symbol's name as the page's glyph for
// the common symbols (none for others); any other text as it is (an emoji, say).

const SYMBOLS = {
  star: "☆", "star.fill": "★", heart: "♡", "heart.fill": "♥", trash: "🗑", "trash.fill": "🗑",
  folder: "📁", "folder.fill": "📁", gear: "⚙", gearshape: "⚙", "gearshape.fill": "⚙", person: "👤",
  "person.fill": "👤", bell: "🔔", "bell.fill": "🔔", checkmark: "✓", plus: "+", minus: "−", xmark: "✕",
  "chevron.right": "›", "chevron.left": "‹", "chevron.down": "⌄", flag: "⚑", "flag.fill": "⚑",
  wifi: "📶", bookmark: "🔖", "bookmark.fill": "🔖", envelope: "✉", "envelope.fill": "✉", paperplane: "✈",
  house: "⌂", "house.fill": "⌂", magnifyingglass: "🔍", cart: "🛒", "cart.fill": "🛒", photo: "🖼",
  "mountain.2": "⛰", "mountain.2.fill": "⛰", "figure.hiking": "🥾", questionmark: "?", info: "ℹ",
  "info.circle": "ⓘ", pencil: "✎", "square.and.arrow.up": "⇪", lock: "🔒", "lock.fill": "🔒",
};

/** Whether `source` is drawn as an <img>. */
export function isImageURL(source) {
  return /^(https?:|data:image\/|\/)/.test(source);
}

/** The text drawn for a non-URL source ("" for an unknown system symbol). */
export function imageText(source) {
  if (source.startsWith("system:")) return SYMBOLS[source.slice(7)] ?? "";
  return source;
}

/** Fills `holder` with the image `source` names (empty when none); decorative. */
export function drawImage(holder, source) {
  const value = source ?? "";
  if (holder._image === value) return;
  holder._image = value;
  if (value && isImageURL(value)) {
    const img = document.createElement("img");
    img.src = value;
    img.alt = "";
    img.loading = "lazy";
    holder.replaceChildren(img);
  } else {
    holder.textContent = value ? imageText(value) : "";
  }
}
