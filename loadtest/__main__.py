"""``python -m loadtest``: simulated players and the flood scenarios (:mod:`loadtest.players`),
or one of the single-purpose scenarios, ``--capacity``, ``--analyses`` and ``--serving``
(:mod:`loadtest.scenarios`), the race scenario ``--races`` (:mod:`loadtest.races`), or
the attacks of issue 46, ``--attacks`` (:mod:`loadtest.attacks`)."""

import sys

from .players import build_parser, main

args = build_parser().parse_args()
if args.attacks or args.attack:
    from .attacks import run_attack_scenario

    sys.exit(run_attack_scenario(args))
if args.races:
    from .races import run_race_scenario

    sys.exit(run_race_scenario(args))
if args.serving:
    from .scenarios import run_serving_scenario

    sys.exit(run_serving_scenario(args))
if args.capacity or args.analyses:
    from .scenarios import run_scenario

    sys.exit(run_scenario(args))
sys.exit(main())
