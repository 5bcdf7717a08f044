"""Rust code generation: an `object/<key>` block becomes a `#[repr(C)]` object struct, a
reference wrapper, Deref impls, field getters and the upcasts along its ancestor chain; the
import-section block gets the `use` lines and the stand-ins for builtin bases; `--init`
scaffolds one `mod.rs` per module prefix and declares the module tree.

The object struct follows the layout verdict (tvm_ffi.stub.layout). An *opaque* struct embeds
only its parent and reads each field through the C ABI getter (a field with no Rust mirror is
read as Any). A *complete* one would mirror every field at its offset; this registry records
no native sizeof for any type but the root, so every verdict it yields is opaque, and the
complete form is not generated (NotImplementedError).

Every type key a binding refers to (parent, ancestors, field types) must come from the same
run: `ffi.*` from the tvm_ffi crate, a `ty-map` from a hand-written binding whose object struct
is `<Name>Obj`, anything else from an `object/` block; a generated type is named from the
module of its file: the bare name there, a `crate::` path elsewhere.
"""

from __future__ import annotations

from pathlib import Path

from ..layout import Verdict, classify
from ..lib_state import object_info_from_type_key
from .consts import RUST_ROOT_TYPE_KEY, RUST_SCALAR_WIDTHS
from .utils import (
    RustImports,
    builtin_mirror_name,
    is_crate_type_key,
    render_rust_type,
    rust_ident,
)

_GETTER_NOTE = "Fields are read through the C ABI getters."


