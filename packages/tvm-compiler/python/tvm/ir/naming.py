"""The naming context printers share: each printed object gets one unique, stable name.

One NameTable serves a whole printout, so TIR printed inside another IR's function (and
every later IR printer) names a variable the same way wherever it appears.
"""

from __future__ import annotations

from .printer_config import option


class NameTable:
    """Names by object identity: the first request for an object picks its name (its hint, or
    the hint with _1, _2, ... when that is taken); later requests return the same name."""

    def __init__(self):
        self._names: dict[int, str] = {}
        self._used: set[str] = set()
        self._alive: list = []  # keeps named objects alive, so their ids are not reused

    def name(self, obj, hint: str | None = None, key=None) -> str:
        """The name of `obj` (or of `key` when given: objects sharing a key share a name)."""
        owner = obj if key is None else key
        ident = id(owner)
        found = self._names.get(ident)
        if found is not None:
            return found
        base = hint or getattr(obj, "name", None) or getattr(obj, "name_hint", None) or "v"
        if option("show_object_address", False):  # upstream's: the name, _, the address
            base = f"{base}_{id(owner):#x}"
        candidate, n = base, 1
        while candidate in self._used:
            candidate = f"{base}_{n}"
            n += 1
        self._used.add(candidate)
        self._names[ident] = candidate
        self._alive.append(owner)
        return candidate

    def reserve(self, name: str) -> None:
        """Make `name` unavailable (a keyword, or a name the printout uses for something else)."""
        self._used.add(name)

    def __contains__(self, obj) -> bool:
        return id(obj) in self._names
