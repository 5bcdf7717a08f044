"""The frames TIR is built in: a PrimFunc, loops, blocks, branches and scoped bindings."""

from __future__ import annotations

from tvm.tir import expr as E
from tvm.tir import stmt as S
from tvm.tir.analysis.access import block_access_regions
from tvm.tir.function import PrimFunc

from ..base import IRBuilder, IRBuilderFrame


def _body(stmts: list) -> S.Stmt:
    return S.seq(*stmts) if stmts else S.Evaluate(0)


def add_stmt(stmt: S.Stmt) -> None:
    """Append stmt to the innermost frame that collects statements."""
    frame = IRBuilder.current().find_frame(TIRFrame)
    if frame is None:
        raise ValueError("TIR statements must be inside a T.prim_func")
    frame.stmts.append(stmt)


class TIRFrame(IRBuilderFrame):
    """A frame whose body is the statements built inside it."""

    def __init__(self, span=None):
        self.stmts: list = []
        self.span = span


class PrimFuncFrame(TIRFrame):
    def __init__(self, name: str, private: bool = False, span=None):
        super().__init__(span)
        self.name = name
        self.private = private
        self.params: list = []
        self.buffer_map: dict = {}
        self.attrs: dict = {}
        self.ret_type = None
        self.root_alloc_buffers: list = []
        # Shape variables by name: a string dimension in a signature and `n = T.int32()`
        # in the body name the same variable.
        self.symbols: dict = {}
        self.has_block = False  # set by each block built inside: the body needs a root block

    def exit(self):
        body = _body(self.stmts)
        if (self.root_alloc_buffers or self.has_block) and not _is_root(body):
            root = S.Block([], [], [], "root", body, alloc_buffers=self.root_alloc_buffers)
            body = S.BlockRealize([], E.IntImm("bool", 1), root)
        attrs = dict(self.attrs)
        if not self.private and "global_symbol" not in attrs:
            attrs = {"global_symbol": self.name, **attrs}
        func = PrimFunc(self.params, body, self.ret_type, self.buffer_map, attrs, span=self.span)
        IRBuilder.current().result = func


def _is_root(body) -> bool:
    return isinstance(body, S.BlockRealize) and body.block.name_hint == "root"


class ForFrame(TIRFrame):
    """One or more nested loops (T.grid makes several); vars are their loop variables."""

    def __init__(self, loops, span=None):
        super().__init__(span)
        self.loops = loops  # (var, min, extent, kind, thread, annotations)
        self.vars = [loop[0] for loop in loops]

    def exit(self):
        body = _body(self.stmts)
        for var, lo, extent, kind, thread, anns in reversed(self.loops):
            body = S.For(var, lo, extent, kind, body, anns, self.span, thread)
        add_stmt(body)


class BlockFrame(TIRFrame):
    def __init__(self, name: str, no_realize: bool = False, span=None):
        super().__init__(span)
        self.name = name
        self.no_realize = no_realize
        self.iter_vars: list = []
        self.iter_values: list = []
        self.reads = None  # None: inferred from the body, as upstream does
        self.writes = None
        self.predicate = E.IntImm("bool", 1)
        self.annotations: dict = {}
        self.alloc_buffers: list = []
        self.match_buffers: list = []
        self.init = None

    def exit(self):
        body = _body(self.stmts)
        reads, writes = self.reads, self.writes
        if reads is None or writes is None:
            found_reads, found_writes = block_access_regions(
                body, self.init, self.alloc_buffers, self.match_buffers
            )
            reads = found_reads if reads is None else reads
            writes = found_writes if writes is None else writes
        block = S.Block(
            self.iter_vars,
            reads,
            writes,
            self.name,
            body,
            self.init,
            self.alloc_buffers,
            self.match_buffers,
            self.annotations,
            self.span,
        )
        add_stmt(S.BlockRealize(self.iter_values, self.predicate, block, self.span))
        func = IRBuilder.current().find_frame(PrimFuncFrame)
        if func is not None:
            func.has_block = True


class BlockInitFrame(TIRFrame):
    def exit(self):
        block = IRBuilder.current().find_frame(BlockFrame)
        block.init = _body(self.stmts)


class IfFrame(TIRFrame):
    def __init__(self, condition, span=None):
        super().__init__(span)
        self.condition = condition
        self.then_case = None
        self.else_case = None

    def exit(self):
        if self.then_case is None:
            raise ValueError("T.If: the branch has no Then()")
        add_stmt(S.IfThenElse(self.condition, self.then_case, self.else_case, self.span))


class WhileFrame(TIRFrame):
    def __init__(self, condition, span=None):
        super().__init__(span)
        self.condition = condition

    def exit(self):
        add_stmt(S.While(self.condition, _body(self.stmts), self.span))


class ThenFrame(TIRFrame):
    def exit(self):
        IRBuilder.current().find_frame(IfFrame).then_case = _body(self.stmts)


class ElseFrame(TIRFrame):
    def exit(self):
        IRBuilder.current().find_frame(IfFrame).else_case = _body(self.stmts)


class LetFrame(TIRFrame):
    def __init__(self, var, value, span=None):
        super().__init__(span)
        self.var, self.bound = var, value

    def __enter__(self):
        super().__enter__()
        return self.var

    def exit(self):
        add_stmt(S.LetStmt(self.var, self.bound, _body(self.stmts), self.span))


class AssertFrame(TIRFrame):
    def __init__(self, condition, message, span=None):
        super().__init__(span)
        self.condition, self.message = condition, message

    def exit(self):
        add_stmt(S.AssertStmt(self.condition, self.message, _body(self.stmts), self.span))


class AllocateFrame(TIRFrame):
    def __init__(self, var, dtype, extents, span=None):
        super().__init__(span)
        self.value = self.var = var
        self.dtype, self.extents = dtype, extents

    def exit(self):
        add_stmt(S.Allocate(self.var, self.dtype, self.extents, _body(self.stmts), self.span))


class AllocateConstFrame(TIRFrame):
    def __init__(self, var, dtype, extents, data, annotations=None, span=None):
        super().__init__(span)
        self.value = self.var = var
        self.dtype, self.extents, self.data, self.annotations = dtype, extents, data, annotations

    def exit(self):
        body = _body(self.stmts)
        add_stmt(
            S.AllocateConst(
                self.var, self.dtype, self.extents, self.data, body, self.annotations, self.span
            )
        )


class DeclBufferFrame(TIRFrame):
    """A declared buffer; with allocate=True the frame also allocates its memory."""

    def __init__(self, buffer, allocate: bool, span=None):
        super().__init__(span)
        self.value = self.buffer = buffer
        self.allocate = allocate

    def exit(self):
        stmt = S.DeclBuffer(self.buffer, _body(self.stmts), self.span)
        if self.allocate:
            stmt = S.Allocate(self.buffer.data, self.buffer.dtype, self.buffer.shape, stmt)
        add_stmt(stmt)


# Frames that last to the end of the enclosing body when written as a plain statement.
CONCISE_FRAMES = (LetFrame, AssertFrame, AllocateFrame, AllocateConstFrame, DeclBufferFrame)
