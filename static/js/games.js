// The one registry of game modules. A game is the module static/js/games/<name>.js
// (its name as the server's catalogue declares it), exporting createGame(options)
// and createEditor(changed, options), plus optional hooks: `extra` (an action a
// declared feature such as "extra-tube" offers) and setupNewGameForm(form, config).
// Pages load games only through here, so adding a game adds one module, no import.

const loaded = new Map();

/** The module of game `name` (loaded once per page). */
export function loadGame(name) {
  if (!/^[a-z0-9_-]+$/.test(String(name))) return Promise.reject(new Error(`no game called "${name}"`));
  if (!loaded.has(name)) loaded.set(name, import(`./games/${name}.js`));
  return loaded.get(name);
}
