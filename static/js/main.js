// The play page: reads the config the server put in the page, builds the game's
// rules and view, and runs play. Rules live in the game modules so every move is
// instant; the server is asked only for evaluation (analyse) and solutions (solve).

import { History } from "./history.js";
import { Playback } from "./playback.js";
import { SolverLink } from "./socket.js";
import { createGame as klotski } from "./games/klotski.js";
import { createGame as npuzzle } from "./games/npuzzle.js";
import { createGame as watersort } from "./games/watersort.js";
import { levelKey, record } from "./progress.js";

const GAMES = { klotski, npuzzle, watersort };
const PLAYER_MOVE_MS = 140;

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function clock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

class Controller {
  constructor(config) {
    this.config = config;
    this.options = Object.fromEntries(
      Object.entries(config.options || {}).filter(([, v]) => v !== null && v !== undefined && v !== ""));
    this.game = GAMES[config.game](this.options);
    this.boardEl = $("board");
    this.view = this.game.createView(this.boardEl, this);
    this.history = new History();
    this.analyses = new Map(); // board text -> analysis (from the server or a solution)
    this.initialBoard = null;
    this.startUrl = window.location.pathname + window.location.search; // a seeded level's own link
    this.notice = config.error ? `That board could not be used (${config.error}); here is the default one.` : "";
    this.solving = false;
    this.hintWanted = false;
    this.elapsed = 0; // ms on the clock before the running stretch
    this.runningSince = null;
    this.playback = new Playback({
      step: (i) => this.playSolutionMove(i),
      back: () => this.undo({ keepPlayback: true }),
      position: () => this.playback.solution.states.indexOf(this.board),
      changed: () => this.refresh(),
    }, Number(config.speed) || 400);
    this.link = new SolverLink({
      onAnalysis: (reply, request) => this.gotAnalysis(reply, request),
      onProgress: (reply) => this.gotProgress(reply),
      onSolution: (reply, request) => this.gotSolution(reply, request),
      onUnsolvable: (reply, request) => this.gotUnsolvable(reply, request),
      onError: (reply) => this.gotError(reply),
      onConnection: (up) => this.connection(up),
    });
    this.bindControls();
    let state;
    try {
      state = this.game.parse(config.board);
    } catch (error) {
      this.notice = String(error.message || error);
      return;
    }
    this.initialBoard = this.game.format(state);
    this.setState(state, { duration: 0 });
    setInterval(() => this.tick(), 500);
  }

  // -- moves ----------------------------------------------------------------

  /** Entries in effect: [moves, extra tubes] (an extra tube is not a move). */
  counts() {
    const done = this.history.entries.slice(0, this.history.cursor);
    const extra = done.filter((e) => e.kind === "extra").length;
    return [done.length - extra, extra];
  }

  /** Water sort: add an empty tube to the current position (undo takes it away). */
  addExtraTube() {
    if (this.config.game !== "watersort" || !this.initialBoard || this.isSolved()) return;
    this.playback.pause();
    if (this.solving) this.cancelSolve();
    const next = this.game.parse(`${this.board},`);
    this.history.push({ before: this.board, after: this.game.format(next), move: "extra tube", kind: "extra" });
    this.notice = "An empty tube was added.";
    this.setState(next, { duration: 0 });
  }

  /** The start's known fewest moves: {moves, optimal} from the level or the solver, or null. */
  minimum() {
    if (this.config.min) return this.config.min;
    const start = this.analyses.get(this.initialBoard);
    if (start && Number.isInteger(start.distance)) return { moves: start.distance, optimal: start.optimal };
    return null;
  }

  /** Remember a solve in the browser's progress store (best per level). */
  rememberSolve() {
    const [moves, extra] = this.counts();
    if (moves === 0 || this.recorded === this.board) return;
    this.recorded = this.board;
    const min = this.minimum();
    record(levelKey(this.config.game, this.options, this.initialBoard),
           { moves, extra, min: min && min.optimal ? min.moves : null });
  }

