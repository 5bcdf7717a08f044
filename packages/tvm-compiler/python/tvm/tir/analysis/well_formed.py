"""Well-formed TIR: each variable defined once, before use; blocks use only their iterators."""

from __future__ import annotations

from ..buffer import Buffer
from ..expr import Var
from ..function import PrimFunc
from ..functor import StmtExprVisitor


def _buffer_vars(buf: Buffer):
    for expr in (*buf.shape, *buf.strides, buf.elem_offset):
        if isinstance(expr, Var):
            yield expr


class _ScopeChecker(StmtExprVisitor):
    def __init__(self, defs):
        self.defined: dict[int, Var] = {}
        self.ever_defined: set[int] = set()
        self.hidden_loop_vars: list[dict[int, Var]] = []
        self.loop_vars: dict[int, Var] = {}
        self.undefined: list[Var] = []
        self.undefined_ids: set[int] = set()
        self.problems: list[str] = []
        for var in defs:
            self._define(var)

    def _define(self, var):
        if id(var) in self.ever_defined:
            self.problems.append(f"variable {var.name!r} is defined more than once")
        self.ever_defined.add(id(var))
        self.defined[id(var)] = var

    def _undefine(self, var):
        self.defined.pop(id(var), None)

    def _use(self, var):
        if id(var) in self.defined:
            for hidden in self.hidden_loop_vars:
                if id(var) in hidden:
                    self.problems.append(
                        f"block body uses loop variable {var.name!r} directly; bind it to a "
                        "block iterator instead"
                    )
            return
        if id(var) not in self.undefined_ids:
            self.undefined_ids.add(id(var))
            self.undefined.append(var)

    def visit_Var(self, var):
        self._use(var)

    visit_SizeVar = visit_Var

    def _use_buffer(self, buf):
        self._use(buf.data)
        for var in _buffer_vars(buf):
            self._use(var)

    def visit_BufferLoad(self, load):
        self._use_buffer(load.buffer)
        self.generic_visit(load)

    def visit_BufferStore(self, store):
        self._use_buffer(store.buffer)
        self.generic_visit(store)

    def _scoped(self, variables, visit_body):
        for var in variables:
            self._define(var)
        visit_body()
        for var in variables:
            self._undefine(var)

    def visit_For(self, loop):
        self.visit(loop.min)
        self.visit(loop.extent)
        self.loop_vars[id(loop.loop_var)] = loop.loop_var
        self._scoped([loop.loop_var], lambda: self.visit(loop.body))
        self.loop_vars.pop(id(loop.loop_var), None)

    def visit_Let(self, let):
        self.visit(let.value)
        self._scoped([let.var], lambda: self.visit(let.body))

    visit_LetStmt = visit_Let

    def visit_Allocate(self, alloc):
        for e in alloc.extents:
            self.visit(e)
        self._scoped([alloc.buffer_var], lambda: self.visit(alloc.body))

    def visit_DeclBuffer(self, decl):
        self._use_buffer(decl.buffer)
        self.visit(decl.body)

    def visit_BlockRealize(self, realize):
        for v in realize.iter_values:
            self.visit(v)
        self.visit(realize.predicate)
        block = realize.block
        self.hidden_loop_vars.append(dict(self.loop_vars))
        saved_loops, self.loop_vars = self.loop_vars, {}
        new_vars = [iv.var for iv in block.iter_vars] + [b.data for b in block.alloc_buffers]

        def body():
            if block.init is not None:
                self.visit(block.init)
            self.visit(block.body)

        self._scoped(new_vars, body)
        self.loop_vars = saved_loops
        self.hidden_loop_vars.pop()


def _function_defs(func: PrimFunc):
    defs = list(func.params)
    seen = {id(p) for p in defs}
    for buf in func.buffer_map.values():
        for var in (buf.data, *_buffer_vars(buf)):
            if id(var) not in seen:
                seen.add(id(var))
                defs.append(var)
    return defs


def undefined_vars(node, defs=()) -> list[Var]:
    """Variables node uses without defining them (in order of first use); defs count as defined."""
    if isinstance(node, PrimFunc):
        checker = _ScopeChecker([*_function_defs(node), *defs])
        checker.visit(node.body)
    else:
        checker = _ScopeChecker(defs)
        checker.visit(node)
    return checker.undefined


def verify_well_formed(func, assert_mode: bool = True) -> bool:
    """True when func is well formed; otherwise raise DiagnosticError (or return False)."""
    from tvm.ir.module import IRModule

    funcs = list(func.functions.values()) if isinstance(func, IRModule) else [func]
    problems = []
    for f in funcs:
        if not isinstance(f, PrimFunc):
            continue
        checker = _ScopeChecker(_function_defs(f))
        checker.visit(f.body)
        name = f.attrs.get("global_symbol", "main")
        problems += [f"{name}: {p}" for p in dict.fromkeys(checker.problems)]
        problems += [
            f"{name}: variable {v.name!r} is used but never defined" for v in checker.undefined
        ]
    if problems and assert_mode:
        from tvm.error import DiagnosticError

        raise DiagnosticError("verify_well_formed: " + "; ".join(problems))
    return not problems
