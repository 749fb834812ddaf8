// Which race_state is the newest. In a cluster a race's states come from different web
// processes (a move judged on one, another racer's on the other, the clock's on either),
// and the message queue may deliver an older one after a newer: each carries the race's
// version (one more per change), and the page keeps the newest.

/**
 * Whether `next` is no older than `last` (the state shown; null: none yet); `stages` are
 * the race's statuses in the order a race goes through them (the server's, from the
 * page's config: waiting, countdown, racing, finished).
 */
export function isCurrent(next, last, stages) {
  if (!last || last.race !== next.race) return true;
  if (next.version !== last.version) return next.version > last.version;
  // the clock moves a race on without a change: same version, a later stage
  return stages.indexOf(next.status) >= stages.indexOf(last.status);
}