  /** A move the player asked for; refused moves shake `target`. Returns true if played. */
  playerMove(move, target, { quiet = false } = {}) {
    const next = this.game.apply(this.state, move);
    if (!next) {
      if (!quiet) this.view.refuse(target);
      return false;
    }
    this.playback.pause();
    const described = this.game.describeMove(this.state, move) || move;
    const before = this.board;
    const after = this.game.format(next);
    const last = this.history.last;
    const merged = last && last.kind === "player" && last.after === before && !this.history.canRedo
      ? this.game.continues(last.move, described) : null;
    if (merged) this.history.amendLast(after, merged);
    else this.history.push({ before, after, move: described, kind: "player" });
    this.notice = "";
    this.startClock();
    this.setState(next, { duration: PLAYER_MOVE_MS });
    return true;
  }

  /** Play the solution's move `i` (the current board is states[i]). */
  playSolutionMove(i) {
    const { moves, states } = this.playback.solution;
    const target = states[i + 1];
    const redo = this.history.next;
    if (redo && redo.after === target) {
      this.history.redo();
    } else {
      this.history.push({ before: this.board, after: target, move: moves[i], kind: "playback" });
    }
    let next = this.game.apply(this.state, moves[i]);
    if (!next || this.game.format(next) !== target) next = this.game.parse(target);
    this.startClock();
    this.setState(next, { duration: Math.min(this.playback.speed * 0.8, 600) });
    return true;
  }

  undo({ keepPlayback = false } = {}) {
    if (!keepPlayback) this.playback.pause();
    const entry = this.history.undo();
    if (!entry) return false;
    this.setState(this.game.parse(entry.before), { duration: PLAYER_MOVE_MS });
    return true;
  }

  redo() {
    this.playback.pause();
    const entry = this.history.redo();
    if (!entry) return false;
    this.setState(this.game.parse(entry.after), { duration: PLAYER_MOVE_MS });
    return true;
  }

  restart() {
    this.playback.pause();
    if (this.solving) this.cancelSolve();
    this.history.clear();
    this.recorded = null;
    this.elapsed = 0;
    this.runningSince = null;
    this.notice = "";
    this.setState(this.game.parse(this.initialBoard), { duration: 250 });
  }

  /** Show `state`: board, data-state, URL, then ask for its evaluation. */
  setState(state, { duration }) {
    this.state = state;
    this.board = this.game.format(state);
    this.view.clearHint();
    this.hintWanted = false;
    this.hintShown = false;
    this.view.render(state, { duration });
    this.boardEl.dataset.state = this.board;
    const seeded = this.config.generated && this.board === this.initialBoard;
    window.history.replaceState(null, "", seeded ? this.startUrl : this.link_(this.board, false));
    if (this.isSolved()) { this.stopClock(); this.rememberSolve(); }
    this.refresh();
    this.evaluate();
  }

  isSolved() {
    const known = this.analyses.get(this.board);
    if (known && typeof known.solved === "boolean") return known.solved;
    return this.game.isGoal(this.state);
  }

  // -- talking to the server -------------------------------------------------

  payload(board) { return { game: this.config.game, board, ...this.options }; }

  evaluate() {
    if (this.analyses.has(this.board)) return;
    this.supersedeSolve("search stopped: you moved");
    this.link.request("analyse", this.payload(this.board));
  }

  gotAnalysis(reply, request) {
    this.analyses.set(request.board, reply);
    if (request.board === this.board) {
      if (this.isSolved()) this.stopClock();
      // a hint shown from an interim answer is replaced by the proven one's
      if (this.hintWanted || (this.hintShown && reply.final !== false)) this.showHint();
      this.refresh();
    }
  }

  hint() {
    if (this.isSolved()) return;
    this.playback.pause();
    this.hintWanted = true;
    if (this.analyses.has(this.board)) this.showHint();
    else if (!(this.link.current && this.link.current.board === this.board
               && this.link.current.event === "analyse")) {
      this.supersedeSolve("search stopped for the hint");
      this.link.request("analyse", this.payload(this.board));
    }
    this.refresh();
  }

  /** The server drops a client's older job when a newer request arrives. */
  supersedeSolve(why) {
    if (!this.solving) return;
    this.solving = false;
    this.progressText = why;
  }

