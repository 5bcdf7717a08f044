"""tvm.relax.ir.instrument: WellFormedInstrument, which checks a module is well formed around
every pass it instruments."""

from __future__ import annotations

from tvm.instrument import PassInstrument


class WellFormedInstrument(PassInstrument):
    """Check with relax.analysis.well_formed that the module each pass takes and gives is well
    formed; an ill-formed one is an AssertionError naming the pass and whether it was its
    input or its output (the violations are logged by well_formed). Normalize is skipped: it
    exists to make a module well formed."""

    def __init__(self, check_struct_info: bool = True, validate_before_transform: bool = True):
        self.check_struct_info = check_struct_info
        self.validate_before_transform = validate_before_transform
        self.skip_pass_name = ["Normalize", "relax.transform.Normalize"]

    def _check(self, mod, pass_name: str, when: str) -> None:
        from tvm.ir.module import IRModule
        from tvm.relax.analysis import well_formed

        if pass_name in self.skip_pass_name or not isinstance(mod, IRModule):
            return
        if not well_formed(mod, self.check_struct_info):
            raise AssertionError(
                f"WellFormedInstrument: the {when} of pass {pass_name!r} is not well formed"
            )

    def run_before_pass(self, mod, info) -> None:
        if self.validate_before_transform:
            self._check(mod, info.name, "input")

    def run_after_pass(self, mod, info) -> None:
        self._check(mod, info.name, "output")


__all__ = ["WellFormedInstrument"]
