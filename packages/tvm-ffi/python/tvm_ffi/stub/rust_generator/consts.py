"""The Rust generator's tables: FFI origins -> Rust types, Rust keywords, field sizes."""

from __future__ import annotations

#: FFI origin / type key -> the Rust type (a `::` path is `use`d; a bare name needs none).
RUST_TY_MAP_DEFAULTS = {
    "int": "i64",
    "float": "f64",
    "bool": "bool",
    "None": "()",
    "str": "tvm_ffi::String",
    "bytes": "tvm_ffi::Bytes",
    "Any": "tvm_ffi::Any",
    "Callable": "tvm_ffi::Function",
    "Array": "tvm_ffi::Array",
    "List": "tvm_ffi::List",
    "Map": "tvm_ffi::Map",
    "Object": "tvm_ffi::object::ObjectRef",
    "Tensor": "tvm_ffi::Tensor",
    "Shape": "tvm_ffi::Shape",
    "Device": "tvm_ffi::DLDevice",
    "dtype": "tvm_ffi::DLDataType",
    "DataType": "tvm_ffi::DLDataType",
    "ffi.String": "tvm_ffi::String",
    "ffi.Bytes": "tvm_ffi::Bytes",
    "ffi.BigInt": "tvm_ffi::BigInt",
    "ffi.Module": "tvm_ffi::Module",
    "ffi.Error": "tvm_ffi::Error",
    "ffi.Object": "tvm_ffi::object::ObjectRef",
    "ffi.Tensor": "tvm_ffi::Tensor",
    "ffi.Shape": "tvm_ffi::Shape",
    "ffi.Function": "tvm_ffi::Function",
    "ffi.reflection.AccessPath": "tvm_ffi::reflection::AccessPath",
    "ffi.reflection.AccessStep": "tvm_ffi::reflection::AccessStep",
}

#: Type-key module prefixes -> the Rust crate that binds them.
RUST_MOD_MAP = {"ffi": "tvm_ffi"}

#: Origins with no Rust mirror in the tvm_ffi crate.
RUST_UNSUPPORTED_ORIGINS = frozenset({"Dict", "Union", "tuple"})

#: The one-line directives of .rs files (see directives.py; import-object as in Python).
RUST_DIRECTIVE_KINDS = frozenset(
    {"import-object", "field", "nullable", "enum", "opaque", "upcast", "custom-new"}
)

#: Strict and reserved keywords of Rust (2024 edition); a field so named is a raw identifier.
RUST_KEYWORDS = frozenset(
    {
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
        "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
        "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do",
        "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
        "gen",
    }
)  # fmt: skip

#: Keywords `r#` cannot escape.
RUST_NOT_RAW_IDENTIFIERS = frozenset({"crate", "self", "Self", "super"})

#: Member names the generated structs use themselves.
RUST_RESERVED_MEMBERS = frozenset({"base"})

#: The root of every object hierarchy.
RUST_ROOT_TYPE_KEY = "ffi.Object"

#: Where the crate's Optional lives.
RUST_OPTIONAL_PATH = "tvm_ffi::Optional"

#: Byte facts of the target: a pointer, an Optional of an object (a nullable pointer) and an
#: Optional of a POD payload (an Any).
RUST_POINTER_SIZE = 8
RUST_OBJECT_OPTIONAL_FIELD_SIZE = 8
RUST_OPTIONAL_FIELD_SIZE = 16

#: Optional payloads stored in an Any (16 bytes), not as a nullable object pointer.
RUST_ANY_BACKED_OPTIONAL_PAYLOADS = frozenset(
    {"int", "float", "bool", "str", "bytes", "Device", "dtype", "DataType"}
)

#: Scalar Rust types a parameter takes as-is.
RUST_EXACT_PARAMS = frozenset(
    {"bool", "i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize", "f32", "f64"}
)

#: (origin, byte size) of a reflected scalar field -> its Rust type.
RUST_SCALAR_BY_SIZE = {
    ("int", 1): "i8",
    ("int", 2): "i16",
    ("int", 4): "i32",
    ("int", 8): "i64",
    ("float", 4): "f32",
    ("float", 8): "f64",
}

#: Rust scalar -> its byte width.
RUST_SCALAR_WIDTHS = {
    "i8": 1,
    "u8": 1,
    "bool": 1,
    "i16": 2,
    "u16": 2,
    "i32": 4,
    "u32": 4,
    "f32": 4,
    "i64": 8,
    "u64": 8,
    "f64": 8,
}

#: rustfmt's default line width, which generated code keeps to.
RUST_MAX_WIDTH = 100
