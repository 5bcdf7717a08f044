"""FoldBatchnormToConv2D: an inference batch_norm (constant statistics) right after a conv2d
with a constant kernel is folded into the kernel and a bias: conv2d(x, W * scale) + shift,
with scale = gamma / sqrt(var + eps) and shift = beta - mean * scale."""

from __future__ import annotations

from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import ValueTrackingRewriter, is_op_call


class _Folder(ValueTrackingRewriter):
    def _match(self, value):
        """(conv call, batch_norm call) when value is batch_norm(conv2d(x, W))[0] with every
        weight and statistic constant, else None."""
        from ..expr import Constant, TupleGetItem

        if not isinstance(value, TupleGetItem) or value.index != 0:
            return None
        bn = self.values.get(value.tuple_value)
        if bn is None or not is_op_call(bn, "relax.nn.batch_norm"):
            return None
        conv = self.values.get(bn.args[0])
        if conv is None or not is_op_call(conv, "relax.nn.conv2d"):
            return None
        if not all(isinstance(a, Constant) for a in (conv.args[1], *bn.args[1:5])):
            return None
        if conv.attrs.data_layout != "NCHW" or int(bn.attrs.axis) != 1:
            return None  # the statistics run along the channel axis of NCHW only
        if conv.attrs.kernel_layout not in ("OIHW", "IOHW"):
            return None
        return conv, bn

    def rewrite_binding(self, binding, emit):
        from ..block_builder import BlockBuilder
        from ..expr import Call, DataflowVar, Var, VarBinding, const
        from ..op import add, divide, multiply, reshape, sqrt, subtract

        value = binding.value
        self.values[binding.var] = value
        found = self._match(value) if isinstance(binding, VarBinding) else None
        if found is None:
            emit(binding)
            return
        conv, bn = found
        data, weight = conv.args
        gamma, beta, mean, var = bn.args[1:5]
        channels = gamma.struct_info.shape.values[0]
        bb = BlockBuilder()
        cls = DataflowVar if self.in_dataflow else Var

        def bind(expr):
            expr = bb.normalize(expr)
            v = cls("lv", expr.struct_info)
            emit(VarBinding(v, expr))
            return v

        eps = const(float(bn.attrs.epsilon), str(var.struct_info.dtype))
        scale = bind(divide(gamma, bind(sqrt(bind(add(var, eps))))))
        shift = bind(subtract(beta, bind(multiply(mean, scale))))
        if conv.attrs.kernel_layout == "OIHW":
            kernel_scale = bind(reshape(scale, (channels, 1, 1, 1)))
        else:
            kernel_scale = bind(reshape(scale, (1, channels, 1, 1)))
        new_weight = bind(multiply(weight, kernel_scale))
        conv_out = bind(Call(conv.op, [data, new_weight], conv.attrs, conv.sinfo_args))
        bias = bind(reshape(shift, (1, channels, 1, 1)))
        emit(binding.with_fields(value=bb.normalize(add(conv_out, bias))))


def FoldBatchnormToConv2D():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.FoldBatchnormToConv2D); functions marked "Primitive" are
    left alone."""
    from .transform import function_pass

    @function_pass(opt_level=0, name="FoldBatchnormToConv2D")
    def fold_batchnorm_to_conv2d(func, mod, ctx):
        if int((func.attrs or {}).get("Primitive", 0) or 0):
            return func
        new = _Folder().rewrite_function(func)
        return func if new is func else remove_unused_bindings(new, mod)

    return fold_batchnorm_to_conv2d
