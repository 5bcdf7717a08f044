"""RustGenerator: the `--target rust` code generator (the object and import blocks of .rs files)."""

from __future__ import annotations

from pathlib import Path

from .. import consts as C
from ..file_utils import StubError
from .codegen import (
    finalize_rust_module_tree,
    generate_rust_api_file,
    generate_rust_import_section,
    generate_rust_object,
)
from .consts import RUST_DIRECTIVE_KINDS, RUST_TY_MAP_DEFAULTS
from .utils import RustImports, RustUse, check_tokens, is_crate_type_key, rust_module_path


class RustGenerator:
    """Emits Rust bindings of reflected objects; its collector is a RustImports."""

    name = "rust"
    syntax = C.RUST_SYNTAX
    source_exts = frozenset({".rs"})
    directive_kinds = RUST_DIRECTIVE_KINDS

    def __repr__(self) -> str:
        return "RustGenerator()"

    def default_ty_map(self) -> dict[str, str]:
        return dict(RUST_TY_MAP_DEFAULTS)

    def new_imports(self) -> RustImports:
        return RustImports()

    def add_directive(self, imports: RustImports, name: str, payload: str, lineno: int) -> None:
        """`import-object` records a `use` of its first `;` field; the others go to the file's
        Directives (ValueError for a malformed one)."""
        if name == "import-object":
            path = payload.split(";", 1)[0].strip()
            if not path:
                raise StubError(f"line {lineno}: `import-object` needs a path, got {payload!r}")
            imports.record(path)
            return
        imports.directives.add(name, payload, lineno)

    def canonical_type_name(self, type_key: str) -> str:
        """The Rust path of a type key (as RustUse spells it)."""
        return RustUse(type_key).path

    def extra_export_names(self, imports: RustImports) -> set[str]:
        return set()

    def is_builtin(self, type_key: str) -> bool:
        """Every `ffi.*` key: the tvm_ffi crate binds it."""
        return is_crate_type_key(type_key)

    def check_view(self, code_blocks) -> dict:
        """What the object blocks and the import section define, not how they spell it: a run
        that only changes `use` lines, comments, layout or module paths leaves a file fresh."""
        return {
            (c.kind, c.param): check_tokens(c.lines)
            for c in code_blocks
            if c.kind in ("object", "import-section")
        }

    def generate_global_funcs_block(self, code, global_funcs, ty_map, imports, opt) -> None:
        """Nothing: Rust reaches global functions through `cached_global_func!`."""

    def generate_object_block(self, code, ty_map, imports, opt, obj_info, declared) -> None:
        """The binding of `obj_info`; `declared` (type key -> file) gives each type's module."""
        modules = {key: rust_module_path(Path(path)) for key, path in declared.items()}
        generate_rust_object(code, ty_map, imports, opt, obj_info, modules)

    def generate_import_section_block(self, code, imports, opt, defined_types) -> None:
        generate_rust_import_section(code, imports, opt, defined_types)

    def generate_all_block(self, code, names, opt) -> None:
        """Nothing: Rust re-exports are not generated."""

    def generate_export_block(self, code) -> None:
        """Nothing: submodule re-exports are not generated."""

    def generate_helpers_block(self, code, opt) -> None:
        """Nothing: the bindings need no per-file support code."""

    def api_filename(self) -> str:
        """One `mod.rs` per module prefix."""
        return "mod.rs"

    def init_filename(self) -> str:
        """The API file is the module entry."""
        return "mod.rs"

    def generate_api_file(
        self, code_blocks, ty_map, module_name, object_infos, init_cfg, is_root
    ) -> str:
        return generate_rust_api_file(
            code_blocks, ty_map, module_name, object_infos, init_cfg, is_root, self.syntax
        )

    def generate_init_file(self, code_blocks, module_name, submodule) -> str:
        """Nothing: the API file is the module entry."""
        return ""

    def finalize_init(self, init_path, generated_prefixes) -> None:
        """Declares the generated module tree (`pub mod <child>;` in each parent's mod.rs)."""
        finalize_rust_module_tree(Path(init_path), generated_prefixes)


__all__ = [
    "RustGenerator",
    "RustImports",
    "RustUse",
    "check_tokens",
    "finalize_rust_module_tree",
    "generate_rust_api_file",
    "generate_rust_import_section",
    "generate_rust_object",
    "is_crate_type_key",
    "rust_module_path",
]
