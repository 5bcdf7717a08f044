"""Text form of IR nodes: each IR family registers a printer; scripts get upstream's header."""

from __future__ import annotations

import re

from . import underline
from .naming import NameTable

_PRINTERS: list = []
# The dialect each printer's functions belong to: (module name, prefix), e.g. ("tir", "T").
_DIALECTS: dict = {}


def register_printer(predicate, printer, dialect: tuple[str, str] | None = None) -> None:
    """Use printer(node, **options) -> str for nodes where predicate(node) is true; dialect
    names the `tvm.script` module whose import header a printed function needs."""
    _PRINTERS.append((predicate, printer))
    if dialect is not None:
        _DIALECTS[printer] = dialect


def _find(node):
    for predicate, printer in reversed(_PRINTERS):
        if predicate(node):
            return printer
    return None


def has_printer(node) -> bool:
    """Whether an IR family registered a printer for node."""
    return any(predicate(node) for predicate, _ in _PRINTERS)


class MetadataTable:
    """What a printout shows as `metadata["<type key>"][i]` instead of inline (upstream's
    metadata section: Relax tensor constants); one table per script() call."""

    def __init__(self):
        self.entries: dict[str, list] = {}

    def add(self, key: str, obj) -> str:
        """The text naming obj in the table (the same object keeps its index)."""
        items = self.entries.setdefault(key, [])
        index = next((i for i, item in enumerate(items) if item is obj), None)
        if index is None:
            items.append(obj)
            index = len(items) - 1
        return f'metadata["{key}"][{index}]'

    def wrap(self, text: str, show_meta: bool, blank_lines: int) -> str:
        """text with the metadata section before it (show_meta) or, as upstream does, a
        comment after it saying that it was left out."""
        if not self.entries:
            return text
        if not show_meta:
            return text + "\n" * (blank_lines + 1) + _OMITTED
        from .serialization import _dumps

        # Spans say where a node was parsed from, not what it is: the section leaves them out
        # so that a printout parsed and printed again gives the same text.
        table = {key: [_without_span(i) for i in self.entries[key]] for key in sorted(self.entries)}
        escaped = _dumps(table, indent=2).replace("\\", "\\\\").replace('"', '\\"')
        return f'metadata = tvm.ir.load_json("""{escaped}""")\n' + text


_OMITTED = "# Metadata omitted. Use show_meta=True in script() method to show it."


def _without_span(node):
    # A tensor (T.allocate_const's data) has no span.
    return node.with_fields(span=None) if "span" in getattr(node, "__dict__", ()) else node


def node_to_str(node, metadata: MetadataTable | None = None, show_meta=False, **options) -> str:
    """The text of node; options (such as name= for a function) go to its printer. Objects
    printed as metadata go to `metadata`; without one, the text carries its own section."""
    from .module import BaseFunc, IRModule

    if isinstance(node, IRModule):
        return node.script(show_meta=show_meta)
    printer = _find(node)
    if printer is None:
        fields = ", ".join(f"{name}={getattr(node, name)!r}" for name in node._fields)
        return f"{type(node).__name__}({fields})"
    table = MetadataTable() if metadata is None else metadata
    text = printer(node, metadata=table, **options)
    dialect = _DIALECTS.get(printer)
    if isinstance(node, BaseFunc) and dialect is not None and options.get("header", True):
        text = _header([dialect, *_uses_tir(text)]) + "\n\n" + text
    if metadata is None:
        text = table.wrap(text, show_meta, 1 if isinstance(node, BaseFunc) else 0)
    return text


def _uses_tir(text: str) -> list:
    # A Relax function printing a symbolic dim (`n = T.int64()`) needs the tir import too.
    return [("tir", "T")] if re.search(r"\bT\.", text) else []


def _header(dialects) -> str:
    # Upstream's order: the ir import first, then the dialects alphabetically.
    ordered = sorted(set(dialects), key=lambda d: (d[0] != "ir", d[0]))
    return "\n".join(f"# from tvm.script import {mod} as {prefix}" for mod, prefix in ordered)


