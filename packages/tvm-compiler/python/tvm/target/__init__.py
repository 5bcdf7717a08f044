"""tvm.target: compilation targets and the registry of target kinds backends extend."""

import tvm.ir  # noqa: F401  (checks the runtime version first)

from .target import Target, TargetKind, list_target_kinds, register_target_kind

__all__ = ["Target", "TargetKind", "list_target_kinds", "register_target_kind"]
