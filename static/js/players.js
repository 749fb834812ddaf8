// Players on the play page: when a daily or a shipped level is solved, the line
// played goes to the server, which replays it and answers the rank, the streak
// and the leaderboard drawn here. The player is remembered by an HttpOnly cookie
// the server sets; this module never sees it. Names are shown with textContent
// only, so a name can never become markup. The browser's own progress
// (progress.js) is sent once, so nothing kept before players existed is lost.

import { call } from "./api.js";
import { nextLink } from "./ladder.js";
import { backOnline } from "./online.js";
import { gettext, movesText, ngettext } from "./i18n.js";
import { element } from "./dom.js";
import { shownName } from "./names.js";

const PROGRESS_STORE = "arcade-progress-v1";
// a result the server could not take for a moment (503, e.g. its database restarting)
// is kept and sent again after its Retry-After, this many times at most; one made
// offline waits for the browser to be online again, however long
const RESEND_ATTEMPTS = 8;
const IMPORTED_FLAG = "arcade-progress-imported";

/** The line in effect: the start, then the board after each move (null if help changed it). */
function playedLine(ctrl) {
  const done = ctrl.history.entries.slice(0, ctrl.history.cursor);
  if (!done.length || done.some((entry) => entry.kind === "extra")) return null;
  return [done[0].before, ...done.map((entry) => entry.after)];
}

/** A line that used Solve is assisted; on a ranked attempt, so is one that used Hint or
 * the coach (the server keeps its own record of help too). */
function isAssisted(ctrl) {
  if (ctrl.helped) return true;
  if (typeof ctrl.assisted === "boolean") return ctrl.assisted;
  return ctrl.history.entries.slice(0, ctrl.history.cursor).some((entry) => entry.kind === "playback");
}

