"""Fills the Python stub blocks (global functions, objects, imports, __all__, exports) and writes
the `--init` scaffolds (`_ffi_api.py`, `__init__.py`)."""

from __future__ import annotations

from ..file_utils import CodeBlock
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from .utils import (
    ImportItem,
    _input_ty_map,
    _namer,
    render_func_signature,
    render_object_ffi_init,
    render_object_fields,
    render_object_init,
    render_object_methods,
)


def _replace_body(code, body: list[str]) -> None:
    pad = " " * code.indent
    code.lines = [code.lines[0], *[pad + line for line in body], code.lines[-1]]


def generate_python_global_funcs(code, global_funcs, ty_map: dict, imports: list, opt) -> None:
    """Fills a `global/<prefix>[@<module>]` block: bind the prefix, stub each function."""
    prefix, import_from = code.param
    imports.append(ImportItem(f"{import_from or 'tvm_ffi'}.init_ffi_api", alias="_FFI_INIT_FUNC"))
    imports.append(ImportItem("typing.TYPE_CHECKING"))
    names = {f.schema.name.rsplit(".", 1)[-1] for f in global_funcs}
    name_of = _namer(ty_map, imports, names)
    input_name_of = _namer(_input_ty_map(ty_map), imports, names)
    body = ["# fmt: off", f'_FFI_INIT_FUNC("{prefix}", __name__)', "if TYPE_CHECKING:"]
    body += [render_func_signature(f, name_of, opt.indent, input_name_of) for f in global_funcs]
    _replace_body(code, [*body, "# fmt: on"])


def generate_python_object(code, ty_map: dict, imports: list, opt, obj_info) -> None:
    info = obj_info
    """Fills an `object/<type_key>` block: typed fields, then `__init__` and methods."""
    names = {m.schema.name for m in info.methods}
    name_of = _namer(ty_map, imports, names)
    input_name_of = _namer(_input_ty_map(ty_map), imports, names)
    checking = [
        *render_object_init(info, name_of, opt.indent, input_name_of),
        *render_object_ffi_init(info, name_of, opt.indent, input_name_of),
        *render_object_methods(info, name_of, opt.indent, input_name_of),
    ]
    body = ["# fmt: off", *render_object_fields(info, name_of, 0)]
    if checking:
        imports.append(ImportItem("typing.TYPE_CHECKING"))
        body += ["if TYPE_CHECKING:", *checking]
    _replace_body(code, [*body, "# fmt: on"])


def generate_python_import_section(code, imports: list, opt) -> None:
    """Fills the `import-section` block with `imports` (the types the other blocks use)."""
    concrete: dict[str, list] = {}
    checking: dict[str, list] = {}
    for item in imports:
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


def generate_python_all(code, names: set, opt) -> None:
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


def generate_python_export(code) -> None:
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


def _has_block(code_blocks, kind: str, param=None) -> bool:
    return any(
        c.kind == kind and (param is None or c.param == param or c.param[:1] == (param,))
        for c in code_blocks
    )


def generate_python_ffi_api(
    code_blocks, ty_map: dict, module_name: str, object_infos, init_cfg, is_root: bool, syntax
) -> str:
    """The text `--init` appends to `<module>/_ffi_api.py` (all of it for a new, empty file).

    Adds what the file lacks: the docstring (new file), an import-section block, the library
    load (root module), a `global/<module_name>` block, a class with an `object/<key>` block for
    each of `object_infos`, and an `__all__` block. '' when nothing is missing.
    """
    lines: list[str] = []
    if not code_blocks:
        lines.append(f'"""FFI API bindings for {module_name}."""')
    if not _has_block(code_blocks, "import-section"):
        lines += ["", f"{syntax.begin} import-section", syntax.end]
    if is_root:
        lines.append(f"{syntax.import_object} tvm_ffi.libinfo.load_lib_module;False;_FFI_LOAD_LIB")
        lines.append(f'LIB = _FFI_LOAD_LIB("{init_cfg.pkg}", "{init_cfg.shared_target}")')
    if not _has_block(code_blocks, "global", module_name):
        lines += [f"{syntax.begin} global/{module_name}", syntax.end]
    defined: set[str] = set()  # a parent defined earlier in this file is its class name
    for i, info in enumerate(object_infos):
        if i == 0:
            lines.append(f"{syntax.import_object} tvm_ffi.register_object;False;_FFI_REG_OBJ")
        if info.parent_type_key in defined:
            base = info.parent_type_key.rsplit(".", 1)[-1]
        else:
            parent = ty_map.get(info.parent_type_key, info.parent_type_key)
            base = "_" + parent.replace(".", "_")
            lines.append(f"{syntax.import_object} {parent};False;{base}")
        defined.add(info.type_key)
        lines += [
            f'@_FFI_REG_OBJ("{info.type_key}")',
            f"class {info.type_key.rsplit('.', 1)[-1]}({base}):",
            f'    """FFI binding for `{info.type_key}`."""',
            "",
            f"    {syntax.begin} object/{info.type_key}",
            f"    {syntax.end}",
            "",
        ]
    if not _has_block(code_blocks, "__all__"):
        lines += ["", "__all__ = [", f"    {syntax.begin} __all__", f"    {syntax.end}", "]"]
    return "\n".join(lines) + "\n" if lines else ""


def generate_python_init(code_blocks, module_name: str, submodule: str, syntax) -> str:
    """The text `--init` appends to a package's `__init__.py`: its docstring (new file) and an
    `export/<submodule>` block re-exporting the API module, unless it has one. '' otherwise."""
    lines: list[str] = []
    if not code_blocks:
        lines.append(f'"""Package {module_name}."""')
    if not _has_block(code_blocks, "export", submodule):
        lines += ["", f"{syntax.begin} export/{submodule}", syntax.end]
    return "\n".join(lines) + "\n" if lines else ""


__all__ = [
    "CodeBlock",
    "FuncInfo",
    "ImportItem",
    "InitConfig",
    "ObjectInfo",
    "Options",
    "generate_python_all",
    "generate_python_export",
    "generate_python_ffi_api",
    "generate_python_global_funcs",
    "generate_python_import_section",
    "generate_python_init",
    "generate_python_object",
    "render_func_signature",
    "render_object_ffi_init",
    "render_object_fields",
    "render_object_init",
    "render_object_methods",
]
