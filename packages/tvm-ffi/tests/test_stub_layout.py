"""tvm_ffi.stub.layout: the complete/opaque native-layout verdicts and the coverage report."""

import json

import pytest
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub.layout import (
    OBJECT_HEADER_ALIGNMENT,
    ByteRange,
    FieldBytes,
    Verdict,
    align_up,
    classify,
    coverage_report,
    write_coverage_report,
)
from tvm_ffi.stub.utils import NamedTypeSchema, ObjectInfo


def _field(name, offset, size, alignment=None):
    return NamedTypeSchema(
        name, TypeSchema("int"), size=size, alignment=alignment or size, offset=offset
    )


def _type(key, fields, total_size, parent="ffi.Object", ancestors=None):
    return ObjectInfo(
        fields=fields,
        methods=[],
        type_key=key,
        parent_type_key=parent,
        ancestors=ancestors if ancestors is not None else ([parent] if parent else []),
        total_size=total_size,
    )


ROOT = _type("ffi.Object", [], 24, parent=None)


def _one(fields, total_size, **kwargs):
    return classify({"ffi.Object": ROOT, "a.A": _type("a.A", fields, total_size)}, **kwargs)["a.A"]


def test_align_up():
    assert [align_up(v, 8) for v in (0, 1, 8, 9, 24, 25)] == [0, 8, 8, 16, 24, 32]
    assert align_up(5, 3) == 6
    assert OBJECT_HEADER_ALIGNMENT == 8
    with pytest.raises(ZeroDivisionError):
        align_up(5, 0)


def test_root_is_the_header_the_c_abi_owns():
    v = classify({"ffi.Object": ROOT})["ffi.Object"]
    assert v.is_complete and v.reason is None
    assert v.detail == "object header [0, 24): owned by the C ABI"
    assert v.alignment == 8 and v.own_bytes == ByteRange(24, 24)


def test_fields_filling_the_region_with_alignment_padding_are_complete():
    v = _one([_field("y", 32, 8), _field("x", 24, 4)], 40)  # any order: sorted by offset
    assert v.verdict == "complete" and v.is_complete
    assert v.detail == "reflected fields fill [24, 40) exactly (alignment padding [28, 32))"
    assert [f.name for f in v.fields] == ["x", "y"] and v.padding == [ByteRange(28, 32)]
    tail = _one([_field("x", 24, 8), _field("y", 32, 4)], 40)
    assert tail.padding == [ByteRange(36, 40)] and tail.is_complete
    wide = _one([_field("x", 32, 16, 16), _field("y", 48, 4)], 64)
    assert wide.alignment == 16 and wide.padding == [ByteRange(24, 32), ByteRange(52, 64)]


def test_overlap_uncovered_and_oversized_fields_are_opaque_with_evidence():
    over = _one([_field("x", 24, 8), _field("y", 28, 8)], 40)
    assert (over.verdict, over.reason) == ("opaque", "field-overlap")
    assert over.detail == "field 'y' at [28, 36) starts before byte 32"
    gap = _one([_field("x", 24, 8), _field("y", 40, 8)], 48)
    assert gap.reason == "uncovered-bytes" and gap.uncovered == [ByteRange(32, 40)]
    assert gap.detail == "bytes [32, 40) of [24, 48) are not accounted for by reflected fields"
    tail = _one([_field("x", 24, 8)], 48)
    assert tail.uncovered == [ByteRange(32, 48)]
    big = _one([_field("x", 24, 8), _field("y", 32, 8)], 32)
    assert big.reason == "field-overlap"
    assert big.detail == "fields extend to byte 40, past total_size 32"


def test_missing_facts_and_opaque_parents():
    unknown = _one([], None)
    assert unknown.reason == "layout-unknown" and unknown.own_bytes is None
    assert unknown.detail == "no metadata of its own: total_size is unknown"
    bare = _one([NamedTypeSchema("q", TypeSchema("int"))], 32)
    assert bare.detail == "field 'q' carries no native layout facts"
    infos = {
        "ffi.Object": ROOT,
        "a.A": _type("a.A", [], None),
        "a.B": _type("a.B", [_field("z", 24, 8)], 32, "a.A", ["ffi.Object", "a.A"]),
    }
    v = classify(infos)["a.B"]
    assert v.reason == "parent-opaque" and v.detail == "parent 'a.A' is opaque (layout-unknown)"


def test_child_region_starts_at_the_parent_size():
    infos = {
        "ffi.Object": ROOT,
        "a.A": _type("a.A", [_field("x", 24, 4)], 32),
        "a.B": _type("a.B", [_field("y", 32, 4)], 40, "a.A", ["ffi.Object", "a.A"]),
    }
    v = classify(infos)["a.B"]
    assert v.is_complete and v.own_bytes == ByteRange(32, 40)


def test_target_rules_veto_mirror_and_renderability():
    fields = [_field("x", 24, 4), _field("y", 32, 8)]
    forced = _one(fields, 40, forced_opaque={"a.A"})
    assert forced.reason == "by-directive"
    # A veto does not hide a layout reason.
    assert _one([_field("x", 24, 8)], 40, forced_opaque={"a.A"}).reason == "uncovered-bytes"
    assert _one(fields, 40, unmirrored={"a.A"}).reason == "no-mirror"
    bad = _one(fields, 40, field_renderable=lambda f: f.name != "y")
    assert (
        bad.reason == "unrenderable-field" and bad.detail == "field 'y' (int) has no native mirror"
    )
    child = classify({"ffi.Object": ROOT, "a.A": _type("a.A", [], 24)}, unmirrored={"ffi.Object"})
    assert child["a.A"].detail == "parent 'ffi.Object' is opaque (no-mirror)"


def test_an_absent_ancestor_is_a_key_error():
    with pytest.raises(KeyError, match="Ancestor 'ffi.Object' is not among the types"):
        classify({"a.A": _type("a.A", [], 32)})


def test_coverage_report_and_its_json_file(tmp_path):
    verdicts = classify({"ffi.Object": ROOT, "a.A": _type("a.A", [_field("x", 24, 8)], 32)})
    report = coverage_report(verdicts)
    assert list(report) == ["a.A", "ffi.Object"]
    assert report["a.A"] == {
        "verdict": "complete",
        "reason": None,
        "detail": "reflected fields fill [24, 32) exactly",
        "parent": "ffi.Object",
        "ancestors": ["ffi.Object"],
        "total_size": 32,
        "is_final": None,
        "own_bytes": [24, 32],
        "fields": [{"name": "x", "offset": 24, "size": 8, "alignment": 8}],
        "uncovered": [],
        "padding": [],
    }
    out = tmp_path / "cov.json"
    write_coverage_report(out, verdicts)
    text = out.read_text()
    assert text.endswith("}\n") and text.startswith('{\n  "a.A": {\n    "verdict"')
    assert json.loads(text) == report


def test_value_classes():
    r = ByteRange(3, 9)
    assert (
        str(r) == "[3, 9)" and repr(r) == "ByteRange(start=3, end=9)" and r.to_json_obj() == [3, 9]
    )
    f = FieldBytes("x", 24, 4, 4)
    assert f.end == 28 and f.to_json_obj() == {"name": "x", "offset": 24, "size": 4, "alignment": 4}
    v = Verdict("k", "opaque", "layout-unknown", "d", None, [], None, None)
    assert not v.is_complete and v.fields == [] and v.to_json_obj()["own_bytes"] is None
