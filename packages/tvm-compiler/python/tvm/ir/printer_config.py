"""The options of the script() call being printed (upstream's PrinterConfig), for the printers."""

from __future__ import annotations

from contextlib import contextmanager

_current: dict = {}


def option(name: str, default):
    """The value of script() option `name` in the printout being made, else default."""
    return _current.get(name, default)


@contextmanager
def printing(options: dict):
    """Make `options` the current printout's while the block prints (printouts nest: a
    function's text made inside a module's keeps the outer options)."""
    global _current
    saved, _current = _current, {**_current, **options}
    try:
        yield
    finally:
        _current = saved
