"""The Generator protocol of tvm-ffi-stubgen's targets, and the registry `--target` picks from.

The pipeline (cli.py) reads the registry and the marker blocks; a Generator turns that
language-neutral metadata into one language's text and owns that language's imports (an opaque
collector made by `new_imports`). A new language is one more Generator.
"""

from __future__ import annotations

from typing import Any, Protocol

from .python_generator.generator import PythonGenerator
from .rust_generator.generator import RustGenerator


class Generator(Protocol):
    """What the pipeline asks of a target language.

    `*_block` methods rewrite `code.lines` in place (the text between the begin / end markers);
    `*_file` methods return the text `--init` appends to a scaffolded file. A generator keeps
    no state across files: `imports` is the per-file collector `new_imports` made.
    """

    name: str
    syntax: Any
    source_exts: frozenset
    directive_kinds: frozenset

    def default_ty_map(self) -> dict[str, str]:
        """FFI origin -> this language's type name."""

    def new_imports(self) -> Any:
        """An empty import collector for one file."""

    def add_directive(self, imports: Any, name: str, payload: str, lineno: int) -> None:
        """Records one of `directive_kinds` (its raw payload) into `imports`."""

    def canonical_type_name(self, type_key: str) -> str:
        """The name a type the file defines is compared (and exported) under."""

    def extra_export_names(self, imports: Any) -> set[str]:
        """Public names the collected imports imply."""

    def is_builtin(self, type_key: str) -> bool:
        """Whether the target's runtime binds `type_key` itself (no `object/` block for it)."""

    def check_view(self, code_blocks: list) -> object:
        """What `--check` compares: the file is stale when a run changes it."""

    def generate_global_funcs_block(self, code, global_funcs, ty_map, imports, opt) -> None:
        """A `global/<prefix>` block: the free functions."""

    def generate_object_block(self, code, ty_map, imports, opt, obj_info, declared) -> None:
        """An `object/<key>` block; `declared` maps every type key with a block to its file."""

    def generate_import_section_block(self, code, imports, opt, defined_types) -> None:
        """The `import-section` block, leaving out the types in `defined_types`."""

    def generate_all_block(self, code, names, opt) -> None:
        """The public-export list."""

    def generate_export_block(self, code) -> None:
        """An `export/<submodule>` block."""

    def generate_helpers_block(self, code, opt) -> None:
        """Per-file support code, for targets that have a helpers block."""

    def api_filename(self) -> str:
        """The file name `--init` scaffolds the API in."""

    def init_filename(self) -> str:
        """The package entry file name `--init` scaffolds."""

    def generate_api_file(
        self, code_blocks, ty_map, module_name, object_infos, init_cfg, is_root
    ) -> str:
        """Text appended to a scaffolded API file."""

    def generate_init_file(self, code_blocks, module_name, submodule) -> str:
        """Text appended to a scaffolded package entry."""

    def finalize_init(self, init_path, generated_prefixes) -> None:
        """Called after `--init` created its files."""


# One stateless instance per target.
_GENERATORS: dict[str, Generator] = {"python": PythonGenerator(), "rust": RustGenerator()}


def generator_names() -> list[str]:
    """The registered target names, sorted (the `--target` choices)."""
    return sorted(_GENERATORS)


def get_generator(target: str) -> Generator:
    """The generator of `target`; ValueError naming the known ones for any other."""
    gen = _GENERATORS.get(target) if isinstance(target, str) else None
    if gen is None:
        raise ValueError(
            f"Unknown stubgen generator: {target!r}. Known generators: "
            f"{', '.join(generator_names())}"
        )
    return gen


__all__ = ["Generator", "PythonGenerator", "RustGenerator", "generator_names", "get_generator"]
