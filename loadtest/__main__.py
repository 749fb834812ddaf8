"""``python -m loadtest``: simulated players and the flood scenarios (:mod:`loadtest.players`),
or one of the single-purpose scenarios, ``--capacity`` and ``--analyses``
(:mod:`loadtest.scenarios`)."""

import sys

from .players import build_parser, main

args = build_parser().parse_args()
if args.capacity or args.analyses:
    from .scenarios import run_scenario

    sys.exit(run_scenario(args))
sys.exit(main())
