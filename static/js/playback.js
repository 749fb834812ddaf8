// Plays a found solution back one move at a time. The controller owns the board
// and history; playback only knows the solution and a timer, and asks the
// controller to step. Played moves land in the undo history, so after watching
// the player can step back and try again.

export class Playback {
  /**
   * @param {object} hooks  step(index) -> bool (play solution move `index`),
   *   back() -> bool, position() -> index of the current board in the solution
   *   (-1 when off the path), changed() (refresh the buttons)
   */
  constructor(hooks, speedMs) {
    this.hooks = hooks;
    this.speed = speedMs;
    this.solution = null; // {moves, states, optimal, length}
    this.playing = false;
    this.timer = null;
  }

  get loaded() { return this.solution !== null; }
  get length() { return this.solution ? this.solution.moves.length : 0; }

  load(solution) {
    this.pause();
    this.solution = solution;
    this.hooks.changed();
  }

  /** Index of the current board in the solution, -1 when the player left it. */
  position() { return this.solution ? this.hooks.position() : -1; }
  canForward() { const i = this.position(); return i >= 0 && i < this.length; }
  canBack() { return this.position() > 0; }

  play() {
    if (!this.canForward()) return;
    this.playing = true;
    this.hooks.changed();
    this.schedule(Math.min(this.speed, 250));
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.playing) {
      this.playing = false;
      this.hooks.changed();
    }
  }

  toggle() { if (this.playing) this.pause(); else this.play(); }

  setSpeed(ms) { this.speed = ms; }

  stepForward() {
    const i = this.position();
    if (i < 0 || i >= this.length) return false;
    return this.hooks.step(i);
  }

  stepBack() {
    this.pause();
    if (!this.canBack()) return false;
    return this.hooks.back();
  }

  schedule(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.playing) return;
      if (!this.stepForward() || !this.canForward()) {
        this.pause();
        return;
      }
      this.schedule(this.speed);
    }, delay);
  }
}
