// The lab's replay: each search's visiting order, recorded by the server as it ran
// (GET /api/visits: the positions in the order it expanded them, with each one's
// depth and the positions first found there), played back a step at a time. A step
// is one position expanded, the same step for every algorithm, so they compare position
// for position. Pause, Step and the speed work on this record, never on a search still
// going: the searches themselves finished (or go on) on the server.
//
// Each step draws the chosen algorithm's visits over the state graph (graph.js) and
// every algorithm's frontier by depth (comparison.js) as it was after that many expansions.

import { gettext } from "../i18n.js";

const COUNT = new Intl.NumberFormat("en");

/** Replay speeds, in positions expanded a second. */
export const SPEEDS = [1, 10, 100, 1000, 10000, 100000];

/** Positions found but not yet expanded at each depth after `step` expansions of
 * `visits`: [[depth, count], ...] by depth. The roots (the start, or the goals a
 * backward search starts from) wait at depth 0. */
export function frontierByDepth(visits, step) {
  const waiting = new Map();
  const add = (depth, count) => waiting.set(depth, (waiting.get(depth) || 0) + count);
  const roots = new Set();
  visits.order.forEach((node, k) => { if (visits.depth[k] === 0) roots.add(node); });
  add(0, Math.max(1, roots.size));
  const end = Math.min(step, visits.order.length);
  for (let k = 0; k < end; k += 1) {
    add(visits.depth[k], -1);
    if (visits.added[k]) add(visits.depth[k] + 1, visits.added[k]);
  }
  return [...waiting.entries()].map(([depth, count]) => [depth, Math.max(0, count)]).sort((a, b) => a[0] - b[0]);
}

/** The speed (of SPEEDS) that plays `total` steps in about ten seconds. */
export function speedFor(total) {
  return SPEEDS.find((speed) => speed * 10 >= total) || SPEEDS[SPEEDS.length - 1];
}

export class Replay {
  /**
   * `controls`: {panel, play, step, speed, position, algorithm, status} elements;
   * `onStep(step, traces, chosen, playing, full)` draws a step (`full`: the chart too).
   */
  constructor(controls, onStep) {
    this.controls = controls;
    this.onStep = onStep;
    this.traces = new Map(); // algorithm -> visits
    this.step = 0;
    this.playing = false;
    this.carry = 0;
    this.last = 0;
    this.drawnAt = 0;
    const { play, step, speed, position, algorithm } = controls;
    speed.replaceChildren(...SPEEDS.map((value) => {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = gettext("%(count)s positions / s", { count: COUNT.format(value) });
      return option;
    }));
    play.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    step.addEventListener("click", () => { this.pause(); this.show(this.step + 1); });
    position.addEventListener("input", () => { this.pause(); this.show(Number(position.value)); });
    algorithm.addEventListener("change", () => this.draw());
  }

  get total() { return Math.max(0, ...[...this.traces.values()].map((t) => t.order.length)); }

  /** A search's record arrived: offer it, and start playing with the first. */
  add(name, visits) {
    const first = this.traces.size === 0;
    this.traces.set(name, visits);
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    this.controls.algorithm.append(option);
    this.controls.panel.hidden = false;
    this.controls.position.max = String(this.total);
    if (first) {
      this.controls.speed.value = String(speedFor(this.total));
      this.show(0);
      this.play();
    } else {
      this.draw();
    }
  }

  clear() {
    this.pause();
    this.traces.clear();
    this.controls.algorithm.replaceChildren();
    this.controls.panel.hidden = true;
    this.step = 0;
  }

  play() {
    if (this.step >= this.total) this.show(0);
    this.playing = true;
    this.controls.play.textContent = gettext("Pause");
    this.controls.play.setAttribute("aria-pressed", "true");
    this.last = performance.now();
    this.carry = 0;
    requestAnimationFrame((now) => this.tick(now));
  }

  pause() {
    const was = this.playing;
    this.playing = false;
    this.controls.play.textContent = gettext("Play");
    this.controls.play.setAttribute("aria-pressed", "false");
    if (was && this.traces.size) this.draw();
  }

  tick(now) {
    if (!this.playing) return;
    this.carry += ((now - this.last) / 1000) * Number(this.controls.speed.value);
    this.last = now;
    const whole = Math.floor(this.carry);
    if (whole > 0) {
      this.carry -= whole;
      this.show(this.step + whole);
    }
    if (this.step >= this.total) { this.pause(); return; }
    requestAnimationFrame((next) => this.tick(next));
  }

  show(step) {
    this.step = Math.max(0, Math.min(this.total, step));
    this.draw();
  }

  draw() {
    const chosen = this.controls.algorithm.value;
    const { position, status, panel } = this.controls;
    // while it plays, the words, the slider and the chart follow four times a second
    // (repainting the page each frame would halve the graph's frame rate)
    const now = performance.now();
    const full = !this.playing || this.step >= this.total || now - this.drawnAt >= 250;
    if (full) this.drawnAt = now;
    this.onStep(this.step, this.traces, chosen, this.playing, full);
    if (!full) return;
    position.value = String(this.step);
    panel.dataset.step = String(this.step);
    panel.dataset.total = String(this.total);
    const shown = this.traces.get(chosen);
    status.textContent = gettext("Step %(step)s of %(total)s: %(algorithm)s has expanded %(count)s positions.", {
      step: COUNT.format(this.step),
      total: COUNT.format(this.total),
      algorithm: chosen,
      count: COUNT.format(shown ? Math.min(this.step, shown.order.length) : 0),
    });
  }
}