  showHint() {
    this.hintWanted = false;
    const analysis = this.analyses.get(this.board);
    this.view.clearHint();
    this.hintShown = Boolean(analysis.best_move);
    if (analysis.best_move) {
      this.view.showHint(analysis.best_move);
      this.notice = `Hint: ${analysis.best_move.text}`;
    } else if (analysis.solvable === false) {
      this.notice = "No hint: this position is unsolvable.";
    } else {
      this.notice = analysis.message || "No hint available for this position.";
    }
  }

  solve() {
    if (this.isSolved() || this.solving) return;
    this.playback.pause();
    const known = this.playback.loaded && this.playback.position() >= 0;
    if (known) { this.playback.play(); return; }
    this.solving = true;
    this.solveStarted = performance.now();
    this.notice = "";
    this.progressText = "searching…";
    this.link.request("solve", this.payload(this.board));
    this.refresh();
  }

  cancelSolve() {
    this.link.cancel();
    this.solving = false;
    this.progressText = "search cancelled";
    this.refresh();
  }

  gotProgress(reply) {
    const nodes = Number(reply.nodes || 0).toLocaleString("en");
    const elapsed = Number(reply.elapsed || 0).toFixed(1);
    this.progressText = `searching… ${nodes} positions · depth ${reply.depth ?? "?"} · ${elapsed} s`;
    this.refresh();
  }

  gotSolution(reply, request) {
    this.solving = false;
    const { moves, states } = reply;
    const length = moves.length;
    states.forEach((board, i) => {
      if (!this.analyses.has(board) || this.analyses.get(board).distance === null) {
        this.analyses.set(board, {
          board, solved: i === length, solvable: true, distance: length - i,
          optimal: Boolean(reply.optimal), best_move: moves[i] || null, next_board: states[i + 1] || null,
        });
      }
    });
    const stats = reply.stats || {};
    const seconds = stats.seconds !== undefined ? `${Number(stats.seconds).toFixed(2)} s` : "";
    const nodes = stats.nodes ? `${Number(stats.nodes).toLocaleString("en")} positions` : "";
    this.progressText = `${reply.optimal ? "shortest" : "a"} solution: ${plural(length, "move")}`
      + ([seconds, nodes].filter(Boolean).length ? ` (${[seconds, nodes].filter(Boolean).join(", ")})` : "");
    if (request.board !== this.board) { this.refresh(); return; }
    this.playback.load({ moves, states, optimal: reply.optimal });
    this.playback.play();
  }

  gotUnsolvable(reply, request) {
    this.solving = false;
    this.analyses.set(request.board, { board: request.board, solved: false, solvable: false,
                                       distance: null, optimal: true, best_move: null });
    this.progressText = "no solution exists";
    this.refresh();
  }

  gotError(reply) {
    this.solving = false;
    this.hintWanted = false;
    this.notice = reply.message || "the server could not handle that";
    this.progressText = "";
    this.refresh();
  }

  connection(up) {
    const node = $("connection");
    if (node) {
      node.dataset.up = up ? "true" : "false";
      node.title = up ? "connected to the solver" : "solver offline, reconnecting…";
    }
  }

  // -- clock ---------------------------------------------------------------------

  startClock() {
    if (this.runningSince === null && !this.isSolved()) this.runningSince = performance.now();
  }

  stopClock() {
    if (this.runningSince !== null) this.elapsed += performance.now() - this.runningSince;
    this.runningSince = null;
  }

  tick() {
    const ms = this.elapsed + (this.runningSince === null ? 0 : performance.now() - this.runningSince);
    $("timer").textContent = clock(ms);
    if (this.solving && this.progressText === "searching…") {
      $("progress").textContent = `searching… ${((performance.now() - this.solveStarted) / 1000).toFixed(1)} s`;
    }
  }

  // -- links ---------------------------------------------------------------------

  /** The page address for `board` (absolute for sharing, relative for the URL bar). */
  link_(board, absolute) {
    const params = new URLSearchParams({ board });
    for (const [k, v] of Object.entries(this.options)) params.set(k, v);
    const speed = new URLSearchParams(window.location.search).get("speed");
    if (speed) params.set("speed", speed);
    const path = `/play/${this.config.game}?${params.toString()}`;
    return absolute ? window.location.origin + path : path;
  }

