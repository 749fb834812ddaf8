"""A game's one declaration: who it is, what options it takes, what it offers.

Each game package (``solver/<game>/``) subclasses :class:`Game` once and sets
class attributes, the way python-chess variants declare themselves. Everything
that used to keep its own list of games (CLI flags, the engine's option checks,
the web catalogue, payload validation, the lobby, the page templates and
scripts) reads these declarations through :mod:`solver.catalogue` instead, so
adding a game means adding its package and nothing else.

Hooks are classmethods with safe defaults; a game overrides only what it has
(levels, a generator, tables worth warming). Bench rows are not part of the
declaration: they live in the game's own ``bench`` module, which only
``python -m solver bench`` imports.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import BoardError
from .record import FrozenRecord
from .seeds import check_seed
from .text import N_, number_shown

if TYPE_CHECKING:  # annotations only: a declaration imports no solver code
    from .domain import Domain
    from .results import CancelEvent
    from .tables import TableSet

MAX_OPTION_CHARS = 100


class Option(FrozenRecord):
    """One option a game understands (``--metric``, ``?capacity=``, a payload key).

    ``kind`` is ``str`` or ``int``. Text from a URL or the command line and
    typed values from JSON both go through :meth:`coerce`, so every front end
    gives the same error for the same bad value. ``label`` is a short label for
    forms ("Capacity").
    """

    _fields = ("name", "kind", "default", "help", "choices", "low", "high", "label")
    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None
    low: int | None
    high: int | None
    label: str

    def __init__(
        self,
        name: str,
        kind: type,
        default: Any,
        help: str,
        choices: tuple[Any, ...] | None = None,
        low: int | None = None,
        high: int | None = None,
        label: str = "",
    ) -> None:
        for field, value in zip(
            self._fields, (name, kind, default, help, choices, low, high, label), strict=True
        ):
            object.__setattr__(self, field, value)

    def coerce(self, value: Any) -> Any:
        """The option's typed value; ``None`` and ``""`` mean "not given" (None)."""
        if value is None or value == "":
            return None
        if self.kind is int:
            value = _whole_number(self.name, value)
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                raise BoardError(
                    N_("%(name)s must be a whole number from %(low)s to %(high)s, not %(value)s"),
                    name=self.name,
                    low=self.low,
                    high=self.high,
                    value=number_shown(value),
                )
        else:
            if not isinstance(value, str) or len(value) > MAX_OPTION_CHARS:
                raise BoardError(
                    N_("%(name)s must be text up to %(most)s characters"),
                    name=self.name,
                    most=MAX_OPTION_CHARS,
                )
        if self.choices is not None and value not in self.choices:
            raise BoardError(
                N_("%(name)s must be one of %(choices)s, not %(value)s"),
                name=self.name,
                choices=", ".join(map(str, self.choices)),
                value=repr(str(value)[:20]),
            )
        return value

    def describe(self) -> dict[str, Any]:
        """The option as JSON for the page (forms, pickers, help)."""
        return {
            "name": self.name,
            "kind": self.kind.__name__,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices) if self.choices else None,
            "low": self.low,
            "high": self.high,
            "label": self.label or self.name,
        }


def _whole_number(name: str, value: Any) -> int:
    """An int from an int or ASCII-digit text; ``"²"`` or ``"1e3"`` is a clear error."""
    if isinstance(value, bool):
        raise BoardError(
            N_("%(name)s must be a whole number, not %(value)s"), name=name, value=repr(value)
        )
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise BoardError(
            N_("%(name)s must be a whole number, not %(value)s"),
            name=name,
            value=repr(str(value)[:20]),
        )
    return int(text)


