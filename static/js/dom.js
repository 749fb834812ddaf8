// The one helper for the pages that build their lists in script: an element with its
// attributes and text.

/** A new `tag` element with `attrs` set and `text` as its text (none when empty). */
export function element(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}
