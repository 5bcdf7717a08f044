"""`tvm.<subpackage>` of a wheel that is not installed is an AttributeError naming the wheel."""

import pytest
import tvm


# Every subpackage the runtime knows another wheel for (tvm.tir, tvm.relax, tvm.rpc, ...).
@pytest.mark.parametrize("name, wheel", sorted(tvm._WHEEL_OF_SUBPACKAGE.items()))
def test_missing_subpackage_names_its_wheel(name, wheel):
    import importlib.util

    if importlib.util.find_spec(f"tvm.{name}") is not None:
        pytest.skip(f"{wheel} is installed in this venv; the missing-wheel path cannot run")
    with pytest.raises(
        AttributeError,
        match=rf"tvm\.{name} is provided by the {wheel} wheel, "
        rf"which is not installed .*pip install --find-links dist {wheel}\)",
    ):
        getattr(tvm, name)
    assert not hasattr(tvm, name)


def test_runtime_subpackages_resolve_and_private_names_do_not_search():
    assert tvm.runtime.cpu is tvm.cpu
    with pytest.raises(AttributeError, match="no attribute '_not_a_module'"):
        tvm._not_a_module  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'a.b'"):
        getattr(tvm, "a.b")
