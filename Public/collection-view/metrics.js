// Main-thread time the client spends on messages and frames, for the browser
// benchmark (`make bench`). Off unless the page's address has `?metrics`; when on,
// each frame reads the layout after writing (forcing style and layout), so that
// the time recorded includes the browser's work for what was written.
export const metrics = {
  enabled: typeof location !== "undefined" && new URLSearchParams(location.search).has("metrics"),
  /** {type, ms}: parsing and applying one server message. */
  messages: [],
  /** {kinds, ms}: one frame's DOM writes, style and layout. */
  frames: [],
  /** ms: checking the checksums of changed sections, when idle. */
  checks: [],
};
