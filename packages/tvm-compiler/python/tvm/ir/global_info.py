"""GlobalInfo: module-level information an IRModule keeps by name (global_infos["vdevice"])."""

from __future__ import annotations

from .node import Node


class GlobalInfo(Node):
    """Base of the entries of IRModule.global_infos; == compares structurally, as upstream."""

    def __hash__(self):
        from .structural import structural_hash

        return structural_hash(self)

    def __eq__(self, other):
        from .structural import structural_equal

        return isinstance(other, GlobalInfo) and structural_equal(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)
