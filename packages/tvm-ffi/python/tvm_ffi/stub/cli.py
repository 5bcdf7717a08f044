"""The tvm-ffi-stubgen command line: fills `tvm-ffi-stubgen(begin)` blocks in place (or scaffolds
a package with --init-*, or writes a layout coverage report), through the --target generator."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from . import consts as C
from .file_utils import CodeBlock, FileInfo, StubError, collect_files, syntax_for
from .generator import generator_names, get_generator
from .layout import classify, write_coverage_report
from .lib_state import (
    collect_global_funcs,
    collect_type_keys,
    object_info_from_type_key,
    object_type_key_to_index,
    toposort_objects,
)
from .utils import FuncInfo, InitConfig, Options


def _split(arg: str) -> list[str]:
    return [item.strip() for item in (arg or "").split(";") if item.strip()]


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawTextHelpFormatter):
    """Shows defaults and keeps the description's line breaks."""


def _parse_args(argv=None) -> Options:
    p = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen",
        description=(
            "Generate type stubs for TVM FFI extensions. It supports two modes\n"
            "- In `--init-*` mode, it generates missing `_ffi_api.py` and `__init__.py` files, "
            "based on the registered global functions and object types in the loaded "
            "libraries.\n"
            "- In normal mode, it processes the given files/directories in-place, generating "
            "type stubs inside special `tvm-ffi-stubgen` directive blocks.\n\n"
            f"Documentation: {C.TERM_CYAN}{C.DOC_URL}{C.TERM_RESET}."
        ),
        formatter_class=_HelpFormatter,
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="PATH",
        help=(
            "Files or directories to process. Directories are scanned recursively; only files "
            "with the target's source extensions (.py and .pyi for python) are modified. Use "
            "tvm-ffi-stubgen directives to select where stubs are generated."
        ),
    )
    p.add_argument(
        "--imports",
        default="",
        metavar="IMPORTS",
        help="Additional imports to load before generation, separated by ';' (e.g. 'pkgA;pkgB').",
    )
    p.add_argument(
        "--dlls",
        default="",
        metavar="LIBS",
        help=(
            "Shared libraries to preload before generation (your extension), separated by ';', "
            "so that their global functions and object types are registered."
        ),
    )
    p.add_argument(
        "--init-pypkg",
        default="",
        help=(
            "Python package name to generate stubs for (e.g. apache-tvm-ffi). Required "
            "together with --init-lib and --init-prefix."
        ),
    )
    p.add_argument(
        "--init-lib",
        default="",
        help=(
            "CMake target that produces the shared library to load for stub generation (e.g. "
            "tvm_ffi_shared). Required together with --init-pypkg and --init-prefix."
        ),
    )
    p.add_argument(
        "--init-prefix",
        default="",
        help=(
            "Global function/object prefix to include when generating stubs (e.g. tvm_ffi.). "
            "Required together with --init-pypkg and --init-lib."
        ),
    )
    p.add_argument(
        "--indent",
        type=int,
        default=4,
        help="Extra spaces inside each generated block, relative to its 'begin' marker line.",
    )
    p.add_argument(
        "--target", choices=generator_names(), default="python", help="Code generator target."
    )
    p.add_argument("--verbose", action="store_true", help="Print a unified diff of each change.")
    p.add_argument("--dry-run", action="store_true", help="Don't write changes to files.")
    p.add_argument(
        "--check",
        action="store_true",
        help=(
            "Don't write changes; report every file whose stub blocks are out of date and exit "
            "with status 1 if there is any. Cannot be combined with --init-*."
        ),
    )
    p.add_argument(
        "--coverage-out",
        default=None,
        metavar="JSON",
        help=(
            "Write a JSON report classifying every registered object type by whether its "
            "native memory layout can be reproduced from reflection (complete) or not "
            "(opaque), with the byte evidence. May be used without PATH arguments."
        ),
    )
    args = p.parse_args(argv)
    if args.indent < 0:
        p.error(f"argument --indent: must be >= 0, got {args.indent}")
    init_args = (args.init_pypkg, args.init_lib, args.init_prefix)
    init = None
    if any(init_args):
        if not all(init_args):
            p.error("--init-pypkg, --init-lib, and --init-prefix must be provided together")
        if args.check:
            p.error("--check cannot be combined with --init-* flags")
        init = InitConfig(*init_args)
    return Options(
        imports=_split(args.imports),
        dlls=_split(args.dlls),
        init=init,
        indent=args.indent,
        files=args.files,
        verbose=args.verbose,
        dry_run=args.dry_run or args.check,
        check=args.check,
        target=args.target,
        coverage_out=args.coverage_out,
    )


