"""``python -m webapp [--host H] [--port P]``: serve the arcade (no terminal needed)."""
from __future__ import annotations

import argparse
import logging
import os

from . import create_app


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m webapp", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 5000)),
                        help="port (default $PORT or 5000)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = create_app()
    socketio = app.extensions["socketio"]
    print(f"Puzzle arcade on http://{args.host}:{args.port}/", flush=True)
    socketio.run(app, host=args.host, port=args.port, debug=False, use_reloader=False,
                 allow_unsafe_werkzeug=True, log_output=False)


if __name__ == "__main__":
    main()