function secondsText(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class Players {
  /** `ctrl` is the page's controller; `anchor` the element the players' section follows. */
  constructor(ctrl, anchor) {
    this.ctrl = ctrl;
    this.config = ctrl.config;
    this.sent = null;
    this.ladder = this.config.ladder === "play";
    const ranked = (this.config.generated && this.config.generated.daily) || this.config.level || this.ladder;
    this.section = ranked ? this.build(anchor) : null;
    importProgress();
  }

  build(anchor) {
    const section = element("section", { class: "players", "data-testid": "players", "aria-live": "polite", hidden: "" });
    section.append(
      element("h2", { class: "coach-title" }, this.ladder ? gettext("Ladder") : this.config.generated ? gettext("Today's leaderboard") : gettext("Leaderboard")),
      element("p", { class: "players-standing", "data-testid": "standing" }),
      element("ol", { class: "leaderboard", "data-testid": "leaderboard" }),
      this.nameForm(),
    );
    anchor.after(section);
    // a name chosen in the header shows on the board at once
    document.addEventListener("arcade:named", () => { if (this.sent && !this.ladder) this.showBoard(); });
    this.bindRestore(document.querySelector('[data-testid="player-restore-form"]'));
    bindSessions(document.querySelector('[data-testid="player-sessions"]'));
    return section;
  }

  nameForm() {
    const form = element("form", { class: "players-name", "data-testid": "player-name-form" });
    const input = element("input", { name: "name", maxlength: String(this.config.name_limit), "aria-label": gettext("your name on the leaderboard"), "data-testid": "player-name", placeholder: gettext("your name") });
    const note = element("p", { class: "players-note", "data-testid": "player-note" });
    form.append(input, element("button", { type: "submit", class: "btn small" }, gettext("Save name")), note);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const me = await call("POST", "/api/player", { name: input.value });
        note.textContent = gettext("Saved. Your recovery code is %(code)s: keep it to play as %(name)s in another browser.", { code: me.code, name: me.name });
        if (this.sent && !this.ladder) this.showBoard();
      } catch (error) {
        note.textContent = error.message;
      }
    });
    return form;
  }

  /** The page's recovery-code form (in the template, so nothing moves when the script
   * arrives): the code another browser gave makes this browser play as that player. */
  bindRestore(form) {
    if (!form) return;
    const input = form.querySelector("input");
    const note = form.querySelector('[data-testid="player-restore-note"]');
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const me = await call("POST", "/api/player/restore", { code: input.value.trim() });
        note.textContent = me.name ? gettext("Welcome back, %(name)s: this browser now plays as you.", { name: me.name })
          : gettext("Welcome back: this browser now plays as you.");
        input.value = "";
        if (this.sent && !this.ladder) this.showBoard();
      } catch (error) {
        note.textContent = error.message;
      }
    });
  }

  /** After every change: a newly solved daily or level is sent once per line. */
  refresh() {
    const ctrl = this.ctrl;
    if (!this.section || !ctrl.initialBoard || !ctrl.isSolved()) return;
    const states = playedLine(ctrl);
    const key = states && states.join("|");
    if (!states) { ctrl.settle(); return; } // nothing to send: the coach opens all the same
    if (key === this.sent) return;
    this.sent = key;
    this.submit(states);
  }

  async submit(states) {
    const ctrl = this.ctrl;
    const body = {
      game: this.config.game, board: ctrl.initialBoard, options: ctrl.options, states,
      seconds: Math.round(ctrl.clock.ms / 10) / 100, assisted: isAssisted(ctrl),
    };
    const standing = this.section.querySelector("[data-testid=standing]");
    for (let attempt = 1; ; attempt += 1) {
      try {
        this.result = await call("POST", "/api/results", body);
        // the finish is scored from the server's proven shortest, as on every page
        ctrl.knowShortest(this.result.shortest);
        // on record: the coach may ask the server about the puzzle now (analysis after the game)
        ctrl.settle();
        if (this.ladder) this.showLadder(this.result);
        else await this.showBoard();
        return;
      } catch (error) {
        this.section.hidden = false;
        if (error.unreachable && !navigator.onLine) {
          // offline: kept, however long, and sent when the browser is back online
          attempt -= 1;
          standing.textContent = gettext("Not recorded yet: you are offline. It is sent when the connection is back.");
          await backOnline();
          continue;
        }
        if (!error.retryAfter || attempt >= RESEND_ATTEMPTS) {
          ctrl.settle();
          standing.textContent = gettext("Not recorded: %(error)s", { error: error.message });
          return;
        }
        standing.textContent = gettext("Not recorded yet (%(error)s); sending again in %(seconds)s s", { error: error.message, seconds: error.retryAfter });
        await new Promise((resolve) => setTimeout(resolve, error.retryAfter * 1000));
      }
    }
  }

  async showBoard() {
    const params = this.config.generated ? "" : `?${new URLSearchParams({ board: this.ctrl.initialBoard, ...this.ctrl.options })}`;
    const board = await call("GET", `/api/leaderboard/${this.config.game}${params}`);
    this.drawStanding(this.result, board);
    const list = this.section.querySelector("[data-testid=leaderboard]");
    list.replaceChildren(...board.entries.map((entry) => {
      const row = element("li", { "data-testid": "leaderboard-row", "data-rank": String(entry.rank) });
      row.append(element("span", { class: "lb-rank" }, `${entry.rank}.`), element("span", { class: "lb-name" }, shownName(entry.name)),
        element("span", { class: "lb-moves" }, movesText(entry.length)), element("span", { class: "lb-time" }, secondsText(entry.seconds)));
      return row;
    }));
    this.section.hidden = false;
  }

  /** A ladder puzzle's result: how the player's rating moved (its first result only), and
   * the way on: the next puzzle near the new rating, or an easier or a harder one. */
  showLadder(result) {
    const standing = this.section.querySelector("[data-testid=standing]");
    const parts = [];
    if (result.rating) {
      const { before, after } = result.rating;
      const moved = Math.round(after) - Math.round(before);
      parts.push(gettext("Rating "), element("strong", { "data-testid": "rating" }, `${Math.round(before)} → ${Math.round(after)}`),
        ` (${moved >= 0 ? "+" : "−"}${Math.abs(moved)})`);
    } else {
      parts.push(element("strong", { "data-testid": "rating" }, gettext("unchanged")),
        gettext(" (only a ladder puzzle's first attempt moves your rating)"));
    }
    standing.replaceChildren(...parts);
    const game = this.config.game;
    const onward = element("p", { class: "ladder-next" });
    onward.append(
      element("a", { class: "btn primary small", href: nextLink(game), "data-testid": "next-puzzle" }, gettext("Next puzzle")),
      " ",
      element("a", { class: "btn small", href: nextLink(game, "easier") }, gettext("Easier")),
      " ",
      element("a", { class: "btn small", href: nextLink(game, "harder") }, gettext("Harder")),
    );
    const place = this.section.querySelector("[data-testid=leaderboard], .ladder-next");
    if (place) place.replaceWith(onward);
    this.section.hidden = false;
  }

  drawStanding(result, board) {
    const standing = this.section.querySelector("[data-testid=standing]");
    const parts = [];
    const rank = element("strong", { "data-testid": "rank" });
    if (board.me && board.me.rank && (result.ranked || this.config.attempt)) {
      rank.textContent = `#${board.me.rank}`;
      parts.push(gettext("Rank "), rank, gettext(" of %(players)s", { players: board.players }));
      if (board.me.beat !== null && board.me.beat !== undefined) parts.push(gettext(" · you beat %(percent)s%%", { percent: board.me.beat }));
      // a later line on the same puzzle: the standing is the ranked attempt's
      if (!result.ranked) parts.push(gettext(" (this line is not ranked: your ranked attempt's finish counts)"));
    } else {
      rank.textContent = gettext("unranked");
      // the server says why (help on record, faster than a person plays, ...)
      parts.push(rank, result.why ? ` (${gettext(result.why)})` : result.assisted ? gettext(" (solved with help)")
        : this.config.attempt ? gettext(" (your ranked attempt at this puzzle was already over)")
          : gettext(" (free play: the daily and a level's own link from the lobby are ranked)"));
    }
    if (this.config.generated) {
      const streak = element("strong", { "data-testid": "streak" }, String(board.streak ?? result.streak));
      parts.push(gettext(" · streak "), streak, ngettext(" day", " days", Number(streak.textContent)));
    }
    standing.replaceChildren(...parts);
  }
}