class _Binding:
    """Names and renders one object block's type against the run's declarations."""

    def __init__(self, code, ty_map, imports: RustImports, obj_info, declared) -> None:
        self.code = code
        self.ty_map = ty_map
        self.imports = imports
        self.info = obj_info
        self.declared = declared
        self.module = declared[obj_info.type_key]
        self.missing: list[str] = []

    # -- names ---------------------------------------------------------------------------
    def type_name(self, key: str, suffix: str = "") -> str:
        """How this file spells the wrapper (or, with suffix "Obj", the object) of `key`."""
        if key in self.ty_map:
            return self.imports.record(self.ty_map[key] + suffix)
        module = self.declared.get(key)
        if module is None:
            if key not in self.missing:
                self.missing.append(key)
            return key.rsplit(".", 1)[-1] + suffix
        leaf = key.rsplit(".", 1)[-1] + suffix
        if tuple(module) == tuple(self.module):
            return leaf
        return self.imports.record("::".join(module) + "::" + leaf)

    def leaf(self, origin: str, type_key, record: bool = True):
        """The Rust name of a schema leaf, or None when Rust has no mirror of it."""
        for name in (type_key, origin):
            if name is not None and name in self.ty_map:
                target = self.ty_map[name]
                return self.imports.record(target) if record else target
        if origin in self.declared:
            return self.type_name(origin) if record else origin
        if "." in origin and not is_crate_type_key(origin) and not origin.startswith("ctypes."):
            if record:
                self.type_name(origin)  # not provided by this run: reported as missing
            return origin
        return None

    def field_type(self, field, record: bool = True):
        """(Rust type, whether it is read as Any) of a field's getter."""
        key = f"{self.info.type_key}.{field.name}"
        directives = self.imports.directives
        override = directives.field_types.get(key)
        enum = directives.enums.get(key)
        if enum is not None:
            _check_width(key, field, enum.repr)
        if override is not None:
            _check_width(key, field, override)
            rendered = self.imports.record(override) if record else override
        else:
            rendered = render_rust_type(field, lambda o, k: self.leaf(o, k, record))
        if rendered is None or field.origin == "Any":
            if record:
                self.imports.record("tvm_ffi::Any")
            return "Any", True
        if key in directives.nullable and not rendered.startswith("Option<"):
            rendered = f"Option<{rendered}>"
        return rendered, False

    # -- verdict -------------------------------------------------------------------------
    def verdict(self) -> Verdict:
        chain = list(self.info.ancestors)
        infos = {key: object_info_from_type_key(key) for key in chain}
        infos[self.info.type_key] = self.info
        unmirrored = {k for k in infos if k != RUST_ROOT_TYPE_KEY and is_crate_type_key(k)}
        return classify(
            infos,
            forced_opaque=self.imports.directives.opaque,
            unmirrored=unmirrored,
            field_renderable=lambda f: not self._unrenderable(f),
        )[self.info.type_key]

    def _unrenderable(self, field) -> bool:
        if field.origin == "Any":
            return False
        if f"{self.info.type_key}.{field.name}" in self.imports.directives.field_types:
            return False
        return render_rust_type(field, lambda o, k: self.leaf(o, k, record=False)) is None

    # -- text ----------------------------------------------------------------------------
    def parent_obj(self) -> str:
        parent = self.info.parent_type_key
        if parent is None or parent == RUST_ROOT_TYPE_KEY:
            return self.imports.record("tvm_ffi::Object")
        if is_crate_type_key(parent):
            builtins = [a for a in self.info.ancestors if a != RUST_ROOT_TYPE_KEY]
            return self.imports.record_builtin_base(builtins)
        return self.type_name(parent, "Obj")

    def enum_lines(self) -> list[str]:
        out: list[str] = []
        for field in self.info.fields:
            spec = self.imports.directives.enums.get(f"{self.info.type_key}.{field.name}")
            if spec is None:
                continue
            raw, _ = self.field_type(field)
            error = self.imports.record("tvm_ffi::Error")
            value_error = self.imports.record("tvm_ffi::VALUE_ERROR")
            result = self.imports.record("tvm_ffi::Result")
            out += [
                "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]",
                "#[repr(transparent)]",
                f"pub struct {spec.name}({spec.repr});",
                "",
                "#[allow(non_upper_case_globals)]",
                f"impl {spec.name} {{",
                *[f"    pub const {m}: Self = Self({v});" for m, v in spec.members],
                f"    pub const fn from_raw(value: {spec.repr}) -> Self {{",
                "        Self(value)",
                "    }",
                f"    pub const fn as_raw(self) -> {spec.repr} {{",
                "        self.0",
                "    }",
                "}",
                "",
                f"impl TryFrom<{raw}> for {spec.name} {{",
                f"    type Error = {error};",
                f"    fn try_from(value: {raw}) -> {result}<Self> {{",
                f"        {spec.repr}::try_from(value).map(Self).map_err(|_| {{",
                f'            {error}::new({value_error}, &format!("{spec.name} value {{value}} '
                f'does not fit {spec.repr}"), "")',
                "        })",
                "    }",
                "}",
                "",
            ]
        return out

    def getter_lines(self) -> list[str]:
        if not self.info.fields:
            return []
        result = self.imports.record("tvm_ffi::Result")
        getter = self.imports.record("tvm_ffi::FieldGetter")
        self.imports.record("tvm_ffi::ObjectCore")  # Self::type_index()
        methods = []
        for field in self.info.fields:
            rust_type, as_any = self.field_type(field)
            spec = self.imports.directives.enums.get(f"{self.info.type_key}.{field.name}")
            call = f'{getter}::new(Self::type_index(), "{field.name}")?'
            head = f"    pub fn {rust_ident(field.name)}(&self) -> {result}<"
            if spec is not None:
                methods.append(
                    [
                        f"{head}{spec.name}> {{",
                        f"        let raw: {rust_type} = {call}.get(self)?;",
                        f"        {spec.name}::try_from(raw)",
                        "    }",
                    ]
                )
                continue
            read = "get_any" if as_any else "get"
            methods.append([f"{head}{rust_type}> {{", f"        {call}.{read}(self)", "    }"])
        lines = ["", f"impl {self.name}Obj {{"]
        for i, body in enumerate(methods):
            lines += ([""] if i else []) + body
        return [*lines, "}"]

    @property
    def name(self) -> str:
        return self.info.type_key.rsplit(".", 1)[-1]

    def body(self) -> list[str]:
        verdict = self.verdict()
        if verdict.is_complete:
            raise NotImplementedError(
                f"`{self.info.type_key}`: a complete (by-value) Rust layout is not generated "
                "here; add an `opaque` directive for it"
            )
        name = self.name
        deref = self.imports.record("std::ops::Deref")
        arc = self.imports.record("tvm_ffi::ObjectArc")
        parent = self.parent_obj()
        lines = self.enum_lines()
        lines += [
            f"/// Opaque: {verdict.detail}. {_GETTER_NOTE}",
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::Object)]",
            f'#[type_key = "{self.info.type_key}"]',
            *(["#[type_final]"] if self.info.is_final else []),
            f"pub struct {name}Obj {{",
            f"    base: {parent},",
            "}",
            "",
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::ObjectRef, Clone)]",
            f"pub struct {name} {{",
            f"    base: {arc}<{name}Obj>,",
            "}",
            "",
            *_deref(deref, name, f"{name}Obj"),
        ]
        own_parent = self.info.parent_type_key
        if own_parent not in (None, RUST_ROOT_TYPE_KEY) and not is_crate_type_key(own_parent):
            lines += ["", *_deref(deref, f"{name}Obj", parent)]
        lines += self.getter_lines()
        targets = [
            self.type_name(a)
            for a in self.info.ancestors
            if a != RUST_ROOT_TYPE_KEY and not is_crate_type_key(a)
        ]
        targets += [
            self.imports.record(t)
            for t in self.imports.directives.upcasts.get(self.info.type_key, [])
        ]
        if targets:
            pairs = ", ".join(f"{name} => {t}" for t in targets)
            lines += ["", f"tvm_ffi::impl_object_upcast!({pairs});"]
        return lines


