"""``python -m solver``: see :mod:`solver.cli`."""

import sys

from .cli import main

sys.exit(main())
