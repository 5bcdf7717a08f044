# Modules with private helper functions shared by the tests of the passes that rewrite them
# (RemoveUnusedParameters, RemoveUnusedOutputs, InlinePrivateFunctions).
from tvm import relax

T2 = relax.TensorStructInfo((2,), "float32")


def helper_and_main(public_helper=False):
    """helper(a, b, c) -> (a + a, a * a, -c) called once from main, which reads fields 0 and
    2; b is never read."""
    bb = relax.BlockBuilder()
    a = relax.Var("a", T2)
    b = relax.Var("b", T2)
    c = relax.Var("c", T2)
    with bb.function("helper", [a, b, c], private=not public_helper):
        s = bb.emit(relax.op.add(a, a))
        t = bb.emit(relax.op.multiply(a, a))
        u = bb.emit(relax.op.negative(c))
        bb.emit_func_output(relax.Tuple([s, t, u]))
    helper = bb.get().get_global_var("helper")
    x = relax.Var("x", T2)
    with bb.function("main", [x]):
        r = bb.emit(relax.Call(helper, [x, relax.op.exp(x), x]))
        r0 = bb.emit(relax.TupleGetItem(r, 0))
        r2 = bb.emit(relax.TupleGetItem(r, 2))
        bb.emit_func_output(bb.emit(relax.op.add(r0, r2)))
    return bb.get()
