"""py_class's __ffi_on_fields_resolved__ hooks and field(...) options only a hook understands."""

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import field, fields, py_class


def _units_hook(type_info, own_fields):
    """Moves a made-up `unit=` field option into the field's metadata."""
    _units_hook.calls.append((type_info.type_key, [f.name for f in own_fields]))
    for f in own_fields:
        if "unit" in f.extra_kwargs:
            f.metadata["unit"] = f.extra_kwargs.pop("unit")


_units_hook.__ffi_on_fields_resolved__ = True
_units_hook.calls = []


@py_class("testing.field_hooks.Measured")
class Measured(tvm_ffi.Object):
    on_fields = _units_hook
    length: float = field(unit="m")
    count: int = 0


def test_hook_sees_own_fields_before_registration():
    assert ("testing.field_hooks.Measured", ["length", "count"]) in _units_hook.calls
    assert fields(Measured)[0].metadata == {"unit": "m"}
    assert Measured(2.0).length == 2.0


def test_hooks_are_inherited():
    @py_class("testing.field_hooks.Timed")
    class Timed(Measured):
        seconds: float = field(default=0.0, unit="s")

    assert _units_hook.calls[-1] == ("testing.field_hooks.Timed", ["seconds"])
    assert fields(Timed)[2].metadata == {"unit": "s"}


def test_unconsumed_options_are_refused_at_registration():
    kept = field(colour="red")
    assert kept.extra_kwargs == {"colour": "red"}
    with pytest.raises(TypeError, match=r"Bad\.x: unrecognized field options: colour"):

        @py_class("testing.field_hooks.Bad")
        class Bad(tvm_ffi.Object):
            x: int = field(colour="red")

    # The failed class did not take its type key.
    @py_class("testing.field_hooks.Bad")
    class Good(tvm_ffi.Object):
        x: int = 0

    assert Good().x == 0
