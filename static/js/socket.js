// The link to the solver server: wraps the global `io` from the vendored
// socket.io client. One request is current at a time (the server cancels a
// client's older job when a newer one arrives), so replies to anything but the
// current request id are ignored, except analyses, which stay true facts about
// their board and are always worth caching.
//
// A full server refuses a new player at once with a reason (a `connect_error`
// the server sent, after which socket.io does not retry by itself): the link
// then counts down to its next try, waiting longer after each refusal, and
// reports "<reason>; trying again in N s" through onConnection.
//
// A server that is stopping (a restart, a deploy) tells every player "the server
// is restarting; reconnecting..." (an `error` for the event "restart") and answers
// a job still running with "server is shutting down": the link keeps that request
// and sends it again once connected to the server that takes over.

import { gettext, translateReply } from "./i18n.js";
import { EVENT } from "./protocol.js";

const FIRST_RETRY_SECONDS = 5;
const LONGEST_RETRY_SECONDS = 60;
const SHUTTING_DOWN = "server is shutting down"; // the server's CLOSING_MESSAGE begins so

/**
 * How the link connects: a websocket from the first request (no long-polling handshake
 * and upgrade first: one connection, one frame per message), and long-polling when the
 * websocket fails (a proxy that refuses the upgrade): tryAllTransports tries the next
 * transport instead of retrying the one that failed.
 */
export const SOCKET_OPTIONS = Object.freeze({ transports: ["websocket", "polling"], tryAllTransports: true });

export class SolverLink {
  /**
   * @param {object} handlers  onAnalysis, onProgress, onSolution, onUnsolvable,
   *   onLabProgress, onLabResult and onError, each called with (reply, request); onConnection(connected, refusal),
   *   where refusal is "<the server's reason>; trying again in N s" while refused;
   *   onSolverStatus({warming, building}): the server's solver processes are still
   *   starting, its biggest tables still building
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.nextId = 1;
    this.current = null; // {id, event, board}
    this.sent = new Map(); // id -> request, so replies know their board
    // eslint-disable-next-line no-undef -- io is the global of the vendored Socket.IO client (static/vendor)
    this.socket = io({ ...SOCKET_OPTIONS });
    this.refusals = 0; // in a row: each one doubles the wait before the next try
    this.countdown = null;
    this.pending = null; // a request the stopping server could not finish: sent again
    this.socket.on(EVENT.CONNECT, () => {
      this.refusals = 0;
      handlers.onConnection?.(true);
      this.resend();
    });
    this.socket.on(EVENT.DISCONNECT, () => handlers.onConnection?.(false));
    this.socket.on(EVENT.CONNECT_ERROR, (error) => {
      // still active: a network failure socket.io retries itself; else the server refused
      if (this.socket.active) handlers.onConnection?.(false);
      else this.retryLater(error.message || gettext("The server refused the connection"));
    });
    this.socket.on(EVENT.ANALYSIS, (reply) => this.receive(EVENT.ANALYSIS, reply));
    this.socket.on(EVENT.PROGRESS, (reply) => this.receive(EVENT.PROGRESS, reply));
    this.socket.on(EVENT.SOLUTION, (reply) => this.receive(EVENT.SOLUTION, reply));
    this.socket.on(EVENT.UNSOLVABLE, (reply) => this.receive(EVENT.UNSOLVABLE, reply));
    this.socket.on(EVENT.ERROR, (reply) => this.receive(EVENT.ERROR, reply));
    this.socket.on(EVENT.LAB_PROGRESS, (reply) => this.receive(EVENT.LAB_PROGRESS, reply));
    this.socket.on(EVENT.LAB_RESULT, (reply) => this.receive(EVENT.LAB_RESULT, reply));
    // a server still starting its solver processes says so, then says when they are ready
    this.socket.on(EVENT.SOLVER_STATUS, (status) => handlers.onSolverStatus?.({ ...status }));
  }

  /** Count down to the next try, a little randomised so refused players do not return at once. */
  retryLater(reason) {
    clearInterval(this.countdown);
    const wait = Math.min(LONGEST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** this.refusals++);
    let left = Math.ceil(wait * (0.8 + 0.4 * Math.random()));
    const said = translateReply({ message: reason }); // the server's words, in the reader's language
    const show = () => this.handlers.onConnection?.(false, gettext("%(reason)s; trying again in %(seconds)s s", { reason: said, seconds: left }));
    show();
    this.countdown = setInterval(() => {
      left -= 1;
      if (left > 0) { show(); return; }
      clearInterval(this.countdown);
      this.handlers.onConnection?.(false, gettext("%(reason)s; trying again now", { reason: said }));
      this.socket.connect();
    }, 1000);
  }

  /** Send `analyse` or `solve`; returns the request (it becomes the current one). */
  request(event, payload) {
    const id = `r${this.nextId++}`;
    const request = { id, event, board: payload.board, payload };
    this.sent.set(id, request);
    if (this.sent.size > 200) this.sent.delete(this.sent.keys().next().value);
    this.current = request;
    this.socket.emit(event, { ...payload, id });
    return request;
  }

  /** Stop the current job; its answer will never be shown. */
  cancel() {
    if (this.current) {
      const event = this.current.event === EVENT.LAB_RUN ? EVENT.LAB_CANCEL : EVENT.CANCEL;
      this.socket.emit(event, { id: this.current.id });
    }
    this.current = null;
    this.pending = null;
  }

  /** Connected again: the request a stopping server dropped goes to the new one. */
  resend() {
    const request = this.pending;
    this.pending = null;
    if (!request || (this.current && this.current.id !== request.id)) return;
    this.current = request;
    this.socket.emit(request.event, { ...request.payload, id: request.id });
  }

  /** A job that answers in several parts (a lab comparison) is over: nothing more will come. */
  finish(id) { if (this.isCurrent(id)) this.current = null; }

  isCurrent(id) { return this.current !== null && this.current.id === id; }

  receive(event, reply) {
    if (!reply || typeof reply !== "object") return;
    const request = this.sent.get(reply.id) || null;
    const current = this.isCurrent(reply.id);
    if (event === EVENT.ANALYSIS) {
      // done before the handler redraws, so a final answer is never drawn as still coming
      if (current && reply.final !== false) this.current = null; // an interim hint: more to come
      if (request) this.handlers.onAnalysis?.(reply, request);
      return;
    }
    if (event === EVENT.ERROR && reply.event === EVENT.RESTART) { // the server is stopping
      if (this.current) this.pending = this.current;
      this.handlers.onConnection?.(false, translateReply(reply));
      return;
    }
    if (event === EVENT.ERROR && current && String(reply.message).startsWith(SHUTTING_DOWN)) {
      this.pending = request; // asked again once reconnected
      this.handlers.onConnection?.(false, translateReply(reply));
      return;
    }
    if (event === EVENT.ERROR && (current || reply.id === undefined || reply.id === null)) {
      this.current = null;
      this.handlers.onError?.(reply, request);
      return;
    }
    if (!current) return; // a superseded or cancelled job
    if (event === EVENT.PROGRESS) this.handlers.onProgress?.(reply, request);
    // a lab comparison: each algorithm's figures, then its result (the page knows when all are in)
    if (event === EVENT.LAB_PROGRESS) this.handlers.onLabProgress?.(reply, request);
    if (event === EVENT.LAB_RESULT) this.handlers.onLabResult?.(reply, request);
    if (event === EVENT.SOLUTION) { this.current = null; this.handlers.onSolution?.(reply, request); }
    if (event === EVENT.UNSOLVABLE) { this.current = null; this.handlers.onUnsolvable?.(reply, request); }
  }
}