def _error(message: str) -> None:
    print(f"tvm-ffi-stubgen: error: {message}", file=sys.stderr)


def _note(kind: str, message: str) -> None:
    print(f"[{kind}] {message}")


def _object_keys() -> list[str]:
    """Every registered object type key (POD kinds left out)."""
    keys = [k for group in collect_type_keys().values() for k in group]
    return sorted(k for k in set(keys) if object_type_key_to_index(k) is not None)


def _write_coverage(path: Path) -> None:
    infos = {k: object_info_from_type_key(k) for k in _object_keys()}
    write_coverage_report(path, classify(infos))


def _new_blocks(syntax, lineno: int, stub: str) -> list[CodeBlock]:
    """A blank line and an empty begin/end block for `stub`, to insert into a file."""
    block = CodeBlock.from_begin_line(lineno, f"{syntax.begin} {stub}", syntax)
    block.lines = [f"{syntax.begin} {stub}", syntax.end]
    return [CodeBlock(None, "", lineno, lineno, [""]), block]


def _directives(file: FileInfo, name: str) -> list[CodeBlock]:
    return [c for c in file.code_blocks if c.kind == "directive" and c.param[0] == name]


def _declared_objects(files) -> dict[str, Path]:
    """The type key of every `object/` block in `files` -> the file it is in."""
    return {c.param: f.path for f in files for c in f.code_blocks if c.kind == "object"}


def _roll_out_prefix(file: FileInfo, generator, declared: dict) -> None:
    """For a file's `prefix: <p>` directive: append an `object/<key>` block (and an
    import-section when it has none) after the directive for each registered object directly
    under <p> that no file of the run declares, `skip` names, or the target binds itself; and
    drop the blocks under <p> whose type is no longer registered."""
    prefixes = _directives(file, "prefix")
    if not prefixes:
        return
    if len(prefixes) > 1:
        raise StubError(
            f"{file.path}: more than one `prefix` directive (line {prefixes[1].lineno_start})"
        )
    directive = prefixes[0]
    prefix = directive.param[1]
    registered = [k for k in _object_keys() if k.rpartition(".")[0] == prefix]
    if not registered:
        _note("Skipped", f"{file.path}: no registered object under prefix `{prefix}`")
    if not prefix:
        return
    skipped = {k for d in _directives(file, "skip") for k in _split(d.param[1])}
    kept = []
    for code in file.code_blocks:
        if code.kind == "object" and code.param.rpartition(".")[0] == prefix:
            if code.param not in registered:
                _note(
                    "Removed",
                    f"{file.path}: `object/{code.param}` (line {code.lineno_start}): the type is "
                    "no longer registered",
                )
                declared.pop(code.param, None)
                continue
        kept.append(code)
    new: list[CodeBlock] = []
    syntax = file.syntax
    for key in registered:
        if key in declared or key in skipped or generator.is_builtin(key):
            continue
        new += _new_blocks(syntax, directive.lineno_start, f"object/{key}")
        declared[key] = file.path
    if new and not any(c.kind == "import-section" for c in kept):
        new = _new_blocks(syntax, directive.lineno_start, "import-section") + new
    at = kept.index(directive) + 1
    file.code_blocks = kept[:at] + new + kept[at:]


