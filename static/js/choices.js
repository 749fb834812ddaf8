// What players chose: beside each of the coach's rated moves, how many players
// took it from this position (from the server's verified, unassisted lines).
// Only on a daily or a shipped level. The coach redraws its options freely; an
// observer puts the counts back on every redraw, so the coach never knows of us.

const shown = new Map(); // board -> {players, moves: {text: players}}

function annotate(box, counts) {
  if (!counts) return;
  for (const button of box.querySelectorAll('[data-testid="option"]')) {
    const taken = counts.moves[button.dataset.move] || 0;
    if (button.dataset.players === String(taken)) continue;
    button.dataset.players = String(taken);
    let note = button.querySelector(".option-players");
    if (!note) {
      note = document.createElement("span");
      note.className = "option-players";
      note.dataset.testid = "option-players";
      button.append(note);
    }
    note.textContent = counts.players ? `${taken} of ${counts.players} players` : "";
  }
}

export class Choices {
  /** `ctrl` the page's controller; `box` the coach's options container. */
  constructor(ctrl, box) {
    this.ctrl = ctrl;
    this.box = box;
    const config = ctrl.config;
    this.enabled = Boolean(box && ((config.generated && config.generated.daily) || config.level));
    if (!this.enabled) return;
    new MutationObserver(() => annotate(box, shown.get(ctrl.board))).observe(box, { childList: true });
  }

  /** After every change: the current position's choices, asked once per position. */
  async refresh() {
    const ctrl = this.ctrl;
    // what others chose is help too: not while a ranked attempt keeps the coach closed
    if (!this.enabled || !ctrl.initialBoard || ctrl.isSolved() || ctrl.coachClosed) return;
    const board = ctrl.board;
    if (shown.has(board)) { annotate(this.box, shown.get(board)); return; }
    shown.set(board, null);
    const query = new URLSearchParams({ ...ctrl.options, board: ctrl.initialBoard, position: board });
    try {
      const reply = await fetch(`/api/choices/${ctrl.config.game}?${query}`, { credentials: "same-origin" });
      if (!reply.ok) return;
      const data = await reply.json();
      const counts = { players: data.players, moves: Object.fromEntries(data.moves.map((m) => [m.move, m.players])) };
      shown.set(board, counts);
      if (ctrl.board === board) annotate(this.box, counts);
    } catch { shown.delete(board); }
  }
}
