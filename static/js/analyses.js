// The solver's answers by board text. Most come from the server's analyses; a
// found solution also proves the distance of every board along it, and an
// unsolvable verdict is an answer too, so neither board is asked about again.

export class Analyses extends Map {
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