def _read_ty_map(file: FileInfo, ty_map: dict) -> None:
    """Adds the file's `ty-map` directives (`A.B -> C.D`) to ty_map."""
    for code in _directives(file, "ty-map"):
        lhs, arrow, rhs = code.param[1].partition("->")
        if not arrow or not lhs.strip() or not rhs.strip() or "->" in rhs:
            raise StubError(
                f"{file.path}: Invalid ty_map format at line {code.lineno_start}. "
                "Example: `A.B -> C.D`"
            )
        ty_map[lhs.strip()] = rhs.strip()


def _process_file(file: FileInfo, opt, ty_map, global_funcs, generator, declared) -> bool:
    """Regenerates the blocks of `file` (written unless dry_run); True when what --check
    compares changed. StubError for a bad directive or an object type that is not registered
    (reported after the rest of the file is generated and written)."""
    before = generator.check_view(file.code_blocks)
    imports = generator.new_imports()
    for code in file.code_blocks:
        if code.kind != "directive" or code.param[0] in C.PIPELINE_DIRECTIVE_KINDS:
            continue
        try:
            generator.add_directive(imports, code.param[0], code.param[1], code.lineno_start)
        except ValueError as err:  # StubError is one
            raise StubError(f"{file.path}: {err}") from None
    defined_funcs: set[str] = set()
    defined_types: set[str] = set()
    for code in file.code_blocks:
        if code.kind == "global":
            funcs = global_funcs.get(code.param[0])
            if not funcs:
                print(
                    f"tvm-ffi-stubgen: warning: {file.path}: line {code.lineno_start}: no global "
                    f"function is registered under the prefix `{code.param[0]}`; block left as is",
                    file=sys.stderr,
                )
                continue
            defined_funcs.update(f.schema.name for f in funcs)
            generator.generate_global_funcs_block(code, funcs, ty_map, imports, opt)
    missing = []
    for code in file.code_blocks:
        if code.kind == "object":
            if object_type_key_to_index(code.param) is None:
                missing.append(code)
                continue
            info = object_info_from_type_key(code.param)
            defined_types.add(generator.canonical_type_name(ty_map.get(code.param, code.param)))
            generator.generate_object_block(code, ty_map, imports, opt, info, declared)
    for code in file.code_blocks:
        if code.kind == "import-section":
            generator.generate_import_section_block(code, imports, opt, defined_types)
            break
    names = defined_funcs | defined_types | generator.extra_export_names(imports)
    for code in file.code_blocks:
        if code.kind == "__all__":
            generator.generate_all_block(code, names, opt)
            break
    for code in file.code_blocks:
        if code.kind == "export":
            generator.generate_export_block(code)
    changed = generator.check_view(file.code_blocks) != before
    file.update(verbose=opt.verbose, dry_run=opt.dry_run)
    if missing:
        raise StubError(
            "; ".join(
                f"{file.path}: line {c.lineno_start}: object type `{c.param}` is not registered "
                "(load its library with --dlls or its module with --imports, or delete the "
                "block)"
                for c in missing
            )
        )
    return changed