def module_script(mod, show_meta: bool = False, **_options) -> str:
    """An IRModule as upstream prints it: `@I.ir_module class Module:` with its functions
    (and the metadata section before it when show_meta, or a comment after it that says it
    was left out)."""
    from tvm.tir.printer import literal, quote

    dialects = [("ir", "I")]
    head: list[str] = []  # upstream prints these with no blank line before the functions
    if mod.attrs:
        head.append(f"    I.module_attrs({literal(dict(mod.attrs))})")
    if mod.global_infos:
        infos = ", ".join(
            f"{quote(key)}: [{', '.join(node_to_str(i) for i in items)}]"
            for key, items in mod.global_infos.items()
        )
        head.append(f"    I.module_global_infos({{{infos}}})")
    vdevices = mod.global_infos.get("vdevice", ())
    body: list[str] = []
    metadata = MetadataTable()
    # Upstream's order: TIR functions, then the others, each by name.
    items = sorted(
        mod.functions.items(),
        key=lambda item: (not item[1]._type_key.startswith("tir."), item[0].name_hint),
    )
    for gv, func in items:
        printer = _find(func)
        if printer is None:
            raise TypeError(f"module_script: no printer for {type(func).__name__}")
        dialects.append(_DIALECTS.get(printer, ("tir", "T")))
        # Each function is its own naming scope, as upstream prints it.
        text = printer(
            func,
            name=gv.name_hint,
            names=NameTable(),
            in_module=True,
            vdevices=vdevices,
            metadata=metadata,
        )
        dialects += _uses_tir(text)
        text = underline.marked_block(func, text)
        body.append("\n".join("    " + line if line else line for line in text.split("\n")))
    text = (
        _header(dialects)
        + "\n\n@I.ir_module\nclass Module:\n"
        + "".join(line + "\n" for line in head)
        + "\n\n".join(body)
    )
    return metadata.wrap(text, show_meta, 2)


# Upstream's script() options this printer honours; show_meta is applied as the text is made
# (see MetadataTable), the prefixes by _renamed, the layout ones by tvm.ir.underline.
_PREFIXES = {"ir_prefix": "I", "tir_prefix": "T", "relax_prefix": "R"}
_LAYOUT = (
    "path_to_underline",
    "obj_to_underline",
    "num_context_lines",
    "print_line_numbers",
    "indent_spaces",
)
# Read by the printers while they print (tvm.ir.printer_config): verbose_expr prints the
# definitions of an expression's free variables before it; int_dtype/float_dtype are the
# literal types printed bare; module_alias names the module inside a Relax function ("" for
# its class name); show_object_address appends each name's object address.
_PRINTING = {
    "verbose_expr": (bool,),
    "int_dtype": (str,),
    "float_dtype": (str,),
    "module_alias": (str,),
    "show_object_address": (bool,),
}
# syntax_sugar=False asks upstream for the printout without its shorthands (T.grid, ...);
# this printer has one form, which parses back to the same IR either way.
_NO_EFFECT = ("show_meta", "syntax_sugar")


