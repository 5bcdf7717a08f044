"""Relax statements of TVMScript: an @R.function's signature and body, built through the
BlockBuilder (which normalises each bound value and fills in its struct info)."""

from __future__ import annotations

import ast

from tvm import relax as rx
from tvm.error import DiagnosticError
from tvm.ir.expr import RelaxExpr
from tvm.ir.module import GlobalVar
from tvm.script.ir_builder.relax import ir as R
from tvm.tir import expr as E

from ..core.evaluator import ExprEvaluator
from ..core.parser import Parser

_UNSUPPORTED = {
    ast.While: "a while loop",
    ast.Break: "break",
    ast.Continue: "continue",
    ast.For: "a for loop (Relax has no loops; use a @T.prim_func)",
    ast.Try: "try",
    ast.Raise: "raise",
    ast.Delete: "del",
    ast.Global: "global",
    ast.Nonlocal: "nonlocal",
    ast.ClassDef: "a class definition",
    ast.AsyncFunctionDef: "an async function",
    ast.Import: "import",
    ast.ImportFrom: "import",
    ast.AugAssign: "augmented assignment",
}


def _tuple_arg(value):
    if isinstance(value, (list, tuple)):
        return rx.Tuple([_tuple_arg(v) for v in value])
    return value


class RelaxEvaluator(ExprEvaluator):
    """Python semantics on Relax values: calling a GlobalVar or a closure makes a Call."""

    def _Call(self, node):
        func = self.eval(node.func)
        if isinstance(func, (GlobalVar, rx.Var)):
            args = self._elements(node.args)
            if node.keywords:
                raise self.error(node, "a call of a Relax function takes no keyword arguments")
            # f((x, y)) passes a relax Tuple, as the printer writes one
            args = [_tuple_arg(a) for a in args]
            return rx.Call(func, args, span=self.parser.source.span(node))
        if getattr(func, "_tvmscript_let", False) or not callable(func):
            return super()._Call(node)
        args = self.call_args(node.args)
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise self.error(kw, "**kwargs is not supported in TVMScript")
            kwargs[kw.arg] = self.call_arg(kw.value)
        try:
            return self.parser.call(func, args, kwargs)
        except DiagnosticError:
            raise
        except Exception as err:  # noqa: BLE001  (a diagnostic naming the R. function)
            raise self.error(node, _call_message(func, err)) from None


def _uninferable(expr) -> bool:
    from tvm.ir.op import Op

    return (
        isinstance(expr, rx.Call)
        and isinstance(expr.op, Op)
        and expr.__dict__.get("struct_info_") is None
        and expr.op.get_attr("FInferStructInfo") is None
    )


def _call_message(func, err) -> str:
    """err's message, led by the name of the function that raised it (once)."""
    name = getattr(func, "__name__", "the call")
    module = getattr(func, "__module__", "") or ""
    prefix = f"R.{name}" if module.startswith(("tvm.relax", "tvm.script")) else name
    text = str(err)
    if text.startswith((f"{prefix}:", f"{name}:")):
        return text
    return f"{prefix}: {text}"


def _decorator_options(parser, node):
    """(pure, private) from node's @R.function decorator, or None when it has none."""
    from .entry import _FunctionDecorator, function

    for dec in node.decorator_list:
        value = parser.eval(dec)
        if value is function:
            return True, False
        if isinstance(value, _FunctionDecorator):
            return value.pure, value.private
    return None


