"""The part of the solver that knows no game: results, the Domain interface, the
search algorithms, the table store, seeds and the :class:`~solver.core.game.Game`
declaration every game package fills in. Nothing here imports a game."""