  async copyLink() {
    const url = this.link_(this.board, true);
    const button = $("copy-link");
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const area = document.createElement("textarea");
      area.value = url;
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    button.dataset.copied = url;
    const label = button.querySelector(".label") || button;
    const old = label.textContent;
    label.textContent = "Copied!";
    setTimeout(() => { label.textContent = old; }, 1200);
  }

  // -- the panel -----------------------------------------------------------------

  refresh() {
    if (!this.initialBoard) {
      $("status").textContent = this.notice;
      return;
    }
    const analysis = this.analyses.get(this.board);
    const start = this.analyses.get(this.initialBoard);
    const solved = this.isSolved();
    const [moves, extra] = this.counts();
    $("moves").textContent = String(moves);
    const min = this.minimum();
    $("moves-line").textContent = `Moves: ${moves}` + (min ? ` (min ${min.optimal ? "" : "≤ "}${min.moves})` : "")
      + (extra ? ` · ${plural(extra, "extra tube")}` : "");
    const extraButton = $("extra-tube");
    if (extraButton) extraButton.disabled = solved || !this.initialBoard;
    $("undo").disabled = !this.history.canUndo;
    $("redo").disabled = !this.history.canRedo;
    $("hint").disabled = solved;
    $("solve").disabled = solved || this.solving;
    $("status").textContent = this.statusText(analysis, start, solved, moves);
    $("status").dataset.kind = solved ? "solved" : analysis && analysis.solvable === false ? "unsolvable"
      : this.notice ? "notice" : "playing";
    this.showDistance(analysis, start, solved);
    $("cancel").hidden = !this.solving;
    $("progress").textContent = this.progressText || "";
    const pb = this.playback;
    $("play-pause").disabled = !pb.playing && !pb.canForward();
    $("play-pause").dataset.playing = pb.playing ? "true" : "false";
    $("play-pause").setAttribute("aria-label", pb.playing ? "pause" : "play");
    $("play-pause").querySelector(".label").textContent = pb.playing ? "Pause" : "Play";
    $("step-back").disabled = !pb.canBack();
    $("step-forward").disabled = !pb.canForward();
    document.body.classList.toggle("has-solution", pb.loaded);
    document.body.classList.toggle("is-solved", solved);
    $("copy-link").dataset.link = this.link_(this.board, true);
    const best = $("best");
    if (best) best.textContent = min ? `${min.optimal ? "" : "≤"}${min.moves}`
      : start && start.solvable === false ? "–" : "…";
  }

  statusText(analysis, start, solved, moves) {
    if (solved) {
      if (moves === 0) return "Already solved: try another position from the lobby.";
      const min = this.minimum();
      const best = min ? `${min.optimal ? "" : "≤ "}${min.moves}` : "?";
      const [, extra] = this.counts();
      const tubes = extra ? ` with ${plural(extra, "extra tube")}` : "";
      return `Puzzle solved in ${plural(moves, "move")}${tubes} (optimal ${best})!`;
    }
    if (analysis && analysis.solvable === false) {
      return moves === 0 ? "This position is unsolvable: no sequence of moves reaches the goal."
        : "Now unsolvable: undo or restart.";
    }
    if (this.notice) return this.notice;
    if (this.solving) return "Looking for the shortest solution…";
    if (this.playback.playing) {
      return `Playing the solution: move ${this.playback.position()} of ${this.playback.length}`;
    }
    if (moves === 0) return "Your move.";
    return "Keep going!";
  }

