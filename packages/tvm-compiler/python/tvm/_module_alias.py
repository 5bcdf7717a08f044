"""Second names for packages: `tvm.tirx` is `tvm.tir`, module for module, never a copy.

Upstream renamed TIR to `tvm.tirx` (and the schedule to `tvm.s_tir`); code written for
either spelling imports the same modules, so their classes, registries and isinstance
checks are one. A meta-path finder maps every `alias.sub` name to the `target.sub` module.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)  # the real module, not a new one

    def exec_module(self, module):
        pass  # already executed under its own name


class _AliasFinder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self.aliases: dict[str, str] = {}

    def find_spec(self, fullname, path=None, target=None):
        for alias, real in self.aliases.items():
            if fullname == alias or fullname.startswith(alias + "."):
                real_name = real + fullname[len(alias) :]
                if importlib.util.find_spec(real_name) is None:
                    return None
                return importlib.util.spec_from_loader(fullname, _AliasLoader(real_name))
        return None


_FINDER = _AliasFinder()


def alias_package(alias: str, target: str):
    """Make `alias` and every `alias.X` import as `target` and `target.X`; returns the target."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    _FINDER.aliases[alias] = target
    module = importlib.import_module(target)
    sys.modules[alias] = module
    return module
