// The board editor page: the game module's editor (createEditor) kept in step
// with the board text field; every change is validated by the server's solver
// (POST /api/validate) so messages are the CLI's own; "Check solvable" asks
// POST /api/check; "Play it" and "Copy link" open or share the position.
// A game's editor builds its tool bar and grid and turns clicks into board
// text; it validates nothing itself.

import { loadGame } from "./games.js";
import { gettext, movesText, translateReply } from "./i18n.js";

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

class EditorPage {
  constructor(config, module) {
    this.game = config.game;
    this.editor = module.createEditor(() => this.changed(), config.options || {});
    this.editor.fromText(config.board);
    document.querySelector(".how").textContent = this.editor.help || "";
    this.text = $("editor-board");
    this.asked = 0; // newest request number: older replies are ignored
    this.reply = null;
    this.text.addEventListener("input", () => { this.editor.fromText(this.text.value); this.draw(); this.validate(); });
    $("editor-check").addEventListener("click", () => this.check());
    $("editor-copy").addEventListener("click", () => this.copy());
    this.changed();
  }

  /** The editor changed the position: redraw, rewrite the text, validate. */
  changed() {
    this.text.value = this.editor.toText();
    this.draw();
    this.validate();
  }

  draw() {
    this.editor.tools($("editor-tools"));
    this.editor.render($("editor-grid"));
  }

  body() { return JSON.stringify({ game: this.game, board: this.text.value, options: this.editor.options() }); }

  async ask(path) {
    const number = ++this.asked;
    const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: this.body() });
    const reply = await response.json();
    return number === this.asked ? reply : null;
  }

  async validate() {
    $("editor-verdict").textContent = "";
    try {
      const reply = await this.ask("/api/validate");
      if (reply) this.show(reply);
    } catch (error) {
      $("editor-message").textContent = gettext("could not reach the server (%(error)s)", { error: error.message || error });
    }
  }

  async check() {
    $("editor-verdict").textContent = gettext("checking…");
    const reply = await this.ask("/api/check");
    if (!reply) return;
    this.show(reply);
    const verdict = $("editor-verdict");
    if (!reply.ok) verdict.textContent = "";
    else if (reply.solvable === true) {
      verdict.textContent = reply.distance === 0 ? gettext("already solved")
        : reply.optimal ? gettext("solvable: %(moves)s", { moves: movesText(reply.distance) })
          : gettext("solvable: at most %(moves)s", { moves: movesText(reply.distance) });
    } else if (reply.solvable === false) verdict.textContent = gettext("unsolvable");
    else verdict.textContent = translateReply(reply) || gettext("too hard to decide quickly");
    verdict.dataset.kind = reply.solvable === true ? "good" : reply.solvable === false ? "bad" : "";
  }

  show(reply) {
    this.reply = reply;
    const message = $("editor-message");
    message.textContent = reply.ok ? (reply.solved ? gettext("valid (already solved)") : gettext("valid position")) : translateReply(reply);
    message.dataset.kind = reply.ok ? "good" : "bad";
    const play = $("editor-play");
    play.setAttribute("aria-disabled", reply.ok ? "false" : "true");
    play.href = reply.ok ? reply.link : "#";
    $("editor-copy").disabled = !reply.ok;
  }

  async copy() {
    if (!this.reply || !this.reply.ok) return;
    const url = window.location.origin + this.reply.link;
    try { await navigator.clipboard.writeText(url); } catch { /* no clipboard: the link is on the button */ }
    $("editor-copy").dataset.copied = url;
    $("editor-copy").textContent = gettext("Copied!");
    setTimeout(() => { $("editor-copy").textContent = gettext("Copy link"); }, 1200);
  }
}

async function start() {
  const config = JSON.parse(document.getElementById("config").textContent);
  window.editorPage = new EditorPage(config, await loadGame(config.game));
}

start();
