// The solver's answers by board text. Most come from the server's analyses; a
// found solution also proves the distance of every board along it, and an
// unsolvable verdict is an answer too, so neither board is asked about again.
// A board's rated moves (its `options`) also tell the distance after each move:
// those are kept apart, so the board after a move is still asked about itself.

export class Analyses extends Map {
  constructor() {
    super();
    this.learned = new Map(); // board -> {distance, optimal, solvable} from a parent's options
  }

  set(board, reply) {
    super.set(board, reply);
    for (const option of (reply && reply.options) || []) {
      if (option.optimal) this.learned.set(option.board, option);
    }
    return this;
  }

  /** What is known of `board`'s distance: {distance, optimal, solvable}, or null. */
  distanceOf(board) {
    const own = this.get(board);
    if (own && (Number.isInteger(own.distance) || own.solvable === false)) {
      if (own.optimal || !this.learned.has(board)) return own;
    }
    return this.learned.get(board) || own || null;
  }

  /** What `solution` ({moves, states, optimal}) tells about each board it passes. */
  learnSolution({ moves, states, optimal }) {
    const length = moves.length;
    states.forEach((board, i) => {
      const known = this.get(board);
      if (known && known.distance !== null) return;
      this.set(board, { board, solved: i === length, solvable: true, distance: length - i,
                        optimal: Boolean(optimal), best_move: moves[i] || null, next_board: states[i + 1] || null });
    });
  }

  /** No solution exists from `board`. */
  learnUnsolvable(board) {
    this.set(board, { board, solved: false, solvable: false, distance: null, optimal: true, best_move: null });
  }
}