/** The page's "browsers playing as you" list (in the template): each session the
 * player has, when it began and was last used, and a button to end any other one. */
function bindSessions(details) {
  if (!details) return;
  const list = details.querySelector('[data-testid="session-list"]');
  const note = details.querySelector('[data-testid="sessions-note"]');
  const endOthers = details.querySelector('[data-testid="end-other-sessions"]');
  const show = async () => {
    try {
      const { sessions } = await call("GET", "/api/player/sessions");
      list.replaceChildren(...sessions.map((session) => sessionRow(session, show, note)));
      endOthers.hidden = !sessions.some((session) => !session.current);
      note.textContent = sessions.length ? "" : gettext("This browser plays as nobody yet.");
    } catch (error) {
      note.textContent = error.message;
    }
  };
  details.addEventListener("toggle", () => { if (details.open) show(); });
  endOthers.addEventListener("click", async () => {
    try {
      const { ended } = await call("POST", "/api/player/sessions/end-others", {});
      await show();
      note.textContent = ngettext("Signed out %(n)s other browser.", "Signed out %(n)s other browsers.", ended);
    } catch (error) {
      note.textContent = error.message;
    }
  });
}

function sessionRow(session, reload, note) {
  const row = element("li", { "data-testid": "session", "data-session": String(session.id) });
  const what = gettext("%(agent)s, since %(created)s, last used %(seen)s", { agent: session.agent, created: session.created, seen: session.seen });
  row.append(element("span", {}, session.current ? what + gettext(" (this browser)") : what));
  if (!session.current) {
    const end = element("button", { type: "button", class: "btn small", "data-testid": "end-session" }, gettext("Sign out"));
    end.addEventListener("click", async () => {
      try {
        await call("POST", `/api/player/sessions/${session.id}/end`, {});
        await reload();
      } catch (error) {
        note.textContent = error.message;
      }
    });
    row.append(" ", end);
  }
  return row;
}

/** Send the browser's stored progress once, so it follows the player. */
async function importProgress() {
  let stored = {};
  try {
    if (localStorage.getItem(IMPORTED_FLAG)) return;
    stored = JSON.parse(localStorage.getItem(PROGRESS_STORE) || "{}") || {};
  } catch { return; }
  if (!Object.keys(stored).length) return;
  try {
    const entries = Object.fromEntries(Object.entries(stored).slice(0, 500)); // the server's limit
    await call("POST", "/api/player/progress", { progress: entries });
    localStorage.setItem(IMPORTED_FLAG, new Date().toISOString());
  } catch { /* tried again on the next page */ }
}