  showDistance(analysis, start, solved) {
    const node = $("distance");
    const meter = document.querySelector(".meter > span");
    let text;
    let verdict = "";
    let fill = 0;
    if (solved) {
      text = "solved";
      fill = 1;
    } else if (!analysis) {
      const current = this.link.current;
      const pending = current && current.event === "analyse" && current.board === this.board;
      text = pending ? "evaluating…" : "not evaluated yet (ask for a hint)";
    } else if (analysis.solvable === false) {
      text = "unsolvable";
    } else if (analysis.distance === null || analysis.distance === undefined) {
      text = "too far to evaluate quickly";
    } else {
      const d = analysis.distance;
      text = `${analysis.optimal ? "" : "≤ "}${plural(d, "move")} to solve`;
      if (start && start.distance) fill = Math.max(0, Math.min(1, 1 - d / start.distance));
    }
    const last = this.history.last;
    if (last && analysis) {
      const before = this.analyses.get(last.before);
      if (before && before.solvable !== false && analysis.solvable === false) verdict = "that move made it unsolvable";
      // only proven distances can judge a move (an unproven "≤ N" may shrink by more than one)
      else if (before && before.optimal && Number.isInteger(before.distance)
               && (solved || (analysis.optimal && Number.isInteger(analysis.distance)))) {
        const extra = (solved ? 0 : analysis.distance) - (before.distance - 1);
        verdict = extra <= 0 ? "optimal move" : `+${extra}`;
      }
    }
    node.replaceChildren(text);
    node.dataset.kind = verdict === "optimal move" ? "good" : verdict ? "bad" : "";
    if (verdict) {
      const span = document.createElement("span");
      span.className = "verdict";
      span.textContent = ` · ${verdict}`;
      node.append(span);
    }
    if (meter) meter.style.width = `${Math.round(fill * 100)}%`;
  }

  // -- buttons and keys --------------------------------------------------------

  bindControls() {
    const on = (id, fn) => $(id).addEventListener("click", () => fn());
    on("hint", () => this.hint());
    on("solve", () => this.solve());
    on("cancel", () => this.cancelSolve());
    on("undo", () => this.undo());
    on("redo", () => this.redo());
    on("restart", () => this.restart());
    on("copy-link", () => this.copyLink());
    if ($("extra-tube")) on("extra-tube", () => this.addExtraTube());
    this.bindNewGame();
    on("play-pause", () => this.playback.toggle());
    on("step-back", () => this.playback.stepBack());
    on("step-forward", () => { this.playback.pause(); this.playback.stepForward(); });
    const speed = $("speed");
    speed.value = String(this.playback.speed);
    const showSpeed = () => {
      const label = document.querySelector("[data-speed-label]");
      if (label) label.textContent = `${speed.value} ms`;
    };
    showSpeed();
    speed.addEventListener("input", () => { this.playback.setSpeed(Number(speed.value)); showSpeed(); });
    document.addEventListener("keydown", (e) => this.key(e));
  }

  /** The "New game" pickers: navigate to a seeded URL, so the new game has a link too. */
  bindNewGame() {
    const form = $("new-game");
    if (!form) return;
    const size = form.querySelector("[name=size]");
    const distance = form.querySelector("[name=distance]");
    const fillDistances = () => {
      const max = this.config.choices.sizes[size.value];
      const exact = this.config.choices.exact_sizes.includes(Number(size.value));
      const want = Number(distance.value || distance.dataset.selected) || this.config.choices.distance;
      distance.replaceChildren(...Array.from({ length: max }, (_, i) => {
        const option = new Option(`${exact ? "exactly" : "up to"} ${i + 1}`, String(i + 1));
        option.selected = i + 1 === Math.min(want, max);
        return option;
      }));
    };
    if (size && distance) { fillDistances(); size.addEventListener("change", fillDistances); }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const params = new URLSearchParams(new FormData(form));
      params.set("seed", String(Math.floor(Math.random() * 2 ** 31)));
      const speed = new URLSearchParams(window.location.search).get("speed");
      if (speed) params.set("speed", speed);
      window.location.assign(`/play/${this.config.game}?${params.toString()}`);
    });
    const edit = $("edit-position");
    if (edit) edit.addEventListener("click", (event) => {
      event.preventDefault();
      const params = new URLSearchParams({ board: this.board, ...this.options });
      window.location.assign(`/editor/${this.config.game}?${params.toString()}`);
    });
  }

  key(event) {
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const ctrl = event.ctrlKey || event.metaKey;
    const k = event.key.toLowerCase();
    if (ctrl && (k === "y" || (k === "z" && event.shiftKey))) { event.preventDefault(); this.redo(); return; }
    if (ctrl && k === "z") { event.preventDefault(); this.undo(); return; }
    if (!this.initialBoard || ctrl || event.altKey) return;
    if (this.view.handleKey(event)) event.preventDefault();
  }
}

const config = JSON.parse(document.getElementById("config").textContent);
window.arcade = new Controller(config);
