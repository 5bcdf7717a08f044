"""Fills `tvm-ffi-stubgen(begin): global/<prefix>` and `object/<type_key>` blocks from the registry.

Our registry keeps no argument types for functions or fields, so stubs are typed `Any`;
the names (functions, fields, methods, the constructor) are what the registry holds.
"""

import re

from .. import _core
from ..registry import list_global_func_names

BEGIN = re.compile(
    r"^(?P<indent>[ \t]*)# tvm-ffi-stubgen\(begin\): (?P<kind>global|object)/(?P<key>\S+)\s*$"
)
END = re.compile(r"^[ \t]*# tvm-ffi-stubgen\(end\)\s*$")


class StubError(ValueError):
    """A malformed directive block: names the file and line."""


def global_block(prefix, indent):
    """The stub lines for every global function `prefix.name` (directly under prefix)."""
    names = [n[len(prefix) + 1 :] for n in list_global_func_names() if n.startswith(prefix + ".")]
    names = [n for n in names if "." not in n and n.isidentifier()]
    lines = ["# fmt: off", f'_FFI_INIT_FUNC("{prefix}", __name__)', "if TYPE_CHECKING:"]
    lines += [f"    def {n}(*args: Any) -> Any: ..." for n in sorted(names)] or ["    pass"]
    return [indent + line for line in lines + ["# fmt: on"]]


def object_block(type_key, indent, where):
    """The stub lines for an object type's fields, constructor and methods."""
    try:
        index = _core.type_key_to_index(type_key)
    except Exception as err:  # noqa: BLE001 - reported with the file and line
        raise StubError(
            f"{where}: type `{type_key}` is not registered (load its library with --dlls): {err}"
        ) from None
    info = _core.type_info(index)
    lines = ["# fmt: off"]
    lines += [f"{name}: Any" for name, _doc, _descriptor in info["fields"]]
    methods = []
    for name, _doc, is_static, _func in info["methods"]:
        if name == "__ffi_init__":
            methods.append("def __init__(self, *args: Any) -> None: ...")
        elif is_static:
            methods += ["@staticmethod", f"def {name}(*args: Any) -> Any: ..."]
        else:
            methods.append(f"def {name}(self, *args: Any) -> Any: ...")
    if methods:
        lines.append("if TYPE_CHECKING:")
        lines += ["    " + m for m in methods]
    return [indent + line for line in lines + ["# fmt: on"]]


def process_text(text, path):
    """The text with every directive block regenerated; StubError on an unclosed or nested block."""
    out, lines, i = [], text.splitlines(keepends=False), 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        match = BEGIN.match(line)
        i += 1
        if not match:
            if END.match(line):
                raise StubError(f"{path}:{i}: `tvm-ffi-stubgen(end)` without a matching begin")
            continue
        start = i
        while i < len(lines) and not END.match(lines[i]):
            if BEGIN.match(lines[i]):
                raise StubError(
                    f"{path}:{i + 1}: a `tvm-ffi-stubgen(begin)` block inside the one opened "
                    f"at line {start}"
                )
            i += 1
        if i == len(lines):
            raise StubError(
                f"{path}:{start}: `tvm-ffi-stubgen(begin)` has no matching `tvm-ffi-stubgen(end)`"
            )
        indent = match["indent"]
        if match["kind"] == "global":
            out += global_block(match["key"], indent)
        else:
            out += object_block(match["key"], indent, f"{path}:{start}")
        out.append(lines[i])
        i += 1
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")
