// Attributes bound to content fields (`data-bind="aria-pressed:voted data-owner:owner
// class:state"`): the parsing and the rule of which attributes may be bound are pure;
// `applyBindings` writes them. Only attributes that carry no code and load nothing
// may be bound: `class`, `title`, `aria-*` and `data-*` (but the client's own). An
// event handler (`on…`), a URL (`href`, `src`, `action`…) or `style` never is: a
// content field is data, and a page must not become a script by way of one.

/** `data-*` attributes the client itself reads: not bindable. */
const OWN = new Set(["data-item", "data-key", "data-action", "data-field", "data-fill", "data-bind", "data-measure", "data-kind"]);

/** Whether `attribute` may be bound to a content field. */
export function isBindable(attribute) {
  if (attribute === "class" || attribute === "title") return true;
  if (/^aria-[a-z]+$/.test(attribute)) return true;
  return /^data-[a-z0-9]+(-[a-z0-9]+)*$/.test(attribute) && !OWN.has(attribute);
}

/**
 * Parses a `data-bind` value: `attribute:field` pairs, separated by spaces. Returns
 * the bindable pairs and the attributes refused (to warn of).
 */
export function parseBindings(spec) {
  const bindings = [];
  const refused = [];
  for (const pair of String(spec ?? "").split(/\s+/).filter(Boolean)) {
    const colon = pair.indexOf(":");
    const attribute = (colon > 0 ? pair.slice(0, colon) : "").toLowerCase();
    const field = colon > 0 ? pair.slice(colon + 1) : "";
    if (!attribute || !field) { refused.push(pair); continue; }
    if (isBindable(attribute)) bindings.push({ attribute, field });
    else refused.push(attribute);
  }
  return { bindings, refused };
}

/** The class names a field's value gives: plain tokens only. */
export function classTokens(value) {
  return String(value ?? "").split(/\s+/).filter((t) => /^[A-Za-z0-9_-]{1,64}$/.test(t));
}

const warned = new Set();

/** Sets `el`'s bound attributes from `content` (its `data-bind`, parsed once). */
export function applyBindings(el, content) {
  if (!el._bindings) {
    el._bindings = parseBindings(el.dataset.bind);
    for (const attribute of el._bindings.refused) {
      if (warned.has(attribute)) continue;
      warned.add(attribute);
      console.warn(`data-bind: "${attribute}" may not be bound to a content field (only class, title, aria-* and data-*); left alone`);
    }
  }
  for (const { attribute, field } of el._bindings.bindings) {
    const value = content[field];
    if (attribute === "class") {
      // The template's own classes stay: the field's tokens are added, the last ones taken off.
      const tokens = classTokens(value);
      for (const old of el._boundClasses ?? []) if (!tokens.includes(old)) el.classList.remove(old);
      for (const token of tokens) el.classList.add(token);
      el._boundClasses = tokens;
    } else if (value === undefined || value === null) {
      el.removeAttribute(attribute);
    } else if (el.getAttribute(attribute) !== String(value)) {
      el.setAttribute(attribute, String(value));
    }
  }
}
