// What an external drag carries, read from the browser's DataTransfer (or
// anything shaped like it): no DOM, tested in node.

/** What kinds of external data a browser drag carries (its types; values come with the drop). */
export function externalKinds(types) {
  const list = [...(types ?? [])];
  const kinds = [];
  if (list.includes("Files")) kinds.push("file");
  if (list.includes("text/uri-list")) kinds.push("url");
  else if (list.includes("text/plain")) kinds.push("text");
  return kinds;
}

/** The external items of a drop: files by name, else the first URL, else the text (at most 20). */
export function externalItems(dataTransfer) {
  const files = [...(dataTransfer.files ?? [])];
  if (files.length) return files.slice(0, 20).map((f) => ({ kind: "file", value: f.name.slice(0, 2000) }));
  const uris = (dataTransfer.getData("text/uri-list") || "").split(/\r?\n/).filter((l) => l && !l.startsWith("#"));
  if (uris.length) return [{ kind: "url", value: uris[0].slice(0, 2000) }];
  const text = dataTransfer.getData("text/plain");
  return text ? [{ kind: "text", value: text.slice(0, 2000) }] : [];
}
