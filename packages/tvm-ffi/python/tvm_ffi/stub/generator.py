"""Renders the Python stub blocks (global functions, object types, imports, __all__, exports)."""

from __future__ import annotations

from . import consts as C
from .file_utils import StubError
from .lib_state import object_info_from_type_key, object_type_key_to_index


class ImportItem:
    """One imported name: `from <mod> import <name> [as <alias>]`, maybe only for type checking."""

    def __init__(self, full_name: str, type_checking_only: bool = False, alias=None) -> None:
        mod, dot, name = full_name.rpartition(".")
        if dot:
            for prefix, replacement in C.MOD_MAP.items():
                if mod == prefix or mod.startswith(prefix + "."):
                    mod = replacement + mod[len(prefix) :]
                    break
        self.mod = mod
        self.name = name
        self.type_checking_only = type_checking_only
        self.alias = alias

    @property
    def name_with_alias(self) -> str:
        return f"{self.name} as {self.alias}" if self.alias else self.name

    @property
    def full_name(self) -> str:
        return f"{self.mod}.{self.name}" if self.mod else self.name

    def __str__(self) -> str:
        if self.mod:
            return f"from {self.mod} import {self.name_with_alias}"
        return f"import {self.name_with_alias}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ImportItem) and (
            self.mod,
            self.name,
            self.type_checking_only,
            self.alias,
        ) == (other.mod, other.name, other.type_checking_only, other.alias)

    def __hash__(self) -> int:
        return hash((self.mod, self.name, self.type_checking_only, self.alias))


def _namer(ty_map: dict, imports: list, func_names=frozenset()):
    """Maps an FFI origin to the name a stub writes, recording the import a dotted one needs.

    A type named like a function of the same block is imported under `_<name>`.
    """

    def name_of(origin: str) -> str:
        full = ty_map.get(origin, origin)
        suffix = full.rsplit(".", 1)[-1]
        if "." not in full:
            return suffix
        alias = f"_{suffix}" if suffix in func_names else None
        imports.append(ImportItem(full, type_checking_only=True, alias=alias))
        return alias or suffix

    return name_of


def _input_ty_map(ty_map: dict) -> dict:
    """The map for parameters: containers accept any sequence / mapping unless ty-mapped."""
    out = dict(ty_map)
    for key, value in C.TY_MAP_INPUT_DEFAULTS.items():
        if ty_map.get(key, C.TY_MAP_DEFAULTS.get(key)) == C.TY_MAP_DEFAULTS.get(key):
            out[key] = value
    return out


def _annotation(schema, name_of) -> str:
    text = schema.output_repr(name_of)
    if "Callable[..., Any]" in text:
        name_of("Any")  # written out by the Callable rendering itself
    return text


def render_func_signature(func, ty_map, indent: int, input_ty_map=None) -> str:
    """`def name(_0: int, /) -> str: ...` for a function or method (self first for a member)."""
    input_ty_map = input_ty_map or ty_map
    name = func.schema.name.rsplit(".", 1)[-1]
    head = f"{' ' * indent}def {name}("
    named = func.schema.named_args
    if func.schema.origin != "Callable":
        raise StubError(f"`{func.schema.name}`: expected a function schema, got {func.schema!r}")
    if not named or "return" not in named:
        ty_map("Any")
        return head + ("self, *args: Any" if func.is_member else "*args: Any") + ") -> Any: ..."
    ret = _annotation(named["return"][0], ty_map)
    if "params" not in named:
        ty_map("Any")
        return head + f"*args: Any) -> {ret}: ..."
    parts = []
    for i, param in enumerate(named["params"]):
        if func.is_member and i == 0:
            parts.append("self")
        else:
            parts.append(f"_{i}: {_annotation_in(param, input_ty_map)}")
    params = ", ".join(parts)
    if named["params"]:
        params += ", /"
    return head + params + f") -> {ret}: ..."


def _annotation_in(schema, name_of) -> str:
    text = schema.input_repr(name_of)
    if "Callable[..., Any]" in text:
        name_of("Any")
    return text


def _field_params(info, input_ty_map) -> str:
    """The `__init__` parameters: required, then defaulted, then keyword-only ones."""
    positional = [f for f in info.init_fields if not f.kw_only]
    kw_only = [f for f in info.init_fields if f.kw_only]
    parts = [
        f"{f.name}: {_annotation_in(f.schema, input_ty_map)}"
        for f in positional
        if not f.has_default
    ]
    parts += [
        f"{f.name}: {_annotation_in(f.schema, input_ty_map)} = ..."
        for f in positional
        if f.has_default
    ]
    if kw_only:
        parts.append("*")
        parts += [
            f"{f.name}: {_annotation_in(f.schema, input_ty_map)}"
            for f in kw_only
            if not f.has_default
        ]
        parts += [
            f"{f.name}: {_annotation_in(f.schema, input_ty_map)} = ..."
            for f in kw_only
            if f.has_default
        ]
    return ", ".join(parts)


