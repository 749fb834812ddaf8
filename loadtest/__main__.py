"""``python -m loadtest``: simulated players, then the flood scenarios (see :mod:`loadtest.players`)."""

import sys

from .players import main

sys.exit(main())
