# tvm.relax.ir.instrument.WellFormedInstrument: an ill-formed module before or after a pass
# (not a test_relax_* file: the Relax round-trip recorder would try to print the broken module).
import pytest
import tvm
from tvm import relax
from tvm.relax.ir.instrument import WellFormedInstrument
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Good:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        y = R.add(x, x)
        return y


def _ill_formed():
    """main returns a variable that nothing binds (a Var used out of scope)."""
    x = relax.Var("x", R.Tensor((4,), "float32"))
    stray = relax.Var("stray", R.Tensor((4,), "float32"))
    return tvm.IRModule({"main": relax.Function([x], stray)})


def _pass(name, result):
    return tvm.transform.module_pass(lambda mod, ctx: result(mod), opt_level=0, name=name)


def test_a_well_formed_module_through_the_default_pipeline_passes_every_check():
    with tvm.transform.PassContext(instruments=[WellFormedInstrument()]):
        relax.get_pipeline("default")(Good)


def test_an_ill_formed_input_names_the_pass_it_was_given_to():
    with tvm.transform.PassContext(instruments=[WellFormedInstrument()]):
        with pytest.raises(AssertionError, match="the input of pass 'Noop' is not well formed"):
            _pass("Noop", lambda mod: mod)(_ill_formed())


def test_a_pass_that_breaks_the_module_is_named_as_the_culprit():
    with tvm.transform.PassContext(instruments=[WellFormedInstrument()]):
        with pytest.raises(AssertionError, match="the output of pass 'Breaker' is not"):
            _pass("Breaker", lambda mod: _ill_formed())(Good)


def test_inputs_go_unchecked_when_asked_and_normalize_is_skipped():
    quiet = WellFormedInstrument(validate_before_transform=False)
    with tvm.transform.PassContext(instruments=[quiet]):
        with pytest.raises(AssertionError, match="output of pass 'Noop'"):
            _pass("Noop", lambda mod: mod)(_ill_formed())
    with tvm.transform.PassContext(instruments=[WellFormedInstrument()]):
        _pass("Normalize", lambda mod: mod)(_ill_formed())