def render_object_init(info, ty_map, indent: int, input_ty_map=None) -> list[str]:
    """`def __init__(self, <init fields>) -> None: ...` when the type has a constructor."""
    if not info.has_init:
        return []
    params = _field_params(info, input_ty_map or ty_map)
    return [f"{' ' * indent}def __init__(self{', ' + params if params else ''}) -> None: ..."]


def _render_ffi_init(method, ty_map, indent: int, input_ty_map) -> str:
    """`__ffi_init__` as Python installs it: an instance method returning None."""
    named = method.schema.named_args
    pad = " " * indent
    if not named or "params" not in named:
        ty_map("Any")
        return f"{pad}def __ffi_init__(self, *args: Any) -> None: ..."
    params = [f"_{i}: {_annotation_in(p, input_ty_map)}" for i, p in enumerate(named["params"])]
    if params:
        return f"{pad}def __ffi_init__(self, {', '.join(params)}, /) -> None: ..."
    return f"{pad}def __ffi_init__(self) -> None: ..."


def render_object_methods(info, ty_map, indent: int, input_ty_map=None) -> list[str]:
    """The methods: `__ffi_init__`, then `@staticmethod` / instance methods in registry order."""
    input_ty_map = input_ty_map or ty_map
    out = []
    for method in info.methods:
        if method.schema.name == "__ffi_init__":
            out.append(_render_ffi_init(method, ty_map, indent, input_ty_map))
            continue
        if not method.is_member:
            out.append(f"{' ' * indent}@staticmethod")
        out.append(render_func_signature(method, ty_map, indent, input_ty_map))
    return out


def render_object_fields(info, ty_map, indent: int) -> list[str]:
    """`name: <type>` for each field the type itself declares."""
    return [f"{' ' * indent}{f.name}: {_annotation(f, ty_map)}" for f in info.fields]


def _replace_body(code, body: list[str]) -> None:
    pad = " " * code.indent
    code.lines = [code.lines[0], *[pad + line for line in body], code.lines[-1]]


def generate_global_funcs(code, funcs, ty_map: dict, imports: list, opt) -> None:
    """Fills a `global/<prefix>[@<module>]` block: bind the prefix, stub each function."""
    prefix, import_from = code.param
    imports.append(ImportItem(f"{import_from or 'tvm_ffi'}.init_ffi_api", alias="_FFI_INIT_FUNC"))
    imports.append(ImportItem("typing.TYPE_CHECKING"))
    names = {f.schema.name.rsplit(".", 1)[-1] for f in funcs}
    name_of = _namer(ty_map, imports, names)
    input_name_of = _namer(_input_ty_map(ty_map), imports, names)
    body = ["# fmt: off", f'_FFI_INIT_FUNC("{prefix}", __name__)', "if TYPE_CHECKING:"]
    body += [render_func_signature(f, name_of, opt.indent, input_name_of) for f in funcs]
    _replace_body(code, [*body, "# fmt: on"])


def generate_object(code, ty_map: dict, imports: list, opt, info) -> None:
    """Fills an `object/<type_key>` block: typed fields, then `__init__` and methods."""
    names = {m.schema.name for m in info.methods}
    name_of = _namer(ty_map, imports, names)
    input_name_of = _namer(_input_ty_map(ty_map), imports, names)
    checking = [
        *render_object_init(info, name_of, opt.indent, input_name_of),
        *render_object_methods(info, name_of, opt.indent, input_name_of),
    ]
    body = ["# fmt: off", *render_object_fields(info, name_of, 0)]
    if checking:
        imports.append(ImportItem("typing.TYPE_CHECKING"))
        body += ["if TYPE_CHECKING:", *checking]
    _replace_body(code, [*body, "# fmt: on"])


def generate_import_section(code, imports: list, opt, defined_types: set) -> None:
    """Fills the `import-section` block with what the other blocks use (but the file defines)."""
    concrete: dict[str, list] = {}
    checking: dict[str, list] = {}
    for item in imports:
        if item.full_name in defined_types:
            continue
        (checking if item.type_checking_only else concrete).setdefault(item.mod, []).append(item)
    if checking:
        concrete.setdefault("typing", []).append(ImportItem("typing.TYPE_CHECKING"))

    def line(mod: str, items: list, indent: int) -> str:
        names = ", ".join(sorted({i.name_with_alias for i in items}))
        return (
            f"{' ' * indent}from {mod} import {names}" if mod else f"{' ' * indent}import {names}"
        )

    body = [line(mod, concrete[mod], 0) for mod in sorted(concrete)]
    if checking:
        body.append("if TYPE_CHECKING:")
        body += [line(mod, checking[mod], opt.indent) for mod in sorted(checking)]
    if body:
        code.lines = [
            code.lines[0],
            "# fmt: off",
            "# isort: off",
            "from __future__ import annotations",
            *body,
            "# isort: on",
            "# fmt: on",
            code.lines[-1],
        ]


