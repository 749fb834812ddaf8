"""Write ``static/js/protocol.js``: the Socket.IO events' names, from ``webapp/protocol.py``.

The server spells every event's name once, in :mod:`webapp.protocol`; the page's modules
name one by ``EVENT.ANALYSIS``, ``EVENT.RACE_STATE`` ..., read from the module written
here (committed: the pages have no build step). Run it after changing an event's name
(tests/test_architecture.py fails until then):

    .venv/bin/python scripts/make_protocol_js.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp import protocol  # noqa: E402  (the checkout's web app, not an installed one)

TARGET = ROOT / "static" / "js" / "protocol.js"
#: the protocol's names no page uses: Engine.IO's own events under Socket.IO (the
#: server's guards alone see them) and the catch-all handler's name, which is no event
SERVER_ONLY = frozenset({"TRANSPORT_OPEN", "TRANSPORT_CLOSE", "TRANSPORT_PACKET", "ANY_EVENT"})

HEADER = """\
// Generated from webapp/protocol.py by scripts/make_protocol_js.py: do not edit.
// Regenerate after changing an event's name (tests/test_architecture.py fails until then):
//   .venv/bin/python scripts/make_protocol_js.py
//
// Every Socket.IO event's name the page sends, listens for or reads in an error's
// `event` (Socket.IO's own: connect, disconnect, connect_error; what an error that
// answers no request names: unknown, restart). No other page module spells one.
"""


def names() -> dict[str, str]:
    """The protocol's event constants the page may use, in webapp/protocol.py's order."""
    return {
        name: value
        for name, value in vars(protocol).items()
        if name.isupper() and isinstance(value, str) and name not in SERVER_ONLY
    }


def render() -> str:
    """The module's text: one frozen object, ``EVENT``, constant name to event name."""
    lines = [f"  {name}: {json.dumps(value)}," for name, value in names().items()]
    return HEADER + "\nexport const EVENT = Object.freeze({\n" + "\n".join(lines) + "\n});\n"


def main() -> None:
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(names())} events)")


if __name__ == "__main__":
    main()
