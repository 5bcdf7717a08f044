# A pytest plugin: records every Relax function and every module holding one that the tests
# build, then round-trips each through TVMScript (print, from_source, structural equality,
# print again) and writes a report.
import json
import os
import traceback

import tvm.ir.module as _module
import tvm.relax.expr as _expr

_FUNCS: dict = {}
_MODS: dict = {}


def _record(table, node):
    try:
        key = node.structural_hash()
    except Exception:  # noqa: BLE001  (a half-built node is not ours to judge)
        return
    table.setdefault(key, node)


def _wrap(cls, table, wanted):
    init = cls.__init__

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if wanted(self):
            _record(table, self)

    cls.__init__ = recording_init


def pytest_configure(config):
    _wrap(_expr.Function, _FUNCS, lambda f: True)
    _wrap(
        _module.IRModule,
        _MODS,
        lambda m: any(isinstance(f, _expr.Function) for f in m.functions.values()),
    )


def _nodes(node, seen=None):
    """Every node reachable from node through its fields."""
    seen = set() if seen is None else seen
    stack = [node]
    while stack:
        value = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif hasattr(value, "_fields") and id(value) not in seen:
            seen.add(id(value))
            yield value
            stack.extend(getattr(value, name, None) for name in value._fields)


def _standalone(func) -> bool:
    """Whether func can be written on its own: no GlobalVar, no variable it does not bind."""
    used, defined = set(), set()
    for node in _nodes(func):
        if isinstance(node, _module.GlobalVar):
            return False
        if isinstance(node, _expr.Function):
            defined.update(id(p) for p in node.params)
        elif isinstance(node, _expr.Binding):
            defined.add(id(node.var))
        elif isinstance(node, _expr.Var):
            used.add(id(node))
    return used <= defined


def _merged(func):
    """func with consecutive plain binding blocks joined: text does not show where one ends
    (upstream's printer neither), so the parsed function has them as one block."""
    body = func.body
    if not isinstance(body, _expr.SeqExpr):
        return func
    blocks = []
    for block in body.blocks:
        plain = not isinstance(block, _expr.DataflowBlock)
        if plain and blocks and not isinstance(blocks[-1], _expr.DataflowBlock):
            blocks[-1] = _expr.BindingBlock([*blocks[-1].bindings, *block.bindings])
        else:
            blocks.append(block)
    if len(blocks) == len(body.blocks):
        return func
    return func.with_fields(body=_expr.SeqExpr(blocks, body.body))


def _textual(item) -> bool:
    """False for IR that TVMScript cannot spell: a function named by a Python keyword, or an
    assert_op whose format string is not its second argument (relax.op.assert_op's order)."""
    import keyword

    from tvm.ir.op import Op

    for node in _nodes(item):
        if isinstance(node, _module.GlobalVar) and keyword.iskeyword(node.name_hint):
            return False
        if (
            isinstance(node, _expr.Call)
            and isinstance(node.op, Op)
            and node.op.name == "relax.assert_op"
            and not isinstance(node.args[1], _expr.StringImm)
        ):
            return False
    return True


def _well_formed(item) -> bool:
    import logging

    from tvm.relax.analysis import well_formed

    logging.getLogger("tvm.relax.analysis").disabled = True  # its warnings are expected here
    try:
        return well_formed(item)
    except Exception:  # noqa: BLE001
        return False


def _same(a, b):
    import tvm

    if isinstance(a, _module.IRModule):
        names = sorted(gv.name_hint for gv in a.functions)
        assert names == sorted(gv.name_hint for gv in b.functions), "other functions"
        for name in names:
            if isinstance(a[name], _expr.Function):  # TIR: the TIR round trip test
                tvm.ir.assert_structural_equal(_merged(a[name]), b[name])
    else:
        tvm.ir.assert_structural_equal(_merged(a), b)


def pytest_sessionfinish(session, exitstatus):
    import tvm
    from tvm.script import from_source

    items = [f for f in _FUNCS.values() if _standalone(f)] + list(_MODS.values())
    # IR a test builds ill-formed on purpose (a DataflowVar outside a dataflow block, a call
    # nested in a call, a GlobalVar of no function) has no text that parses back the same.
    items = [item for item in items if _textual(item) and _well_formed(item)]
    failures = []
    for item in items:
        text = None
        try:
            text = item.script(show_meta=True)  # tensor constants are in its metadata
            again = from_source(text)
            _same(item, again)
            if again.script(show_meta=True) != text:
                raise AssertionError("printing the parsed IR gives other text")
            # And through tvm.ir.save_json / load_json, which keeps the blocks as they are.
            tvm.ir.assert_structural_equal(item, tvm.ir.load_json(tvm.ir.save_json(item)))
        except Exception:  # noqa: BLE001
            failures.append({"text": text, "error": traceback.format_exc(limit=3)})
    with open(os.environ["TVMSCRIPT_ROUNDTRIP_REPORT"], "w") as out:
        json.dump({"items": len(items), "failures": failures}, out)