class RelaxParser(Parser):
    """Parses one @R.function definition into a relax.Function."""

    def __init__(self, source, globals_, symbols: dict | None = None):
        super().__init__(source, globals_)
        self.evaluator = RelaxEvaluator(self)
        self.symbols = dict(symbols or {})
        self.bb = None
        self.outputs: set = set()
        self.in_dataflow = False
        self.attrs: dict = {}
        self.result = None

    # -- the function ---------------------------------------------------------------------
    def signature(self, node: ast.FunctionDef):
        """The params (Vars) and the annotated result struct info (or None)."""
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
            raise self.error(
                node, "an R.function takes plain parameters only (no *args, **kwargs or defaults)"
            )
        params = []
        for arg in args.args:
            if arg.annotation is None:
                raise self.error(
                    arg,
                    f"parameter {arg.arg!r} needs a struct info annotation, such as "
                    'R.Tensor((n, 4), "float32")',
                )
            sinfo = self._sinfo(arg.annotation, f"parameter {arg.arg!r}")
            var = rx.Var(arg.arg, sinfo, span=self.source.span(arg))
            params.append(var)
        ret = None if node.returns is None else self._sinfo(node.returns, "the return annotation")
        return params, ret

    def _sinfo(self, node, what: str):
        value = self.eval(node)
        try:
            return R.as_struct_info(value, what)
        except TypeError as err:
            raise self.error(node, str(err)) from None

    def parse_function(self, node: ast.FunctionDef, pure=None, private=None):
        if pure is None:
            options = _decorator_options(self, node)
            if options is None:
                raise self.error(node, f"function {node.name!r} is not decorated with @R.function")
            pure, private = options
        previous = R.set_symbols(self.symbols)
        try:
            with self.scope():
                skip = self._prescan_symbols(node.body)
                params, ret = self.signature(node)
                for p in params:
                    self.bind(p.name_hint, p)
                self.bb = rx.BlockBuilder()
                with self.bb.testing_scope():
                    self.visit_body([s for s in node.body if id(s) not in skip])
                    if self.errors:  # statements were skipped: nothing is built
                        raise self.stop()
                    if self.result is None:
                        raise self.error(node, f"R.function {node.name!r} must end with return")
                    self.bb._end_frame()
                    body = rx.SeqExpr(self.bb._blocks, self.result)
        except DiagnosticError as err:
            raise self.stop(err) from None
        finally:
            R.set_symbols(previous)
        attrs = dict(self.attrs)
        if not private:
            attrs = {"global_symbol": node.name, **attrs}
        if ret is None:
            from tvm.relax.analysis import erase_to_well_defined
            from tvm.relax.normalizer import function_defined_tir_vars

            defined = function_defined_tir_vars(params)
            ret = erase_to_well_defined(
                body.struct_info, {v: v for v in defined}, {p: p for p in params}
            )
        return rx.Function(params, body, ret, pure, attrs, span=self.source.span(node))

    def _prescan_symbols(self, body) -> set:
        # `n = T.int64()` at the top of the body declares the symbolic dimension that the
        # signature's R.Tensor(("n",), ...) names, as upstream prints it.
        skip = set()
        for stmt, name, dtype in self.declared_symbols(body, ("handle", "void")):
            var = self.symbols.get(name)
            if var is None or str(var.dtype) != dtype:
                var = self.symbols[name] = E.Var(name, dtype)
            self.bind(name, var)
            skip.add(id(stmt))
        return skip

    # -- statements -----------------------------------------------------------------------
    def visit_body(self, stmts) -> None:
        for stmt in stmts:
            if self.result is not None:
                raise self.error(stmt, "a statement after return is never run")
            try:
                self.visit_stmt(stmt)
            except DiagnosticError as err:
                self.recover(stmt, err)  # go on: report independent mistakes together

    def visit_stmt(self, node):
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            what = _UNSUPPORTED.get(type(node), type(node).__name__)
            raise self.error(node, f"{what} is not supported in TVMScript Relax")
        try:
            return method(node)
        except DiagnosticError:
            raise
        except Exception as err:  # noqa: BLE001  (any failure becomes a diagnostic here)
            raise self.error(node, f"{type(err).__name__}: {err}") from None

    def _new_var(self, name: str, sinfo, span):
        dataflow = self.in_dataflow and name not in self.outputs
        return (rx.DataflowVar if dataflow else rx.Var)(name, sinfo, span=span)

    def bind_value(self, name: str, value, node, sinfo=None):
        """Emit `name = value` (a MatchCast when value is R.match_cast(...))."""
        span = self.source.span(node)
        if isinstance(value, R.MatchCastMarker):
            arg = self.bb._normalize_arg(value.value)
            var = self._new_var(name, value.struct_info, span)
            self.bb.emit_normalized(rx.MatchCast(var, arg, value.struct_info, span=span))
        else:
            expr = self._as_expr(value, node)
            if sinfo is not None and _uninferable(expr):
                # an op the lowering emits with its struct info set, not inferred: the
                # annotation is that struct info
                expr._fill_late_field("struct_info_", sinfo)
            expr = self.bb.normalize(expr)
            var = self._new_var(name, sinfo or expr.struct_info, span)
            self.bb.emit_normalized(rx.VarBinding(var, expr, span=span))
        self.bind(name, var)
        return var

    def _as_expr(self, value, node):
        if isinstance(value, (list, tuple)):
            return rx.Tuple([self._as_expr(v, node) for v in value])
        if isinstance(value, RelaxExpr):
            return value
        if isinstance(value, E.PrimExpr) or (
            isinstance(value, (int, float)) and not isinstance(value, bool)
        ):
            return R.prim_value(value)
        raise self.error(node, f"expected a Relax expression, got {type(value).__name__} {value!r}")

    def visit_Assign(self, node):
        target = node.targets[0] if len(node.targets) == 1 else None
        if isinstance(target, ast.Tuple) and all(isinstance(t, ast.Name) for t in target.elts):
            # `N, C = T.int64(), T.int64()`: a Python tuple unpacked name by name
            value = self.eval(node.value)
            if not isinstance(value, (list, tuple)) or len(value) != len(target.elts):
                raise self.error(node, f"cannot unpack {value!r} into {len(target.elts)} names")
            for t, v in zip(target.elts, value):
                if type(v) is E.Var:
                    # `N = T.int64()` inside the body: a symbolic dimension named N, defined
                    # by the match_cast that first uses it
                    var = self.symbols[t.id] = E.Var(t.id, v.dtype)
                    self.bind(t.id, var)
                else:
                    self._assign(t.id, v, node)
            return
        if not isinstance(target, ast.Name):
            raise self.error(node, "expected `name = value` (one name on the left)")
        self._assign(target.id, self.eval(node.value), node)

    def _assign(self, name, value, node):
        if isinstance(value, (RelaxExpr, R.MatchCastMarker, E.PrimExpr, list, tuple, int, float)):
            self.bind_value(name, value, node)
        else:  # a Python value, such as `cls = Module`: a name for the rest of the body
            self.bind(name, value)

    def visit_AnnAssign(self, node):
        if not isinstance(node.target, ast.Name) or node.value is None:
            raise self.error(node, "expected `name: annotation = value`")
        sinfo = self._sinfo(node.annotation, f"the annotation of {node.target.id!r}")
        value = self.eval(node.value)
        if isinstance(value, R.MatchCastMarker):
            sinfo = None
        self.bind_value(node.target.id, value, node, sinfo)

    def visit_Expr(self, node):
        value = self.eval(node.value)
        if isinstance(value, R.OutputMarker):
            if not self.in_dataflow:
                raise self.error(node, "R.output(...) must be inside `with R.dataflow():`")
            return
        if isinstance(value, R.FuncAttrMarker):
            self.attrs.update(value.attrs)
            return
        if isinstance(value, RelaxExpr):
            self.bind_value("_", value, node)
            return
        if value is not None and not isinstance(value, str):
            raise self.error(node, f"this statement makes a {type(value).__name__}, not a binding")

    def visit_Return(self, node):
        if self.in_dataflow:
            raise self.error(node, "return must be outside `with R.dataflow():`")
        if node.value is None:
            raise self.error(node, "an R.function returns a value: return <expr>")
        expr = self._as_expr(self.eval(node.value), node.value)
        self.result = self.bb._normalize_arg(expr)

    def visit_With(self, node):
        if len(node.items) != 1 or node.items[0].optional_vars is not None:
            raise self.error(node, "expected `with R.dataflow():`")
        marker = self.eval(node.items[0].context_expr)
        if not isinstance(marker, R.DataflowMarker):
            raise self.error(node.items[0].context_expr, "expected `with R.dataflow():`")
        if self.in_dataflow:
            raise self.error(node, "dataflow blocks cannot nest")
        outputs = self._output_names(node)
        self.bb.begin_dataflow_block()
        self.in_dataflow, self.outputs = True, outputs
        try:
            self.visit_body(node.body)
        finally:
            self.in_dataflow, self.outputs = False, set()
        self.bb.begin_binding_block()

    def _output_names(self, node) -> set:
        last = node.body[-1]
        call = last.value if isinstance(last, ast.Expr) else None
        if not isinstance(call, ast.Call) or self.eval(call.func) is not R.output:
            raise self.error(last, "a dataflow block must end with R.output(...)")
        names = set()
        for arg in call.args:
            if not isinstance(arg, ast.Name):
                raise self.error(arg, "R.output takes the names of variables bound in the block")
            names.add(arg.id)
        return names

    def visit_If(self, node):
        cond = self.bb._normalize_arg(self._as_expr(self.eval(node.test), node.test))
        if not node.orelse:
            raise self.error(node, "an if in Relax needs an else branch")
        name_t, then = self._branch(node.body)
        name_f, other = self._branch(node.orelse)
        if name_t != name_f:
            raise self.error(
                node, f"both branches must end by assigning the same name ({name_t} vs {name_f})"
            )
        self.bind_value(name_t, rx.If(cond, then, other, span=self.source.span(node)), node)

    def _branch(self, stmts):
        last = stmts[-1]
        if isinstance(last, ast.Assign) and len(last.targets) == 1:
            target = last.targets[0]
        elif isinstance(last, ast.AnnAssign):
            target = last.target
        else:
            target = None
        if not isinstance(target, ast.Name):
            raise self.error(last, "an if branch must end by assigning its result to a name")
        bb = self.bb
        saved = bb._begin_scope()
        try:
            bb._begin_frame(False)
            with self.scope():
                self.visit_body(stmts[:-1])
                value = self._as_expr(self.eval(last.value), last.value)
                body = bb._normalize_arg(value)
            bb._end_frame()
            blocks = bb._blocks
        finally:
            bb._end_scope(saved)
        return target.id, rx.SeqExpr(blocks, body)

    def visit_FunctionDef(self, node):
        options = _decorator_options(self, node)
        if options is None:
            raise self.error(node, f"a nested function ({node.name!r}) needs @R.function")
        inner = RelaxParser(self.source, self.globals, self.symbols)
        inner.scopes = [dict(s) for s in self.scopes]
        var = None
        if node.returns is not None and _calls_itself(node):
            # A recursive local function calls the variable it is bound to, so that variable
            # is made from its annotated signature before the body is parsed.
            var = self._new_var(node.name, inner.signature_sinfo(node, options[0]), None)
            inner.scopes[-1][node.name] = var
        func = inner.parse_function(node, options[0], True)
        if var is None:
            var = self._new_var(node.name, func.struct_info, self.source.span(node))
        self.bb.emit_normalized(rx.VarBinding(var, func, span=self.source.span(node)))
        self.bind(node.name, var)

    def signature_sinfo(self, node, pure):
        """The FuncStructInfo node's annotations give (its params' and its result's)."""
        previous = R.set_symbols(self.symbols)
        try:
            with self.scope():
                self._prescan_symbols(node.body)
                params, ret = self.signature(node)
        finally:
            R.set_symbols(previous)
        if ret is None:  # unknown until the body is parsed
            ret = rx.ObjectStructInfo()
        return rx.FuncStructInfo([p.struct_info for p in params], ret, purity=pure)

    def visit_Pass(self, node):
        return None


def _calls_itself(node) -> bool:
    """Whether function node's body names the function (a recursive call)."""
    return any(
        isinstance(n, ast.Name) and n.id == node.name for stmt in node.body for n in ast.walk(stmt)
    )