class Game:
    """Base class of the game declarations. Subclasses set the attributes below."""

    #: short name used by the CLI, URLs, Socket.IO and storage keys
    name: ClassVar[str] = ""
    #: what players read: page titles, the lobby
    title: ClassVar[str] = ""
    #: position in the lobby and in listings (lower first)
    order: ClassVar[int] = 100
    #: one sentence for the lobby card
    summary: ClassVar[str] = ""
    #: how to play, shown under the board
    how_to_play: ClassVar[str] = ""
    #: a solvable start the play page opens when no board is given
    default_board: ClassVar[str] = ""
    #: the game's Domain class
    domain: ClassVar[type[Domain[Any, Any]]]
    #: the options the game understands (CLI flags, query parameters, payload keys)
    options: ClassVar[tuple[Option, ...]] = ()
    #: the parameters of the seeded "New game" generator (empty: no generator form)
    generator: ClassVar[tuple[Option, ...]] = ()
    #: the option whose value splits stored progress ("metric", "capacity"), or None
    progress_option: ClassVar[str | None] = None
    #: what the page offers beyond the common controls, e.g. {"extra-tube"}
    features: ClassVar[frozenset[str]] = frozenset()
    #: the languages of level names when not English ({"pack name": "zh"})
    level_languages: ClassVar[dict[str, str]] = {}
    #: boards written as comma-separated parts (tubes, jugs): the most a board may have,
    #: and what a part is called in the error
    max_parts: ClassVar[int | None] = None
    part_name: ClassVar[str] = "parts"

    # -- the solver -------------------------------------------------------------
    @classmethod
    def make_domain(cls, **options: Any) -> Domain[Any, Any]:
        """Build the domain with ``options`` (already checked by :meth:`check_options`)."""
        return cls.domain(**options)

    @classmethod
    def option(cls, name: str) -> Option | None:
        return next((o for o in cls.options if o.name == name), None)

    @classmethod
    def default_options(cls) -> dict[str, Any]:
        """Every option at its default: a page's options when its URL gives none."""
        return {option.name: option.default for option in cls.options}

    @classmethod
    def full_options(cls, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every option: the ``given`` ones checked (:meth:`check_options`), the rest at
        their defaults, as a stored result or a daily names its puzzle."""
        return {**cls.default_options(), **cls.check_options(dict(given or {}))}

    @classmethod
    def check_options(cls, given: dict[str, Any]) -> dict[str, Any]:
        """Typed options from ``given``; unknown names and bad values raise BoardError.

        ``None`` and empty values are dropped (the domain's default applies).
        """
        checked = {}
        for name, value in given.items():
            option = cls.option(name)
            if option is None:
                if value is None or value == "":
                    continue
                raise BoardError(
                    N_("option %(name)s does not apply to %(game)s"), name=name, game=cls.name
                )
            value = option.coerce(value)
            if value is not None:
                checked[name] = value
        return checked

    @classmethod
    def check_size(cls, board: str) -> None:
        """A cheap size check before any work is queued (the parser checks again): by
        default, the count of comma-separated parts against :attr:`max_parts`."""
        if cls.max_parts is None:
            return
        parts = board.count(",") + 1
        if parts > cls.max_parts:
            raise BoardError(
                N_("board has %(count)s %(parts)s; the limit is %(limit)s"),
                count=parts,
                parts=cls.part_name,
                limit=cls.max_parts,
            )

    # -- levels and generators ----------------------------------------------------
    @classmethod
    def levels(cls) -> list[dict[str, Any]]:
        """Graded levels: dicts with name, board, pack, options and moves, the fewest
        moves keyed by the :attr:`progress_option`'s value ({"piece": 81, "step": 116})."""
        return []

    @classmethod
    def distinct_levels(cls) -> list[dict[str, Any]]:
        """The levels with one entry per puzzle (a layout in two packs counts once)."""
        found = {}
        for level in cls.levels():
            found[(level["board"], tuple(sorted(level.get("options", {}).items())))] = level
        return list(found.values())

    @classmethod
    def progress_value(cls, options: Mapping[str, Any]) -> Any:
        """The value that splits move counts and stored progress ("piece", a goal), or None."""
        if cls.progress_option is None:
            return None
        value = options.get(cls.progress_option)
        if value is not None:
            return value
        option = cls.option(cls.progress_option)
        assert option is not None, f"{cls.name}: progress_option names no declared option"
        return option.default

    @classmethod
    def generate(cls, params: dict[str, Any], seed: int, daily: bool) -> dict[str, Any]:
        """A seeded level: {board, options, min_moves, optimal, name?, params}.

        ``params`` are the :attr:`generator` values already checked (missing
        ones absent: the game picks, e.g. a daily size). Raises BoardError.
        A game without a generator of its own gets the level the seed picks.
        """
        levels = cls.distinct_levels()
        if not levels:
            raise BoardError(N_("%(game)s has no generator and no levels"), game=cls.name)
        level = levels[check_seed(seed) % len(levels)]
        options = dict(level.get("options", {}))
        value = cls.progress_value(options)
        if value is not None:
            options[cls.progress_option] = value
        return {
            "board": level["board"],
            "options": options,
            "min_moves": level["moves"][value],
            "optimal": True,
            "name": level["name"],
            "params": {},
        }

    #: the proven lengths the ladder's generated puzzles span (easiest, hardest); None:
    #: the ladder climbs the shipped levels only
    ladder_lengths: ClassVar[tuple[int, int] | None] = None

    @classmethod
    def ladder_params(cls, length: int) -> dict[str, Any]:
        """The :attr:`generator` values aiming at a puzzle ``length`` moves long, whose
        length :meth:`generate` proves (the ladder's next puzzle at a player's level);
        only for a game with :attr:`ladder_lengths`."""
        raise BoardError(N_("%(game)s generates no ladder puzzles"), game=cls.name)

    #: the proven lengths of the small puzzles a race has :meth:`generate` make for this
    #: game (easiest, hardest), outside its ladder: a game whose ladder climbs shipped
    #: levels keeps its pool to them. None: a race draws the ladder's puzzles, if any
    race_lengths: ClassVar[tuple[int, int] | None] = None

    @classmethod
    def race_params(cls, length: int) -> dict[str, Any]:
        """The :meth:`generate` parameters for a race puzzle ``length`` moves long (its
        length proven); only for a game with :attr:`race_lengths`."""
        raise BoardError(N_("%(game)s generates no race puzzles"), game=cls.name)

    @classmethod
    def size_label(cls, board: str, options: Mapping[str, Any]) -> str:
        """A puzzle's size (and metric, where a game has several) in a few words, "3 jugs":
        the group a player's results are summed in (strengths and weaknesses)."""
        return f"{board.count(',') + 1} {cls.part_name}"

    @classmethod
    def choices(cls) -> dict[str, Any]:
        """Anything more the "New game" form needs: how many levels a seed picks from,
        or (a game's own) e.g. the largest distance per size."""
        count = len(cls.distinct_levels())
        return {"levels": count} if count else {}

    @classmethod
    def params_of(cls, board: str, options: dict[str, Any]) -> dict[str, Any]:
        """The generator's parameters that describe ``board`` (a valid one), so the
        "New game" pickers start at the puzzle on screen; {} when not known."""
        return {}

    @classmethod
    def hardest(
        cls,
        board: str,
        options: dict[str, Any],
        placements: bool,
        report: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """The hardest start of ``board``'s group (with ``placements``, over every
        placement of its pieces), distance proven, as JSON-ready data; ``report``
        receives progress lines. Raises BoardError for a game without one."""
        raise BoardError(N_("%(game)s has no hardest-start search"), game=cls.name)

    # -- the originals' solvers, as named baselines -------------------------------
    #: the originals' searches (:data:`~solver.originals.ORIGINAL_SEARCHES`) its string
    #: model can run: the ``original_model(board, options)`` of the game's ``baseline``
    #: module, which only :mod:`solver.originals` imports (no code shared with the rules)
    original_searches: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def original_searches_for(cls, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The originals' searches that can run with ``options`` (a string model knows
        fewer goals than the rules do)."""
        return cls.original_searches

    @classmethod
    def tables(cls) -> list[TableSet]:
        """The tables it builds once per machine, for ``python -m solver tables``."""
        return []

    # -- the server ------------------------------------------------------------
    @classmethod
    def warm(cls, stop: CancelEvent | None = None) -> int:
        """Build or load the tables its analyses look up; returns how many were warmed."""
        return 0

    @classmethod
    def warm_first(cls, stop: CancelEvent | None = None) -> int:
        """The part of :meth:`warm` a new player's first minute needs (the default
        board's, built in seconds): a server builds these before its solver processes
        start and the rest behind them, so the first hints never wait for the
        biggest tables. Returns how many were warmed."""
        return 0

    # -- as JSON -----------------------------------------------------------------
    @classmethod
    def describe(cls) -> dict[str, Any]:
        """The declaration as JSON: the page templates and scripts read this."""
        return {
            "name": cls.name,
            "title": cls.title,
            "summary": cls.summary,
            "how_to_play": cls.how_to_play,
            "default_board": cls.default_board,
            "options": [o.describe() for o in cls.options],
            "generator": [o.describe() for o in cls.generator],
            "progress_option": cls.progress_option,
            "features": sorted(cls.features),
            # moves can be undone: a bound for one position bounds the next one too
            "reversible": bool(getattr(cls.domain, "reversible", False)),
            "choices": cls.choices(),
            "level_languages": dict(cls.level_languages),
        }
