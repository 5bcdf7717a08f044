"""TIR statements of TVMScript: a prim_func's signature and body, built through IRBuilder frames."""

from __future__ import annotations

import ast

from tvm.error import DiagnosticError
from tvm.ir.dtype import DataType
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder.tir import frames as F
from tvm.script.ir_builder.tir import ir as T
from tvm.tir import expr as E
from tvm.tir import stmt as S
from tvm.tir.buffer import Buffer

from ..core.evaluator import ramp_of
from ..core.parser import Parser

_STATEMENT_NAMES = {
    ast.Break: "break",
    ast.Continue: "continue",
    ast.Try: "try",
    ast.Raise: "raise",
    ast.Delete: "del",
    ast.Global: "global",
    ast.Nonlocal: "nonlocal",
    ast.ClassDef: "a class definition",
    ast.FunctionDef: "a nested function",
    ast.AsyncFunctionDef: "an async function",
    ast.Import: "import",
    ast.ImportFrom: "import",
}


class TIRParser(Parser):
    """Parses one `@T.prim_func` definition into a PrimFunc."""

    def parse_function(self, node: ast.FunctionDef, private: bool):
        try:
            with IRBuilder() as builder:
                frame = F.PrimFuncFrame(node.name, private, self.source.span(node))
                with frame, self.scope():
                    self._prescan_symbols(node.body, frame)
                    for name, var in frame.symbols.items():
                        self.bind(name, var)
                    self._signature(node, frame)
                    self.visit_body(node.body)
                    if self.errors:  # statements were skipped: nothing is built
                        raise self.stop()
        except DiagnosticError as err:
            raise self.stop(err) from None
        return builder.get()

    def _prescan_symbols(self, body, frame):
        # `n = T.int32()` at the top of the body declares the shape variable a signature's
        # T.Buffer(("n",), ...) names, as upstream prints it.
        for _stmt, name, dtype in self.declared_symbols(body):
            frame.symbols[name] = E.Var(name, dtype)

    def _signature(self, node: ast.FunctionDef, frame):
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
            raise self.error(
                node, "a T.prim_func takes plain parameters only (no *args, **kwargs or defaults)"
            )
        scalars = self._scalar_params(args.args)
        for arg in args.args:
            if arg.annotation is None:
                raise self.error(
                    arg,
                    f"parameter {arg.arg!r} needs a type annotation, such as "
                    'T.Buffer((128,), "float32") or T.int32',
                )
            if arg.arg in scalars:
                frame.params.append(scalars[arg.arg])
                continue
            ann = self._eval_named(arg.annotation, [arg.arg], arg)
            if isinstance(ann, Buffer):
                var = E.Var(arg.arg, "handle")
                frame.params.append(var)
                frame.buffer_map[var] = ann
                self.bind(arg.arg, ann)
            elif isinstance(getattr(ann, "dtype", None), str) and callable(ann):
                var = E.Var(arg.arg, ann.dtype)
                frame.params.append(var)
                self.bind(arg.arg, var)
            else:
                raise self.error(
                    arg.annotation,
                    f"parameter {arg.arg!r}: expected T.Buffer(...) "
                    "or a scalar type such as T.int32 or T.handle",
                )
        if node.returns is not None:
            ret = self.eval(node.returns)
            # `-> None` is how TVMScript spells a PrimFunc that returns nothing
            if ret is not None:
                frame.ret_type = DataType(getattr(ret, "dtype", ret))

    def _scalar_params(self, params) -> dict:
        """The scalar parameters (`n: T.int64`), bound before any buffer annotation is read:
        a buffer's shape may use a scalar that comes later in the signature."""
        scalars = {}
        for arg in params:
            if not isinstance(arg.annotation, (ast.Attribute, ast.Name)):
                continue
            ann = self.eval(arg.annotation)
            if isinstance(getattr(ann, "dtype", None), str) and callable(ann):
                scalars[arg.arg] = E.Var(arg.arg, ann.dtype)
                self.bind(arg.arg, scalars[arg.arg])
        return scalars

    # -- bodies ---------------------------------------------------------------------------
    def visit_body(self, stmts) -> None:
        concise: list = []
        try:
            builder = IRBuilder.current()
            for stmt in stmts:
                depth = len(builder.frames)
                try:
                    frame = self.visit_stmt(stmt)
                except DiagnosticError as err:
                    if len(builder.frames) != depth:  # the builder's state is not whole
                        raise
                    self.recover(stmt, err)  # go on: report independent mistakes together
                    continue
                if frame is not None:
                    frame.__enter__()
                    concise.append((stmt, frame))
            while concise:
                stmt, frame = concise.pop()
                # What the frame builds is checked as it closes: a failure points at its
                # statement.
                self.source.run(stmt, lambda _node, frame=frame: frame.__exit__(None, None, None))
        except BaseException as err:
            # Frames still open are dropped unbuilt, so the error itself reaches the user (the
            # function's frame would otherwise find them on the stack and report that instead).
            for _, frame in reversed(concise):
                frame.__exit__(type(err), err, err.__traceback__)
            raise

    def visit_stmt(self, node):
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            what = _STATEMENT_NAMES.get(type(node), type(node).__name__)
            raise self.error(node, f"{what} is not supported in TVMScript TIR")
        return self.source.run(node, method)

    def _eval_named(self, value_node, names, span_node=None):
        """Evaluate value_node; what it defines (buffers, loop and block variables) takes
        names and the span of span_node (the whole statement)."""
        builder = IRBuilder.current()
        builder.pending_names = list(names)
        builder.pending_span = self.source.span(span_node or value_node)
        try:
            return self.eval(value_node)
        finally:
            builder.pending_names = builder.pending_span = None

    def visit_Assign(self, node):
        if len(node.targets) != 1:
            raise self.error(node, "chained assignment (a = b = ...) is not supported")
        target = node.targets[0]
        if isinstance(target, ast.Subscript):
            self._store(target, self.eval(node.value), node)
            return None
        if isinstance(target, ast.Name):
            value = self._eval_named(node.value, [target.id], node)
            return self._bind_value(target.id, value, node)
        if isinstance(target, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Name) for e in target.elts
        ):
            names = [e.id for e in target.elts]
            values = self._eval_named(node.value, names)
            if not isinstance(values, (list, tuple)) or len(values) != len(names):
                raise self.error(node.value, f"expected {len(names)} values to unpack")
            for name, value in zip(names, values):
                self.bind(name, value)
            return None
        raise self.error(target, "expected a name, a tuple of names or a buffer element")

    def _bind_value(self, name, value, node):
        if isinstance(value, (F.DeclBufferFrame, F.AllocateFrame, F.AllocateConstFrame)):
            value.span = self.source.span(node)
            self.bind(name, value.value)
            return value
        if isinstance(value, E.PrimExpr) and not isinstance(value, E.Var):
            var = E.Var(name, value.dtype)
            self.bind(name, var)
            return F.LetFrame(var, value, self.source.span(node))
        self.bind(name, value)
        return None

    def visit_AnnAssign(self, node):
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "expected a name")
        ann = self.eval(node.annotation)
        dtype = getattr(ann, "dtype", ann)
        if node.value is None:
            raise self.error(node, f"{node.target.id!r} needs a value")
        value = E.convert(self.eval(node.value)).astype(dtype)
        var = E.Var(node.target.id, dtype)
        self.bind(node.target.id, var)
        return F.LetFrame(var, value, self.source.span(node))

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Subscript):
            raise self.error(node.target, "augmented assignment needs a buffer element target")
        from ..core.evaluator import _BINARY

        load = self.eval(node.target)
        self._store(node.target, _BINARY[type(node.op)](load, self.eval(node.value)), node)

    def _store(self, target, value, node):
        buf = self.eval(target.value)
        if not isinstance(buf, Buffer):
            raise self.error(
                target.value, f"can only store into a buffer, not {type(buf).__name__}"
            )
        items = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
        indices = []
        for item in items:
            index = self.eval(item)
            if isinstance(index, slice):
                index = ramp_of(index)
                if index is None:
                    raise self.error(item, "a stored slice needs a constant length of 2 or more")
            indices.append(index)
        F.add_stmt(S.BufferStore(buf, value, indices, span=self.source.span(node)))

    def visit_For(self, node):
        if node.orelse:
            raise self.error(node, "for ... else is not supported in TVMScript")
        target = node.target
        elts = target.elts if isinstance(target, ast.Tuple) else [target]
        if not all(isinstance(e, ast.Name) for e in elts):
            raise self.error(target, "loop variables must be names")
        frame = self._eval_named(node.iter, [e.id for e in elts], node.target)
        if not isinstance(frame, F.ForFrame):
            raise self.error(
                node.iter,
                "expected range(...), T.serial/parallel/vectorized/"
                "unroll/thread_binding(...) or T.grid(...)",
            )
        if isinstance(target, ast.Name) and len(frame.vars) > 1:
            # upstream: `for ijk in T.grid(...)` binds the name to the list of loop vars
            names = {target.id: list(frame.vars)}
        elif len(frame.vars) != len(elts):
            raise self.error(target, f"{len(frame.vars)} loop variables expected")
        else:
            names = {e.id: v for e, v in zip(elts, frame.vars)}
        frame.span = self.source.span(node)
        with frame, self.scope(names):
            self.visit_body(node.body)

    def visit_With(self, node):
        if len(node.items) != 1:
            raise self.error(node, "one frame per with statement")
        item = node.items[0]
        names = [item.optional_vars.id] if isinstance(item.optional_vars, ast.Name) else []
        frame = self._eval_named(item.context_expr, names)
        if not isinstance(frame, F.TIRFrame):
            raise self.error(item.context_expr, "expected a frame such as T.block(...) or T.init()")
        frame.span = self.source.span(node)
        with frame as value, self.scope():
            if item.optional_vars is not None:
                if not isinstance(item.optional_vars, ast.Name):
                    raise self.error(item.optional_vars, "expected a name")
                self.bind(item.optional_vars.id, getattr(value, "value", value))
            self.visit_body(node.body)

    def visit_If(self, node):
        cond = self.eval(node.test)
        if not isinstance(cond, E.PrimExpr):
            with self.scope():  # a Python condition picks its branch while parsing
                self.visit_body(node.body if cond else node.orelse)
            return
        with F.IfFrame(E.convert(cond), self.source.span(node)):
            with F.ThenFrame(), self.scope():
                self.visit_body(node.body)
            if node.orelse:
                with F.ElseFrame(), self.scope():
                    self.visit_body(node.orelse)

    def visit_While(self, node):
        if node.orelse:
            raise self.error(node, "while ... else is not supported in TVMScript")
        cond = self.eval(node.test)
        if isinstance(cond, bool):
            cond = E.IntImm("bool", int(cond))
        dtype = getattr(cond, "dtype", None)
        if not isinstance(cond, E.PrimExpr) or not dtype.is_bool or dtype.lanes != 1:
            what = f"dtype {dtype}" if isinstance(cond, E.PrimExpr) else type(cond).__name__
            raise self.error(
                node.test,
                f"a while condition must be a scalar bool expression such as i[0] < n, got {what}",
            )
        with F.WhileFrame(cond, self.source.span(node)), self.scope():
            self.visit_body(node.body)

    def visit_Assert(self, node):
        cond = self.eval(node.test)
        message = "" if node.msg is None else self.eval(node.msg)
        if isinstance(message, E.StringImm):
            message = message.value
        if not isinstance(message, str):
            raise self.error(node.msg, "an assert message must be a str")
        return F.AssertFrame(E.convert(cond), message, self.source.span(node))

    def visit_Expr(self, node):
        value = self.eval(node.value)
        if isinstance(value, E.PrimExpr):
            F.add_stmt(S.Evaluate(value, span=self.source.span(node)))
        elif value is not None and not isinstance(value, str):
            raise self.error(
                node, f"this statement makes a {type(value).__name__}, which TIR cannot evaluate"
            )

    def visit_Return(self, node):
        if node.value is None:
            raise self.error(node, "a T.prim_func returns a value with return <expr>")
        F.add_stmt(S.Evaluate(T.ret(self.eval(node.value)), span=self.source.span(node)))

    def visit_Pass(self, node):
        return None