def _check_width(key: str, field, rust_type: str) -> None:
    """A scalar a directive names must be as wide as the reflected field."""
    width = RUST_SCALAR_WIDTHS.get(rust_type)
    if width is not None and field.size is not None and width != field.size:
        raise ValueError(
            f"Directive on `{key}` maps a {field.size}-byte field to `{rust_type}` ({width} bytes)"
        )


def _deref(deref: str, owner: str, target: str) -> list[str]:
    return [
        f"impl {deref} for {owner} {{",
        f"    type Target = {target};",
        f"    fn deref(&self) -> &{target} {{",
        "        &self.base",
        "    }",
        "}",
    ]


def generate_rust_object(code, ty_map, imports: RustImports, opt, obj_info, declared) -> None:
    """Fills an `object/<key>` block with the Rust binding of `obj_info`.

    `declared` maps each type key with an `object/` block in this run (obj_info's among them)
    to the module path of its file. ValueError when the binding refers to a type key this run
    does not provide (nothing is written then).
    """
    binding = _Binding(code, ty_map, imports, obj_info, declared)
    saved = (list(imports.items), dict(imports.builtin_mirrors))
    body = binding.body()
    if binding.missing:
        imports.items[:], imports.builtin_mirrors = saved[0], saved[1]
        raise ValueError(
            f"`{obj_info.type_key}` (line {code.lineno_start}) depends on "
            f"{', '.join(f'`{k}`' for k in binding.missing)}, which this run does not ask for: "
            "add an `object/<key>` block or a `ty-map` directive for each"
        )
    code.lines = [code.lines[0], *body, code.lines[-1]]


def generate_rust_import_section(code, imports: RustImports, opt, defined_types) -> None:
    """Fills the import-section block: the sorted `use` lines (leaving out the types this file
    defines), then a header-only stand-in for each builtin base the objects need."""
    uses = sorted(
        {item.as_use_line() for item in imports.items if item.path not in defined_types} - {""}
    )
    lines = list(uses)
    for key, base in imports.builtin_mirrors.items():
        lines += [
            "",
            f"/// Header-only stand-in for the builtin `{key}`; it only carries the ancestor "
            "depth.",
            "#[allow(dead_code)]",
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::Object)]",
            f'#[type_key = "{key}"]',
            f"struct {builtin_mirror_name(key)} {{",
            f"    base: {base},",
            "}",
        ]
    code.lines = [code.lines[0], *lines, code.lines[-1]]


def generate_rust_api_file(
    code_blocks, ty_map, module_name: str, object_infos, init_cfg, is_root: bool, syntax
) -> str:
    """The text `--init` appends to a module's `mod.rs`: the header (new file), an
    import-section block (unless there is one) and an `object/<key>` block per object."""
    out = ""
    if not code_blocks:
        out += (
            "#![allow(dead_code, unused_imports)]\n\n"
            f"//! FFI bindings for `{module_name}` (generated by tvm-ffi-stubgen).\n\n"
        )
    if not any(c.kind == "import-section" for c in code_blocks):
        out += f"{syntax.begin} import-section\n{syntax.end}\n\n"
    for info in object_infos:
        out += f"{syntax.begin} object/{info.type_key}\n{syntax.end}\n\n"
    return out


def finalize_rust_module_tree(init_path: Path, prefixes) -> None:
    """Declares each generated prefix with `pub mod <leaf>;` in its parent's mod.rs (the root
    ones in `init_path/mod.rs`), creating the mod.rs files that are missing; a declaration that
    is there already is not repeated. The user mounts `init_path` with one `mod` line."""
    children: dict[Path, set[str]] = {}
    for prefix in prefixes:
        parts = prefix.split(".")
        for depth in range(1, len(parts) + 1):
            parent = Path(init_path, *parts[: depth - 1])
            children.setdefault(parent, set()).add(parts[depth - 1])
    for folder, names in children.items():
        mod = folder / "mod.rs"
        text = mod.read_text(encoding="utf-8") if mod.exists() else ""
        have = {line.strip() for line in text.splitlines()}
        new = [f"pub mod {n};" for n in sorted(names) if f"pub mod {n};" not in have]
        if not new:
            continue
        folder.mkdir(parents=True, exist_ok=True)
        block = "\n".join(new) + "\n"
        mod.write_text(text + ("\n" + block if text else block), encoding="utf-8")


__all__ = [
    "RustImports",
    "Verdict",
    "builtin_mirror_name",
    "classify",
    "finalize_rust_module_tree",
    "generate_rust_api_file",
    "generate_rust_import_section",
    "generate_rust_object",
    "is_crate_type_key",
    "object_info_from_type_key",
    "render_rust_type",
    "rust_ident",
]