def _scaffold(opt: Options, init_path: Path, global_funcs: dict, generator) -> set[str]:
    """--init-*: for each module (a prefix of registered functions or object types) under the
    init prefix, writes an API file and a package entry with empty blocks, unless the file has
    stub directives already (a file without any gets them appended)."""
    cfg = opt.init
    root = cfg.prefix.rstrip(".")
    type_keys = collect_type_keys()
    # Modules: the prefixes of functions and of objects the target does not bind itself.
    owned = [
        prefix
        for prefix, keys in type_keys.items()
        if any(not generator.is_builtin(k) and object_type_key_to_index(k) for k in keys)
    ]
    modules = {
        m for m in [*global_funcs, *owned] if root and (m == root or m.startswith(root + "."))
    }
    ty_map = generator.default_ty_map()
    api_name = generator.api_filename()
    for module in sorted(modules):
        folder = init_path.joinpath(*module.split("."))
        folder.mkdir(parents=True, exist_ok=True)
        api = folder / api_name
        if _has_directives(api):
            continue  # scaffolded already: the block pass below keeps it up to date
        blocks = _blocks_of(api)
        declared = {c.param for c in blocks if c.kind == "object"}
        keys = [
            k
            for k in type_keys.get(module, [])
            if k not in declared
            and not generator.is_builtin(k)
            and object_type_key_to_index(k) is not None
        ]
        text = generator.generate_api_file(
            blocks, ty_map, module, toposort_objects(keys), cfg, module == root
        )
        _append(api, text)
        entry = folder / generator.init_filename()
        if _has_directives(entry):
            continue
        _append(entry, generator.generate_init_file(_blocks_of(entry), module, Path(api_name).stem))
    generator.finalize_init(init_path, modules)
    return modules


def _has_directives(path: Path) -> bool:
    return path.exists() and FileInfo.from_file(path) is not None


def _blocks_of(path: Path) -> list[CodeBlock]:
    if not path.exists():
        return []
    info = FileInfo.from_file(path, include_empty=True)
    return info.code_blocks if info is not None else []


def _append(path: Path, text: str) -> None:
    if text:
        with path.open("a", encoding="utf-8") as out:
            out.write(text)


def main(argv=None) -> int:
    """Runs tvm-ffi-stubgen: 0 when done (or nothing is stale), 1 when --check finds a stale
    file, 2 when an input is bad (the error is printed to stderr)."""
    opt = _parse_args(argv)
    from .. import load_module

    generator = get_generator(opt.target)
    try:
        for name in opt.imports:
            importlib.import_module(name)
        # Kept referenced while the stubs are generated, so the libraries stay loaded.
        libs = [load_module(lib) for lib in opt.dlls]
        if opt.coverage_out:
            _write_coverage(Path(opt.coverage_out))
        global_funcs = collect_global_funcs()
        if opt.init is not None:
            if len(opt.files) != 1:
                raise StubError("--init-* takes exactly one PATH: the folder to scaffold in")
            _scaffold(opt, Path(opt.files[0]), global_funcs, generator)
        files = collect_files([Path(f) for f in opt.files], generator.source_exts)
    except (StubError, ImportError, OSError, ValueError, RuntimeError) as err:
        _error(str(err))
        return 2
    ty_map = generator.default_ty_map()
    failed = stale = 0
    for file in files:
        try:
            _read_ty_map(file, ty_map)
        except StubError as err:
            failed += 1
            _error(str(err))
    declared = _declared_objects(files)
    for file in files:
        try:
            _roll_out_prefix(file, generator, declared)
        except StubError as err:
            failed += 1
            _error(str(err))
    for file in files:
        try:
            changed = _process_file(file, opt, ty_map, global_funcs, generator, declared)
        except (StubError, ValueError, KeyError, TypeError) as err:
            failed += 1
            _error(str(err))
            continue
        if changed and opt.check:
            stale += 1
            print(f"[Stale] {file.path}")
    del libs
    return 2 if failed else 1 if stale else 0


def __main__() -> int:
    """The console script's entry point (upstream's name): main() on sys.argv."""
    return main()


__all__ = [
    "CodeBlock",
    "FileInfo",
    "FuncInfo",
    "InitConfig",
    "Options",
    "classify",
    "collect_files",
    "collect_global_funcs",
    "collect_type_keys",
    "generator_names",
    "get_generator",
    "main",
    "object_info_from_type_key",
    "syntax_for",
    "toposort_objects",
    "write_coverage_report",
]


if __name__ == "__main__":
    sys.exit(__main__())
