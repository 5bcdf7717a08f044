"""estimate_memory_usage: the bytes a module's Relax functions allocate before and after
memory planning (builtin.alloc_tensor vs memory.alloc_storage), as upstream's report text."""

from __future__ import annotations

from tvm.ir.module import GlobalVar, IRModule

from ._checks import expect


class _Tally:
    def __init__(self):
        self.total_alloc_tensor_mem = 0
        self.total_const_size_tensor_num = 0
        self.total_dyn_size_tensor_num = 0
        self.planned_alloc_mem = 0
        self.planned_mem_num = 0

    def size(self, shape, dtype) -> int:
        """Bytes of a tensor of shape (a ShapeExpr) and dtype; -1 when a dim is symbolic."""
        from tvm.ir.dtype import DataType
        from tvm.tir.expr import IntImm

        from ..expr import ShapeExpr

        if not isinstance(shape, ShapeExpr):
            raise TypeError(
                "estimate_memory_usage: the shape of relax.builtin.alloc_tensor and "
                "relax.memory.alloc_tensor is expected to be ShapeExpr, got "
                f"{type(shape).__name__}"
            )
        n = 1
        for dim in shape.values:
            if not isinstance(dim, IntImm):
                self.total_dyn_size_tensor_num += 1
                return -1
            n *= dim.value
        dt = DataType(dtype)
        return n * ((dt.bits + 7) // 8) * dt.lanes

    def visit_call(self, call):
        from ..expr import DataTypeImm, ShapeExpr

        name = getattr(call.op, "name", None)
        if name == "relax.builtin.alloc_tensor":
            size = self.size(call.args[0], _dtype_of(call.args[1], DataTypeImm))
            if size != -1:
                self.total_const_size_tensor_num += 1
                self.total_alloc_tensor_mem += size
                self.planned_mem_num += 1
                self.planned_alloc_mem += size
        elif name == "relax.memory.alloc_tensor":
            size = self.size(call.args[2], _dtype_of(call.args[3], DataTypeImm))
            if size != -1:
                self.total_const_size_tensor_num += 1
                self.total_alloc_tensor_mem += size
        elif name == "relax.memory.alloc_storage":
            size = call.args[0]
            if not isinstance(size, ShapeExpr):
                raise TypeError(
                    "estimate_memory_usage: the size of relax.memory.alloc_storage is "
                    f"expected to be ShapeExpr, got {type(size).__name__}"
                )
            self.planned_mem_num += 1
            self.planned_alloc_mem += size.values[0].value

    def report(self, name: str) -> str:
        gib = 2**30
        est = (
            f" * Without memory planning, there are {self.total_const_size_tensor_num} "
            "constant-size memory allocation(s) with total size "
            f"{_g4(self.total_alloc_tensor_mem / gib)} GB"
        )
        if self.total_dyn_size_tensor_num > 0:
            est += f", and {self.total_dyn_size_tensor_num} dynamic-size allocation(s)"
        est += (
            f".\n * With memory planning, there are {self.planned_mem_num} constant-size "
            f"memory allocation(s) with total size {_g4(self.planned_alloc_mem / gib)} GB.\n"
        )
        if self.total_alloc_tensor_mem != 0:
            ratio = self.planned_alloc_mem / self.total_alloc_tensor_mem
            est += f" * Memory planning reduces constant memory size to {ratio:.1%}."
        return f"- Function {name}:\n{est}"


def _g4(value: float) -> str:
    return f"{value:.4}"  # upstream's "{0:.4}" spelling: 4 significant digits


def _dtype_of(arg, dtype_imm_cls) -> str:
    return str(arg.value) if isinstance(arg, dtype_imm_cls) else str(arg)


def estimate_memory_usage(mod) -> str:
    """A report of each Relax function's constant-size allocations, without and with memory
    planning; a Function is reported as one module function named "foo". Control flow is not
    followed: every allocation counts once."""
    from ..expr import Function
    from ..expr_functor import ExprVisitor

    expect("estimate_memory_usage", "mod", mod, (IRModule, Function), "an IRModule or Function")
    if isinstance(mod, Function):
        mod = IRModule({GlobalVar("foo"): mod})

    class _Visit(ExprVisitor):
        def __init__(self, tally):
            self.tally = tally

        def visit_Call(self, node):  # noqa: N802  (dispatch names follow the node class)
            self.tally.visit_call(node)
            self.generic_visit(node)

    text = ""
    for gv, func in mod.functions.items():
        if not isinstance(func, Function):
            continue
        tally = _Tally()
        _Visit(tally).visit(func)
        text += tally.report(gv.name_hint) + "\n"
    return "Memory usage estimation:\n" + text if text else text
