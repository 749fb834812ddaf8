"""The base of the library's small records: budgets, progress, results, declarations.

They were dataclasses, but :mod:`dataclasses` imports :mod:`inspect` (and with it
``ast``, ``dis``, ``tokenize``) and writes each class's methods from source text
when the class is made: a one-shot CLI call paid for that before its first line.
A record names its fields once, in ``_fields``, and writes its own ``__init__``;
comparison, hashing (frozen records) and the repr come from here.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

R = TypeVar("R", bound="Record")


class Record:
    """Equal to a record of the same class with equal fields; shown with its fields."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def replace(self: R, **changes: Any) -> R:
        """A new record of this class: these fields changed, the others as here
        (:func:`dataclasses.replace`'s work); an unknown field is a TypeError."""
        return self.__class__(**{**dict(zip(self._fields, self._values(), strict=True)), **changes})

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value: unhashable

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({fields})"


class FrozenRecord(Record):
    """A record whose fields never change once made (``__init__`` sets them with
    ``object.__setattr__``): hashable by its fields."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen record")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen record")

    def __hash__(self) -> int:  # type: ignore[override]  # frozen: hashable, unlike Record
        return hash(self._values())
