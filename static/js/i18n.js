// The page's words in the reader's language. The server renders the translations this
// page's scripts need (the same catalogue as the templates', extracted by pybabel from
// these files) into <script id="translations">; English needs none: the message is the
// English text. Placeholders are Python's, so the solver's messages translate the same way.

// (no document under Node's unit tests: English)
const block = typeof document === "undefined" ? null : document.getElementById("translations");
const catalogue = block ? JSON.parse(block.textContent || "{}") : {};

/** `text` %-formatted as Python would, with `params` ("Tube %(tube)s is full." with {tube: 2}; "%%": "%"). */
export function format(text, params = {}) {
  return text.replace(/%\((\w+)\)s|%%/g, (whole, name) => {
    if (whole === "%%") return "%";
    return name in params ? String(params[name]) : whole;
  });
}

/** The translation of `message` (its English text), formatted with `params`. */
export function gettext(message, params) {
  return format(catalogue[message] || message, params);
}

/** `singular` or `plural` by `n` (Chinese has one form), formatted with n and `params`. */
export function ngettext(singular, plural, n, params = {}) {
  const english = n === 1 ? singular : plural;
  return format(catalogue[english] || catalogue[singular] || english, { n, ...params });
}

/** `message` unchanged, marked for extraction: a word kept as data, translated where shown. */
export function N_(message) { return message; }

/** "1 move", "12 moves": the count of moves in the reader's language. */
export function movesText(n) { return ngettext("%(n)s move", "%(n)s moves", n); }

/** "up", "down", "left" or "right" in the reader's language. */
export function directionText(dir) {
  const words = { up: gettext("up"), down: gettext("down"), left: gettext("left"), right: gettext("right") };
  return words[dir] || dir;
}

/** A message the server sent ({message or error, and a solver's template and params}) in
 * the reader's language; a message the catalogue does not know stays as sent. */
export function translateReply(reply) {
  const english = reply && (reply.template || reply.message || reply.error);
  if (!english) return english;
  return reply.params ? format(catalogue[english] || english, reply.params) : catalogue[english] || english;
}

/** The page's language tag ("en" or "zh-Hans"), from <html lang>. */
export const language = (typeof document !== "undefined" && document.documentElement.lang) || "en";
