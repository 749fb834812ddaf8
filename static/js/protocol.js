// Generated from webapp/protocol.py by scripts/make_protocol_js.py: do not edit.
// Regenerate after changing an event's name (tests/test_architecture.py fails until then):
//   .venv/bin/python scripts/make_protocol_js.py
//
// Every Socket.IO event's name the page sends, listens for or reads in an error's
// `event` (Socket.IO's own: connect, disconnect, connect_error; what an error that
// answers no request names: unknown, restart). No other page module spells one.

export const EVENT = Object.freeze({
  ANALYSE: "analyse",
  SOLVE: "solve",
  CANCEL: "cancel",
  ANALYSIS: "analysis",
  PROGRESS: "progress",
  SOLUTION: "solution",
  UNSOLVABLE: "unsolvable",
  ERROR: "error",
  SOLVER_STATUS: "solver_status",
  CONNECT: "connect",
  DISCONNECT: "disconnect",
  CONNECT_ERROR: "connect_error",
  MESSAGE: "message",
  UNKNOWN: "unknown",
  RESTART: "restart",
  LAB_RUN: "lab_run",
  LAB_PROGRESS: "lab_progress",
  LAB_RESULT: "lab_result",
  LAB_CANCEL: "lab_cancel",
  RACE_JOIN: "race_join",
  RACE_START: "race_start",
  RACE_MOVE: "race_move",
  RACE_STATE: "race_state",
});
