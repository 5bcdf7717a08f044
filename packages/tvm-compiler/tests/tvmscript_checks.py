# Helpers for TVMScript tests: the rendered error a source gives, and the print/parse round trip.
import pytest
import tvm
from tvm.script import from_source


def rendered_error(src: str) -> str:
    """The rendered DiagnosticError from_source(src) raises (the test fails if none)."""
    with pytest.raises(tvm.error.DiagnosticError) as info:
        from_source(src)
    return str(info.value)


def assert_round_trip(node, expected_text: str):
    """node prints as expected_text, which parses back structurally equal (hashing alike) and
    prints to the same text again; returns what was parsed."""
    text = node.script()
    assert text == expected_text
    again = from_source(text)
    tvm.ir.assert_structural_equal(node, again)
    assert again.script() == text
    assert tvm.ir.structural_hash(again) == tvm.ir.structural_hash(node)
    return again
