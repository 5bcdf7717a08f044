"""Python source for one decoded VM function: registers become local variables, constants and
callees closure variables, so a call instruction costs what a Python call costs."""

from __future__ import annotations

from .builtins import read_if_cond
from .interpreter import _IF, _RET


def _note(err, call_at, name) -> None:
    """Say which VM function and instruction a failing call came from (Python 3.11+)."""
    add_note = getattr(err, "add_note", None)
    if add_note is None or err.__traceback__ is None:
        return
    where = call_at.get(err.__traceback__.tb_lineno)
    if where is not None:
        add_note(f"in VM function {name!r}, instruction {where}")


def generate_runner(layout, blocks, nargs: int, name: str):
    """run(args) executing the blocks, compiled from generated Python source."""
    nregs = layout.nregs
    bound: dict[str, object] = {"read_if_cond": read_if_cond}
    callee_names: dict[int, str] = {}

    def value(slot: int) -> str:
        if slot < nregs:
            return f"r{slot}"
        if slot == layout.void:
            return "None"
        key = f"s{slot}"
        bound[key] = layout.template[slot]
        return key

    def callee(fn) -> str:
        key = callee_names.get(id(fn))
        if key is None:
            key = callee_names[id(fn)] = f"k{len(callee_names)}"
            bound[key] = fn
        return key

    def target(slot: int) -> str:
        return "_" if slot >= nregs else f"r{slot}"

    def emit_block(block, indent: str) -> list[str]:
        calls, kind, a, t, f = block
        out = []
        for fn, slots, dst, where in calls:
            if fn is None:  # vm.builtin.null_value(): no call needed
                out.append(f"{indent}{target(dst)} = None")
                continue
            args = ", ".join(value(s) for s in slots)
            out.append(f"{indent}{target(dst)} = {callee(fn)}({args})")
            # Source line of this call: after the factory's def line, counting from 1.
            call_at[len(lines) + len(out) + 1] = where
        if kind == _RET:
            out.append(f"{indent}return {value(a)}")
        elif kind == _IF:
            cond = value(a)
            out.append(f"{indent}c = {cond}")
            out.append(f"{indent}if c.__class__ is not bool and c.__class__ is not int:")
            out.append(f"{indent}    c = read_if_cond(c)")
            out.append(f"{indent}b = {t} if c else {f}")
        else:
            out.append(f"{indent}b = {t}")
        return out

    call_at: dict[int, str] = {}
    # The body sits in a try whose handler notes the failing instruction on the exception.
    lines = ["def run(args):", "    try:"]
    if nargs:
        unpack = ", ".join(f"r{i}" for i in range(nargs)) + ("," if nargs == 1 else "")
        lines.append(f"        {unpack} = args")
    if nregs > nargs:
        # Registers read before any write hold None, as in the frame of the loop interpreter.
        lines.append("        " + " = ".join(f"r{i}" for i in range(nargs, nregs)) + " = None")
    if len(blocks) == 1 and blocks[0][1] == _RET:
        lines += emit_block(blocks[0], "        ")
    else:
        lines.append("        b = 0")
        lines.append("        while True:")
        for index, block in enumerate(blocks):
            keyword = "if" if index == 0 else "elif"
            lines.append(f"            {keyword} b == {index}:")
            lines += emit_block(block, "                ")
    lines += ["    except Exception as err:", "        note(err, call_at, name)", "        raise"]
    bound.update(note=_note, call_at=call_at, name=name)
    params = ", ".join(sorted(bound))
    source = "\n".join(
        [f"def factory({params}):", *("    " + line for line in lines), "    return run", ""]
    )
    namespace: dict = {}
    exec(compile(source, f"<vm function {name}>", "exec"), namespace)  # noqa: S102
    run = namespace["factory"](**bound)
    run.__qualname__ = run.__name__ = name
    return run
