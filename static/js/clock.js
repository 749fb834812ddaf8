// A board's clock, as the middle end keeps it (midend.js): counting up (free play: from
// the first move until the puzzle is solved; ranked play: the server's, from the moment it
// handed the puzzle out) or counting down to a deadline the server set (a storm's end, a
// race's start or end). Pure timekeeping; the page shows it.

/** When this page's response arrived, on performance.now()'s clock (0 when not known):
 * the moment the server's figures in the page's config were true. */
export function servedAt() {
  const entries = typeof performance.getEntriesByType === "function" ? performance.getEntriesByType("navigation") : [];
  return entries.length ? entries[0].responseStart : 0;
}

export class Clock {
  constructor() { this.reset(); }

  reset() {
    this.elapsed = 0; // ms counted before the running stretch
    this.runningSince = null;
    this.limit = null; // counting down from this many ms; null: counting up
  }

  get running() { return this.runningSince !== null; }

  get countsDown() { return this.limit !== null; }

  start(at = performance.now()) { if (!this.running) this.runningSince = at; }

  stop() {
    if (this.running) this.elapsed += performance.now() - this.runningSince;
    this.runningSince = null;
  }

  /** Count up from `ms` already on the clock at moment `at` (performance.now()'s), running. */
  runFrom(ms, at = performance.now()) {
    this.reset();
    this.elapsed = Math.max(0, ms);
    this.start(at);
  }

  /** Count down the `ms` left from now (a deadline the server keeps). */
  countDown(ms) {
    this.reset();
    this.limit = Math.max(0, ms);
    this.start();
  }

  /** Milliseconds on the clock now: counted, or (counting down) left. */
  get ms() {
    const counted = this.elapsed + (this.running ? performance.now() - this.runningSince : 0);
    return this.countsDown ? Math.max(0, this.limit - counted) : counted;
  }

  /** What the page shows: "m:ss" counting up, whole seconds left counting down. */
  text() { return this.countsDown ? String(Math.ceil(this.ms / 1000)) : clockText(this.ms); }
}

/** "m:ss" for `ms`. */
export function clockText(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
