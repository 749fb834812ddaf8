// The play clock: runs from the first move until the puzzle is solved, and stops
// while nothing is being played. Pure timekeeping; the panel shows it.

export class Clock {
  constructor() { this.reset(); }

  reset() {
    this.elapsed = 0; // ms on the clock before the running stretch
    this.runningSince = null;
  }

  get running() { return this.runningSince !== null; }

  start() { if (!this.running) this.runningSince = performance.now(); }

  stop() {
    if (this.running) this.elapsed += performance.now() - this.runningSince;
    this.runningSince = null;
  }

  /** Milliseconds on the clock now. */
  get ms() { return this.elapsed + (this.running ? performance.now() - this.runningSince : 0); }
}

/** "m:ss" for `ms`. */
export function clockText(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