def render(node, options: dict, who: str, make) -> str:
    """The text make() prints for node, as script(**options) shows it: upstream's
    ir_prefix/tir_prefix/relax_prefix rename the dialect modules (`T.` becomes
    `tir_prefix.`, the import headers too); path_to_underline (AccessPaths from node) puts
    carets under what each path reaches; num_context_lines keeps only that many lines around
    underlined ones; print_line_numbers numbers the lines."""
    from .printer_config import printing

    known = [*_PREFIXES, *_LAYOUT, *_PRINTING, *_NO_EFFECT]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise TypeError(
            f"{who}.script: unexpected option {unknown[0]!r} (supported: {', '.join(known)})"
        )
    for option, types in _PRINTING.items():
        value = options.get(option)
        if value is not None and (
            not isinstance(value, types) or (bool not in types and isinstance(value, bool))
        ):
            raise TypeError(f"{who}.script: {option} must be a {types[0].__name__}, got {value!r}")
    if options.get("module_alias", "cls") and not options.get("module_alias", "cls").isidentifier():
        raise TypeError(
            f'{who}.script: module_alias must be an identifier or "", '
            f"got {options['module_alias']!r}"
        )
    indent = options.get("indent_spaces", 4)
    if not isinstance(indent, int) or isinstance(indent, bool) or indent < 0:
        raise TypeError(f"{who}.script: indent_spaces must be an int >= 0, got {indent!r}")
    config = {k: options[k] for k in _PRINTING if k in options}
    inner = make

    def make():
        with printing(config):
            return inner()

    renames = {}
    for option, default in _PREFIXES.items():
        prefix = options.get(option, default)
        if not isinstance(prefix, str) or not prefix.isidentifier():
            raise TypeError(f"{who}.script: {option} must be an identifier, got {prefix!r}")
        if prefix != default:
            renames[default] = prefix
    paths = _paths_option(options.get("path_to_underline"), who)
    objects = options.get("obj_to_underline") or []
    if not isinstance(objects, (list, tuple)):
        raise TypeError(f"{who}.script: obj_to_underline must be a list, got {objects!r}")
    context = options.get("num_context_lines", -1)
    if context is None:
        context = -1
    if not isinstance(context, int) or isinstance(context, bool) or context < -1:
        raise TypeError(f"{who}.script: num_context_lines must be an int >= -1, got {context!r}")
    numbers = options.get("print_line_numbers", False)
    if not isinstance(numbers, bool):
        raise TypeError(f"{who}.script: print_line_numbers must be a bool, got {numbers!r}")
    marking = bool(paths or objects)
    text = underline.print_underlined(node, paths, make, objects) if marking else make()
    if not marking and not numbers and indent == 4:
        return _renamed(text, renames)[0] if renames else text
    lines, ranges = underline.spans(text)
    if indent != 4:
        underline.reindent(lines, ranges, indent)
    if renames:
        text, edits = _renamed("\n".join(lines), renames)
        lines = text.split("\n")
        for row, col, old, new in edits:
            delta, after = len(new) - len(old), col + len(old)
            ranges[row] = [
                (a + delta if a >= after else a, b + delta if b >= after else b)
                for a, b in ranges[row]
            ]
    return underline.layout(lines, ranges, context, numbers)


def _paths_option(value, who: str) -> list:
    from tvm_ffi.access_path import AccessPath

    if value is None:
        return []
    items = list(value) if isinstance(value, (list, tuple)) else None
    if items is None or not all(isinstance(p, AccessPath) for p in items):
        raise TypeError(
            f"{who}.script: path_to_underline must be a list of tvm_ffi.access_path.AccessPath,"
            f" got {value!r}"
        )
    return items


def _renamed(text: str, renames: dict) -> tuple[str, list]:
    """text with the names renamed, and the edits made: (line, column, old, new)."""
    import io
    import tokenize

    # Only names (not strings or attributes) are renamed; printed names never shadow T/R/I.
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    edits, previous = [], None  # (offset, old text, new text, line, column)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        offset = starts[tok.start[0] - 1] + tok.start[1]
        if tok.type == tokenize.NAME and tok.string in renames and previous != ".":
            edits.append((offset, tok.string, renames[tok.string], tok.start))
        elif tok.type == tokenize.COMMENT:  # the headers and `# with T.block("root"):`
            new = re.sub(r"(?<=\bas )(\w+)$", lambda m: renames.get(m[1], m[1]), tok.string)
            new = re.sub(r"\b(\w+)(?=\.)", lambda m: renames.get(m[1], m[1]), new)
            edits.append((offset, tok.string, new, tok.start))
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            previous = tok.string
    for offset, old, new, _start in reversed(edits):
        text = text[:offset] + new + text[offset + len(old) :]
    return text, [(row - 1, col, old, new) for _o, old, new, (row, col) in reversed(edits)]


def _global_var_text(node, **_options) -> str:
    # Upstream's forms of a GlobalVar and an Op on their own.
    from .module import GlobalVar

    if isinstance(node, GlobalVar):
        return f'I.GlobalVar("{node.name_hint}")'
    return f'I.Op("{node.name}")'


def _is_global_var_or_op(node) -> bool:
    from .module import GlobalVar
    from .op import Op

    return isinstance(node, (GlobalVar, Op))


register_printer(_is_global_var_or_op, _global_var_text, dialect=("ir", "I"))


def show_text(text: str, black_format: bool = False) -> None:
    """Print text (an IR's script) to stdout, formatted by `black` when asked and installed."""
    if black_format:
        try:
            import black
        except ImportError:
            pass  # black is optional: plain text is still the same program
        else:
            text = black.format_str(text, mode=black.FileMode())
    print(text)
