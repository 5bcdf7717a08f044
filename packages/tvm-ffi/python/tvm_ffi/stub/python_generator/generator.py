"""PythonGenerator: the `--target python` code generator (the stub blocks of .py/.pyi files)."""

from __future__ import annotations

from .. import consts as C
from ..file_utils import StubError
from . import codegen
from .consts import TY_MAP_DEFAULTS
from .utils import ImportItem, PythonImports


class PythonGenerator:
    """Emits Python type stubs; its import collector is a PythonImports."""

    name = "python"
    syntax = C.PYTHON_SYNTAX
    source_exts = frozenset({".py", ".pyi"})
    directive_kinds = C.PYTHON_DIRECTIVE_KINDS

    def __repr__(self) -> str:
        return "PythonGenerator()"

    def default_ty_map(self) -> dict[str, str]:
        """FFI origin -> Python type name (a fresh copy: ty-map directives add to it)."""
        return dict(TY_MAP_DEFAULTS)

    def new_imports(self) -> PythonImports:
        return PythonImports()

    def add_directive(self, imports: PythonImports, name: str, payload: str, lineno: int) -> None:
        """Records `import-object: <full name>;<type checking only>;<alias>` (StubError when
        `name` is not a directive of this generator or the payload is malformed)."""
        if name not in self.directive_kinds:
            raise StubError(
                f"line {lineno}: Unknown directive `{name}` (known: "
                f"{', '.join(sorted(C.PIPELINE_DIRECTIVE_KINDS | self.directive_kinds))})"
            )
        parts = [p.strip() for p in payload.split(";")]
        full_name, checking, alias = (parts + ["", ""])[:3]
        if not full_name or len(parts) > 3:
            raise StubError(
                f"line {lineno}: `import-object` takes `<full name>;<type checking only>;<alias>`,"
                f" got {payload!r}"
            )
        imports.items.append(ImportItem(full_name, checking.lower() == "true", alias or None))
        if full_name.endswith(".load_lib_module"):
            imports.has_lib_load = True

    def canonical_type_name(self, type_key: str) -> str:
        """The full Python name a defined type key is imported under (MOD_MAP applied)."""
        return ImportItem(type_key).full_name

    def extra_export_names(self, imports: PythonImports) -> set[str]:
        """`LIB` when the file loads its library (an `--init` API module exports it)."""
        return {"LIB"} if imports.has_lib_load else set()

    def is_builtin(self, type_key: str) -> bool:
        return type_key in C.BUILTIN_TYPE_KEYS

    def check_view(self, code_blocks) -> tuple[str, ...]:
        """The whole text: any change to a stub block makes the file stale."""
        return tuple(line for block in code_blocks for line in block.lines)

    def generate_global_funcs_block(self, code, global_funcs, ty_map, imports, opt) -> None:
        codegen.generate_python_global_funcs(code, global_funcs, ty_map, imports.items, opt)

    def generate_object_block(self, code, ty_map, imports, opt, obj_info, declared) -> None:
        codegen.generate_python_object(code, ty_map, imports.items, opt, obj_info)

    def generate_import_section_block(self, code, imports, opt, defined_types) -> None:
        """Imports what the other blocks use, but the types this file defines itself."""
        items = [i for i in imports.items if i.full_name not in defined_types]
        codegen.generate_python_import_section(code, items, opt)

    def generate_all_block(self, code, names, opt) -> None:
        codegen.generate_python_all(code, names, opt)

    def generate_export_block(self, code) -> None:
        codegen.generate_python_export(code)

    def generate_helpers_block(self, code, opt) -> None:
        """Nothing: Python files have no helpers block."""

    def api_filename(self) -> str:
        return "_ffi_api.py"

    def init_filename(self) -> str:
        return "__init__.py"

    def generate_api_file(
        self, code_blocks, ty_map, module_name, object_infos, init_cfg, is_root
    ) -> str:
        return codegen.generate_python_ffi_api(
            code_blocks, ty_map, module_name, object_infos, init_cfg, is_root, self.syntax
        )

    def generate_init_file(self, code_blocks, module_name, submodule) -> str:
        return codegen.generate_python_init(code_blocks, module_name, submodule, self.syntax)

    def finalize_init(self, init_path, generated_prefixes) -> None:
        """Nothing: a Python package needs no parent-declares-child wiring."""


__all__ = ["ImportItem", "PythonGenerator", "PythonImports"]