def generate_all(code, names: set, opt) -> None:
    """Fills an `__all__` block: constants, then classes, then functions, each sorted."""
    short = {n.rsplit(".", 1)[-1] for n in names}

    def order(name: str):
        if name.isupper():
            return (0, name)
        if name[:1].isupper() and "_" not in name:
            return (1, name)
        return (2, name)

    if short:
        pad = " " * code.indent
        code.lines = [
            code.lines[0],
            *[f'{pad}"{n}",' for n in sorted(short, key=order)],
            code.lines[-1],
        ]


def generate_export(code) -> None:
    """Fills an `export/<submodule>` block: re-export the submodule's names and its __all__."""
    mod = code.param
    code.lines = [
        code.lines[0],
        "# fmt: off",
        "# isort: off",
        f"from .{mod} import *  # noqa: F403",
        f"from .{mod} import __all__ as {mod}__all__",
        'if "__all__" not in globals():',
        "    __all__ = []",
        f"__all__.extend({mod}__all__)",
        "# isort: on",
        "# fmt: on",
        code.lines[-1],
    ]


def read_ty_map(file, ty_map: dict) -> None:
    """Adds the file's `ty-map` directives (`A.B -> C.D`) to ty_map."""
    for code in file.code_blocks:
        if code.kind == "directive" and code.param[0] == "ty-map":
            lhs, arrow, rhs = code.param[1].partition("->")
            if not arrow or not lhs.strip() or not rhs.strip() or "->" in rhs:
                raise StubError(
                    f"{file.path}: Invalid ty_map format at line {code.lineno_start}. "
                    "Example: `A.B -> C.D`"
                )
            ty_map[lhs.strip()] = rhs.strip()


def process_file(file, opt, ty_map: dict, global_funcs: dict) -> bool:
    """Regenerates every block of `file` (written unless dry_run); True when it changed.

    StubError for a directive this generator does not know, a prefix no global function has,
    a type key that is not registered.
    """
    imports: list = []
    defined_funcs: set = set()
    defined_types: set = set()
    for code in file.code_blocks:
        if code.kind != "directive" or code.param[0] == "ty-map":
            continue
        name, payload = code.param
        where = f"{file.path}: line {code.lineno_start}"
        if name != "import-object":
            raise StubError(f"{where}: Unknown directive `{name}` (known: ty-map, import-object)")
        parts = [p.strip() for p in payload.split(";")]
        full_name, checking, alias = (parts + ["", ""])[:3]
        if not full_name or len(parts) > 3:
            raise StubError(
                f"{where}: `import-object` takes `<full name>;<type checking only>;<alias>`, "
                f"got {payload!r}"
            )
        imports.append(ImportItem(full_name, checking.lower() == "true", alias or None))
    for code in file.code_blocks:
        if code.kind == "global":
            funcs = global_funcs.get(code.param[0])
            if not funcs:
                raise StubError(
                    f"{file.path}: line {code.lineno_start}: no global function is registered "
                    f"under the prefix `{code.param[0]}` (load its library with --dlls or its "
                    "module with --imports)"
                )
            defined_funcs.update(f.schema.name for f in funcs)
            generate_global_funcs(code, funcs, ty_map, imports, opt)
    for code in file.code_blocks:
        if code.kind == "object":
            if object_type_key_to_index(code.param) is None:
                raise StubError(
                    f"{file.path}: line {code.lineno_start}: object type `{code.param}` is not "
                    "registered (load its library with --dlls or its module with --imports)"
                )
            info = object_info_from_type_key(code.param)
            defined_types.add(ImportItem(ty_map.get(code.param, code.param)).full_name)
            generate_object(code, ty_map, imports, opt, info)
    for code in file.code_blocks:
        if code.kind == "import-section":
            generate_import_section(code, imports, opt, defined_types)
            break
    for code in file.code_blocks:
        if code.kind == "__all__":
            generate_all(code, defined_funcs | defined_types, opt)
            break
    for code in file.code_blocks:
        if code.kind == "export":
            generate_export(code)
    return file.update(verbose=opt.verbose, dry_run=opt.dry_run)
