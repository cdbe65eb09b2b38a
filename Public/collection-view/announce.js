// Sentences for the polite live region: what another viewer changed, and where a
// keyboard move is. No DOM here.

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Describes a batch made by another viewer (null for our own). `state` is the
 * CollectionState after the batch; `title(id)` names an item when it is known.
 */
export function describeBatch(batch, state) {
  if (!batch.by || batch.by === state.me?.id) return null;
  // The app's own changes (a ticket it files, a clock it ticks) are the server's.
  const who = batch.by === "server" ? "the server" : state.viewerName(batch.by);
  const sectionTitle = (i) => state.sections[i]?.title ?? `section ${i + 1}`;
  const parts = [];
  if (batch.inserts.length) {
    const sections = [...new Set(batch.inserts.map(([s]) => s))].map(sectionTitle).join(", ");
    parts.push(`${plural(batch.inserts.length, "item")} added to ${sections}`);
  }
  if (batch.deletes.length) parts.push(`${plural(batch.deletes.length, "item")} deleted`);
  if (batch.moves.length === 1) {
    const [, [s, i]] = batch.moves[0];
    const moved = [...state.elements.values()].find((e) => e.kind === "cell" && e.section === s && e.item === i);
    const name = moved ? state.nameOf(moved) : "An item";
    parts.push(`${name} moved to position ${i + 1} in ${sectionTitle(s)}`);
  } else if (batch.moves.length > 1) {
    const sections = [...new Set(batch.moves.map(([, [s]]) => s))].map(sectionTitle).join(", ");
    parts.push(`${sections} reordered`);
  }
  if (batch.reloads.length) parts.push(`${plural(batch.reloads.length, "item")} updated`);
  if (!parts.length) return null;
  const text = parts.join("; ");
  return `${text[0].toUpperCase()}${text.slice(1)} by ${who}.`;
}

/** Where a keyboard-moved item is now: "Position 4 of 640 in Summer". */
export function describePosition(element, state) {
  if (!element) return "";
  const section = state.sections[element.section];
  return `Position ${element.item + 1} of ${section?.count ?? "?"} in ${section?.title ?? "this section"}.`;
}

/**
 * What a refusal or failure ({code, message}) says to a person: its reason after "Not
 * done" ("Failed" for a failure). A lost connection's reason says so itself ("Not
 * connected: …"), and is said as it is.
 */
export function describeRefusal({ code, message }) {
  if (code === "offline") return message;
  return `${code === "failed" ? "Failed" : "Not done"}: ${message}`;
}
