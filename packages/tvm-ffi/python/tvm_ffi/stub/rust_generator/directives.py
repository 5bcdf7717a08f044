"""The Rust generator's one-line directives of a .rs file: their grammar and per-file storage.

Three name a reflected field (`<type_key>.<field>`), three a type:

    // tvm-ffi-stubgen(field): tirx.Add.a -> PrimExpr
    // tvm-ffi-stubgen(nullable): ir.Expr.span
    // tvm-ffi-stubgen(enum): tirx.For.kind -> ForKind(i32) { Serial=0, Parallel=1 }
    // tvm-ffi-stubgen(opaque): ir.SourceName
    // tvm-ffi-stubgen(upcast): tirx.Add -> PrimExpr
    // tvm-ffi-stubgen(custom-new): tirx.Add

`field` gives the field's Rust type, `nullable` wraps it in Option, `enum` declares an integer
newtype for it, `opaque` keeps a type opaque although its layout is reproducible, `upcast`
adds a typed view outside the ancestor chain, `custom-new` says `new` is hand-written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FIELD_KEY = re.compile(r"\S+\.\S+")
_TYPE_KEY = re.compile(r"\S+")
_ENUM = re.compile(
    r"(?P<key>\S+\.\S+)\s*->\s*(?P<name>[A-Za-z_]\w*)\s*\(\s*(?P<repr>[iu](?:8|16|32|64))\s*\)"
    r"\s*\{(?P<body>[^{}]*)\}"
)
_MEMBER = re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>-?\d+)\s*")

_EXPECTED = {
    "field": "<type_key>.<field> -> <RustType>",
    "nullable": "<type_key>.<field>",
    "enum": "<type_key>.<field> -> Name(i32) { A=0, B=1 }",
    "opaque": "<type_key>",
    "upcast": "<type_key> -> <RustType>",
    "custom-new": "<type_key>",
}


@dataclass(frozen=True)
class EnumSpec:
    """An `enum` directive: the newtype's name, its integer repr and its (name, value) members."""

    name: str
    repr: str
    members: tuple[tuple[str, int], ...]


@dataclass
class Directives:
    """One file's Rust directives, keyed by `<type_key>.<field>` or `<type_key>`."""

    field_types: dict[str, str] = field(default_factory=dict)
    nullable: set[str] = field(default_factory=set)
    enums: dict[str, EnumSpec] = field(default_factory=dict)
    opaque: set[str] = field(default_factory=set)
    upcasts: dict[str, list[str]] = field(default_factory=dict)
    custom_new: set[str] = field(default_factory=set)

    def add(self, name: str, payload: str, lineno: int) -> None:
        """Parses and stores one directive; ValueError naming the line and the expected form
        for a malformed payload or a directive that is not one of these six."""
        if name not in _EXPECTED:
            raise ValueError(f"Unknown directive `{name}` at line {lineno}")

        def bad(expected: str = _EXPECTED[name]) -> ValueError:
            return ValueError(f"Invalid `{name}` directive at line {lineno}. Expected `{expected}`")

        text = payload.strip()
        if name == "enum":
            match = _ENUM.fullmatch(text)
            if match is None:
                raise bad()
            body = match["body"].strip()
            members = []
            for item in body.split(",") if body else []:
                member = _MEMBER.fullmatch(item)
                if member is None:
                    raise bad()
                members.append((member["name"], int(member["value"])))
            self.enums[match["key"]] = EnumSpec(match["name"], match["repr"], tuple(members))
        elif name in ("field", "upcast"):
            lhs, arrow, rhs = (part.strip() for part in text.partition("->"))
            if not arrow or not rhs:
                raise bad()
            if name == "upcast":
                if not _TYPE_KEY.fullmatch(lhs):
                    raise bad()
                self.upcasts.setdefault(lhs, []).append(rhs)
            else:
                if not _FIELD_KEY.fullmatch(lhs):
                    raise bad(_EXPECTED["nullable"])
                self.field_types[lhs] = rhs
        elif name == "nullable":
            if not _FIELD_KEY.fullmatch(text):
                raise bad()
            self.nullable.add(text)
        else:  # opaque, custom-new: a type key
            if not _TYPE_KEY.fullmatch(text):
                raise bad()
            (self.opaque if name == "opaque" else self.custom_new).add(text)


__all__ = ["Directives", "EnumSpec"]
