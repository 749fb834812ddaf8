"""The project's source files as code: comments and docstrings stripped, and which
files outside a game's own places name it (the game-boundary tests read these)."""

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCE_DIRS = ("solver", "webapp", "static/js", "static/css", "templates", "scripts")
SUFFIXES = {".py", ".js", ".html", ".css", ".sh"}


def python_code(text: str) -> str:
    """The code of a Python file without comments and docstrings."""
    kept, previous = [], tokenize.INDENT
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        docstring = token.type == tokenize.STRING and previous in (
            tokenize.INDENT,
            tokenize.NEWLINE,
            tokenize.NL,
            tokenize.DEDENT,
        )
        if token.type not in (tokenize.COMMENT, tokenize.NL) and not docstring:
            kept.append(token.string)
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return " ".join(kept)


def other_code(text: str) -> str:
    """JS, CSS, HTML and shell without their comments."""
    text = re.sub(r"/\*.*?\*/|<!--.*?-->|\{#.*?#\}", " ", text, flags=re.S)
    return re.sub(r"(?m)(^|\s)(//|#(?![{}])).*$", " ", text)


def code_of(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return python_code(text) if path.suffix == ".py" else other_code(text)


def own_files(game: str):
    return (
        ROOT / "solver" / game,
        ROOT / "static/js/games" / f"{game}.js",
        *(ROOT / "static/js/games").glob(f"{game}-*.js"),  # its modules split by job
        ROOT / "static/css/games" / f"{game}.css",
    )


def files_naming(game: str):
    """Source files outside ``game``'s own places whose code (not comments) names it."""
    pattern = re.compile(rf"(?<![a-z]){re.escape(game)}(?![a-z])", re.I)
    own = own_files(game)
    found = []
    for folder in SOURCE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "vendor" in path.parts:
                continue
            if any(path == mine or mine in path.parents for mine in own):
                continue
            if pattern.search(code_of(path)):
                found.append(str(path.relative_to(ROOT)))
    return found
