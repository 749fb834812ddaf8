"""Loading a numba kernel's cached machine code without numba's compiler set-up.

A kernel's first call (``@njit(cache=True)``) finds its machine code in numba's
cache, but first refreshes the target context: it imports and registers every
implementation numba has, which only a compilation needs (0.3-0.5 s here, the
larger part of what a one-shot CLI search pays for its compiled code).
:func:`load_cached` loads the code for the types of one call's arguments with
numba's runtime alone set up; when the cache has none (the first run on a
machine, a changed source) or numba's internals differ, it leaves the kernel as
it was and the call loads or compiles it the usual way.
"""

from __future__ import annotations

from typing import Any


def load_cached(kernel: Any, *args: Any) -> bool:
    """Give ``kernel`` (a numba dispatcher) its cached machine code for the types of
    ``args``, the arguments of a call about to be made; True when it has it now."""
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.runtime import rtsys
        from numba.core.typing.typeof import Purpose, typeof

        # numba's typeof is unannotated
        types = tuple(typeof(arg, Purpose.argument) for arg in args)  # type: ignore[no-untyped-call]
        with global_compiler_lock:  # as numba's own loading: one thread adds the code
            if types in kernel.overloads:
                return True
            rtsys.initialize(kernel.targetctx)  # what the loaded code calls (array memory)
            loaded = kernel._cache._load_overload(types, kernel.targetctx)
            if loaded is None:
                return False
            kernel.add_overload(loaded)
            return True
    except Exception:  # numba's private API moved on: the call takes numba's own path
        return False
