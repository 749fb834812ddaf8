"""``python -m solver``: see :mod:`solver.cli`."""

import gc
import sys

from .cli import main

code = main()
# The process ends here: the interpreter's last collections would walk every object it
# made (numba's and LLVM's by the million), 0.07-0.3 s of a call that loaded numba. Frozen
# objects are left for the exit to take back, their memory the OS's.
gc.freeze()
sys.exit(code)
