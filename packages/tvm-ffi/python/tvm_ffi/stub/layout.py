"""Native-layout classification: can a target reproduce an object's bytes from its reflected
fields (`complete`) or must it reach them through the C ABI (`opaque`)? And the coverage report.

The criterion: ordered by offset, the reflected fields fill [parent's total_size, total_size)
exactly, leaving only the gaps alignment forces (each field starts at align_up(cursor, its
alignment); the end, aligned to the largest alignment along the chain, is total_size). A type
needs its own size (total_size) and every field its size / alignment / offset first, and its
parent must be complete. The target's own rules come in as arguments: which fields it can
render natively, which types it vetoes (forced_opaque), which its runtime owns (unmirrored).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

#: TVMFFIObject (the header every object starts with) is 8-byte aligned.
OBJECT_HEADER_ALIGNMENT = 8

if TYPE_CHECKING:
    # The reasons an opaque verdict gives (upstream's OpaqueReason); for type checkers only:
    # stubtest cannot compare a Literal alias with its runtime value.
    _OpaqueReason: TypeAlias = Literal[
        "layout-unknown",
        "parent-opaque",
        "field-overlap",
        "uncovered-bytes",
        "unrenderable-field",
        "by-directive",
        "no-mirror",
    ]


def align_up(value: int, alignment: int) -> int:
    """`value` rounded up to a multiple of `alignment` (ZeroDivisionError for 0)."""
    return -(-value // alignment) * alignment


class ByteRange:
    """The half-open byte interval [start, end) inside an object."""

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"ByteRange(start={self.start}, end={self.end})"

    def __str__(self) -> str:
        return f"[{self.start}, {self.end})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ByteRange) and (self.start, self.end) == (other.start, other.end)

    def __hash__(self) -> int:
        return hash((self.start, self.end))

    def to_json_obj(self) -> list[int]:
        """[start, end]."""
        return [self.start, self.end]


class FieldBytes:
    """Where one reflected field lives: offset (from the header), size and alignment."""

    def __init__(self, name: str, offset: int, size: int, alignment: int) -> None:
        self.name = name
        self.offset = offset
        self.size = size
        self.alignment = alignment

    def __repr__(self) -> str:
        return (
            f"FieldBytes(name={self.name!r}, offset={self.offset}, size={self.size}, "
            f"alignment={self.alignment})"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FieldBytes) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def end(self) -> int:
        """One past the field's last byte."""
        return self.offset + self.size

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "offset": self.offset,
            "size": self.size,
            "alignment": self.alignment,
        }


class Verdict:
    """One type's layout verdict ("complete" or "opaque" with a reason) and its byte evidence."""

    def __init__(
        self,
        type_key: str,
        verdict: str,
        reason: _OpaqueReason | None,
        detail: str,
        parent_type_key: str | None,
        ancestors: list[str],
        total_size: int | None,
        is_final: bool | None,
        alignment: int | None = None,
        own_bytes: ByteRange | None = None,
        fields: list[FieldBytes] | None = None,
        uncovered: list[ByteRange] | None = None,
        padding: list[ByteRange] | None = None,
    ) -> None:
        self.type_key = type_key
        self.verdict = verdict
        self.reason = reason
        self.detail = detail
        self.parent_type_key = parent_type_key
        self.ancestors = ancestors
        self.total_size = total_size
        self.is_final = is_final
        self.alignment = alignment
        self.own_bytes = own_bytes
        self.fields = list(fields or [])
        self.uncovered = list(uncovered or [])
        self.padding = list(padding or [])

    def __repr__(self) -> str:
        return f"Verdict({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Verdict) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def is_complete(self) -> bool:
        """Whether the native layout is reproducible from the reflected fields."""
        return self.verdict == "complete"

    def to_json_obj(self) -> dict[str, Any]:
        """The language-neutral report entry of this type."""
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "detail": self.detail,
            "parent": self.parent_type_key,
            "ancestors": list(self.ancestors),
            "total_size": self.total_size,
            "is_final": self.is_final,
            "own_bytes": self.own_bytes.to_json_obj() if self.own_bytes else None,
            "fields": [f.to_json_obj() for f in self.fields],
            "uncovered": [r.to_json_obj() for r in self.uncovered],
            "padding": [r.to_json_obj() for r in self.padding],
        }


def _ranges(ranges: list[ByteRange]) -> str:
    return ", ".join(map(str, ranges))


