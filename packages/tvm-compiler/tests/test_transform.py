# Tests of tvm.transform: passes, decorators, Sequential, PassContext, instruments, copy-on-write.
import io
import weakref

import pytest
import tvm.instrument
import tvm.transform
from tvm.ir import IRModule


def _add_attr_pass():
    @tvm.transform.prim_func_pass(opt_level=1, name="AddAttr")
    def add_attr(func, mod, ctx):
        return func.with_attr("tag", "done")

    return add_attr


@tvm.transform.prim_func_pass(opt_level=0, name="Nothing")
def nothing(func, mod, ctx):
    return func


def test_pass_that_changes_nothing_returns_same_module(add_one_func):
    mod = IRModule({"main": add_one_func})
    assert nothing(mod) is mod
    assert mod["main"] is add_one_func


def test_pass_on_shared_module_copies(add_one_func):
    mod = IRModule({"main": add_one_func})
    before = mod.use_count()
    out = _add_attr_pass()(mod)
    assert out is not mod
    assert mod["main"] is add_one_func and "tag" not in mod["main"].attrs
    assert out["main"].attrs["tag"] == "done"
    after = mod.use_count()
    assert after == before


def test_pass_on_exclusively_owned_module_updates_in_place(add_one_func):
    made = []

    def build():
        m = IRModule({"main": add_one_func})
        made.append(weakref.ref(m))
        return m

    out = _add_attr_pass()(build())
    count = out.use_count()
    assert out is made[0]()
    assert count == 1
    assert out["main"].attrs["tag"] == "done"


def test_sequential_owns_its_intermediate_modules(add_one_func):
    seen = []

    @tvm.transform.module_pass(opt_level=0, name="Record")
    def record(mod, ctx):
        seen.append(weakref.ref(mod))
        return mod

    seq = tvm.transform.Sequential([_add_attr_pass(), record, _add_attr_pass(), record])
    mod = IRModule({"main": add_one_func})
    out = seq(mod)
    assert out is not mod and "tag" not in mod["main"].attrs
    # The first pass copied the shared input; the second updated that copy in place.
    assert seen[0]() is seen[1]() is out


def test_opt_level_disabled_and_required(add_one_func):
    mod = IRModule({"main": add_one_func})
    p = _add_attr_pass()
    with tvm.transform.PassContext(opt_level=0):
        assert p(mod) is mod
    with tvm.transform.PassContext(opt_level=0, required_pass=["AddAttr"]):
        assert p(mod) is not mod
    with tvm.transform.PassContext(opt_level=3, disabled_pass=["AddAttr"]):
        assert p(mod) is mod
    assert tvm.transform.PassContext.current().opt_level == 2


def test_pass_context_config_is_validated():
    tvm.transform.register_config_option("test.flag", bool)
    with tvm.transform.PassContext(config={"test.flag": True}) as ctx:
        assert tvm.transform.PassContext.current() is ctx and ctx.config["test.flag"]
    with pytest.raises(ValueError, match="unknown config key 'test.nope'"):
        tvm.transform.PassContext(config={"test.nope": 1})
    with pytest.raises(TypeError, match="expects bool"):
        tvm.transform.PassContext(config={"test.flag": 3})
    with pytest.raises(ValueError, match="opt_level"):
        tvm.transform.PassContext(opt_level=9)


def test_module_pass_class_and_bad_results(add_one_func):
    @tvm.transform.module_pass(opt_level=0)
    class DropAll:
        def transform_module(self, mod, ctx):
            return IRModule({})

    assert len(DropAll()(IRModule({"main": add_one_func}))) == 0

    @tvm.transform.module_pass(opt_level=0, name="Bad")
    def bad(mod, ctx):
        return 3

    with pytest.raises(TypeError, match="pass 'Bad' must return an IRModule"):
        bad(IRModule({"main": add_one_func}))
    with pytest.raises(TypeError, match="expected an IRModule"):
        bad("not a module")
    with pytest.raises(TypeError, match="opt_level is required"):
        tvm.transform.module_pass(lambda m, c: m)


def test_instruments_time_print_and_skip(add_one_func):
    timing = tvm.instrument.PassTimingInstrument()
    out = io.StringIO()
    printing = tvm.instrument.PassPrintingInstrument(print_after_pass_names=["AddAttr"], file=out)
    seq = tvm.transform.Sequential([_add_attr_pass(), nothing], name="Pipeline")
    with tvm.transform.PassContext(instruments=[timing, printing]):
        seq(IRModule({"main": add_one_func}))
    text = timing.render()
    assert "Pipeline" in text and "    AddAttr" in text and "    Nothing" in text
    assert "# after pass AddAttr" in out.getvalue() and "def main" in out.getvalue()

    class SkipAll(tvm.instrument.PassInstrument):
        def should_run(self, mod, info):
            return False

    mod = IRModule({"main": add_one_func})
    with tvm.transform.PassContext(instruments=[SkipAll()]):
        assert _add_attr_pass()(mod) is mod
