// Every example page preloads its whole module graph (rel=modulepreload), so that
// the browser fetches every module at once instead of one import level at a time: a
// module added to a graph without its preload fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Where a URL path is on disk: /collection-view/v1/ is Public/collection-view, the rest Examples/Public. */
const onDisk = (url) => url.startsWith("/collection-view/v1/")
  ? path.join(root, "Public/collection-view", url.slice("/collection-view/v1/".length))
  : path.join(root, "Examples/Public", url);

function graph(entry) {
  const seen = new Set();
  const visit = (url) => {
    if (seen.has(url)) return;
    seen.add(url);
    const source = readFileSync(onDisk(url), "utf8");
    for (const [, spec] of [...source.matchAll(/^\s*(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm)].map((m) => [m[0], m[1] ?? m[2]])) {
      visit(new URL(spec, "http://x" + url).pathname);
    }
  };
  visit(entry);
  return seen;
}

const pages = readdirSync(path.join(root, "Examples/Public")).filter((f) => f.endsWith(".html"));
for (const page of pages) {
  const entry = "/" + readFileSync(path.join(root, "Examples/Public", page), "utf8").match(/<script type="module" src="([^"]+)"><\/script>/)[1];
  test(`${page} preloads every module its script imports`, () => {
    const html = readFileSync(path.join(root, "Examples/Public", page), "utf8");
    const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => new URL(m[1], "http://x/").pathname));
    const needed = graph(entry);
    const missing = [...needed].filter((u) => !preloaded.has(u));
    assert.deepEqual(missing, [], `not preloaded: ${missing.join(", ")}`);
    const extra = [...preloaded].filter((u) => !needed.has(u));
    assert.deepEqual(extra, [], `preloaded but never imported: ${extra.join(", ")}`);
  });
}