def _classify_one(info, parent: Verdict | None, forced_opaque, unmirrored, field_renderable):
    key = info.type_key

    def verdict(reason, detail, **evidence) -> Verdict:
        return Verdict(
            key,
            "opaque" if reason else "complete",
            reason,
            detail,
            info.parent_type_key,
            list(info.ancestors),
            info.total_size,
            info.is_final,
            **evidence,
        )

    if key in unmirrored:
        return verdict(
            "no-mirror", "its bytes are owned by the target's runtime and never mirrored"
        )
    if parent is not None and not parent.is_complete:
        return verdict("parent-opaque", f"parent '{parent.type_key}' is opaque ({parent.reason})")
    if info.total_size is None:
        return verdict("layout-unknown", "no metadata of its own: total_size is unknown")
    if parent is None:  # the root: its bytes are the header the C ABI owns
        if key in forced_opaque:
            return verdict(
                "by-directive", "vetoed by directive although the layout is reproducible"
            )
        return verdict(
            None,
            f"object header [0, {info.total_size}): owned by the C ABI",
            alignment=OBJECT_HEADER_ALIGNMENT,
            own_bytes=ByteRange(info.total_size, info.total_size),
        )
    for f in info.fields:
        if f.size is None or f.alignment is None or f.offset is None:
            return verdict("layout-unknown", f"field '{f.name}' carries no native layout facts")
    fields = sorted(info.fields, key=lambda f: f.offset)
    total: int = info.total_size
    start = parent.total_size
    assert start is not None  # a complete parent knows its size
    alignment = max([parent.alignment or OBJECT_HEADER_ALIGNMENT, *(f.alignment for f in fields)])
    cursor = start
    overlap = None
    uncovered: list[ByteRange] = []
    padding: list[ByteRange] = []
    for f in fields:
        expected = align_up(cursor, f.alignment)
        if f.offset < expected:
            overlap = overlap or (
                f"field '{f.name}' at [{f.offset}, {f.offset + f.size}) starts before byte "
                f"{expected}"
            )
        elif f.offset > expected:
            uncovered.append(ByteRange(cursor, f.offset))
        elif expected > cursor:
            padding.append(ByteRange(cursor, expected))
        cursor = max(cursor, f.offset + f.size)
    end = align_up(cursor, alignment)
    if cursor > total:
        overlap = overlap or f"fields extend to byte {cursor}, past total_size {total}"
    elif end == total:
        if end > cursor:
            padding.append(ByteRange(cursor, end))
    else:
        uncovered.append(ByteRange(cursor, total))
    own = ByteRange(start, total)
    evidence = {
        "alignment": alignment,
        "own_bytes": own,
        "fields": [FieldBytes(f.name, f.offset, f.size, f.alignment) for f in fields],
        "uncovered": uncovered,
        "padding": padding,
    }
    if overlap:
        return verdict("field-overlap", overlap, **evidence)
    if uncovered:
        return verdict(
            "uncovered-bytes",
            f"bytes {_ranges(uncovered)} of {own} are not accounted for by reflected fields",
            **evidence,
        )
    if field_renderable is not None:
        for f in fields:
            if not field_renderable(f):
                return verdict(
                    "unrenderable-field",
                    f"field '{f.name}' ({f.repr()}) has no native mirror",
                    **evidence,
                )
    if key in forced_opaque:
        return verdict(
            "by-directive", "vetoed by directive although the layout is reproducible", **evidence
        )
    detail = f"reflected fields fill {own} exactly"
    if padding:
        detail += f" (alignment padding {_ranges(padding)})"
    return verdict(None, detail, **evidence)


def classify(
    infos, *, forced_opaque=frozenset(), unmirrored=frozenset(), field_renderable=None
) -> dict[str, Verdict]:
    """The Verdict of every type in `infos` (type key -> ObjectInfo), parents first.

    Every ancestor of a type must be in `infos` (KeyError naming it otherwise).
    `forced_opaque`: keys the caller vetoes; the veto only demotes an otherwise complete type
    (reason "by-directive"). `unmirrored`: keys the target's runtime owns ("no-mirror", before
    any layout evidence). `field_renderable(field)`: False when the target cannot mirror a field
    ("unrenderable-field"); None accepts every field.
    """
    out: dict[str, Verdict] = {}

    def visit(key: str) -> Verdict:
        if key in out:
            return out[key]
        info = infos[key]
        for ancestor in info.ancestors:
            if ancestor not in infos:
                raise KeyError(f"Ancestor '{ancestor}' is not among the types to classify")
        parent = visit(info.parent_type_key) if info.parent_type_key else None
        out[key] = _classify_one(info, parent, forced_opaque, unmirrored, field_renderable)
        return out[key]

    for key in sorted(infos, key=lambda k: (len(infos[k].ancestors), k)):
        visit(key)
    return out


def coverage_report(verdicts) -> dict[str, Any]:
    """The JSON-ready coverage report: each type key (sorted) -> its Verdict.to_json_obj().

    A generator may add its own facts under a per-type "target" key.
    """
    return {key: verdicts[key].to_json_obj() for key in sorted(verdicts)}


def write_coverage_report(path: Path, verdicts) -> None:
    """Writes coverage_report(verdicts) to `path` as JSON indented by 2."""
    path.write_text(json.dumps(coverage_report(verdicts), indent=2) + "\n", encoding="utf-8")


__all__ = [
    "OBJECT_HEADER_ALIGNMENT",
    "ByteRange",
    "FieldBytes",
    "Verdict",
    "align_up",
    "classify",
    "coverage_report",
    "write_coverage_report",
]
