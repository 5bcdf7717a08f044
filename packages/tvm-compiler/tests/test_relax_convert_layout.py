# relax.op.layout_transform (struct info, legalisation, errors) and
# relax.transform.ConvertLayout (NCHW conv net to NHWC keeps its values; bad desired layouts).
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.transform import ConvertLayout, Normalize
from tvm.script.parser import ir as I
from tvm.script.parser import relax as R

rng = np.random.default_rng(0)


def _run(mod, *args):
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](*args).numpy()


def _single(sinfo, make):
    x = relax.Var("x", sinfo)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            out = bb.emit_output(make(x))
        bb.emit_func_output(out)
    return bb.get()


def _sinfo(expr):
    return relax.BlockBuilder().normalize(expr).struct_info


def test_layout_transform_struct_info():
    x = relax.Var("x", relax.TensorStructInfo((2, 16, 28, 28), "float32"))
    split = relax.op.layout_transform(x, lambda n, c, h, w: (n, c // 4, h, w, c % 4))
    tvm.ir.assert_structural_equal(
        _sinfo(split), relax.TensorStructInfo((2, 4, 28, 28, 4), "float32")
    )
    # a split that does not divide pads up
    y = relax.Var("y", relax.TensorStructInfo((2, 3, 5), "float16"))
    padded = relax.op.layout_transform(y, lambda a, b, c: (a, b // 4, c, b % 4), pad_value=0)
    tvm.ir.assert_structural_equal(_sinfo(padded), relax.TensorStructInfo((2, 1, 5, 4), "float16"))
    assert padded.attrs.pad_value.value.dtype == "float16"
    # fusing back, and an unknown shape keeps only the rank
    fused = relax.op.layout_transform(split, lambda n, c, h, w, i: (n, c * 4 + i, h, w))
    tvm.ir.assert_structural_equal(
        _sinfo(relax.BlockBuilder().normalize(fused)),
        relax.TensorStructInfo((2, 16, 28, 28), "float32"),
    )
    z = relax.Var("z", relax.TensorStructInfo(dtype="float32", ndim=4))
    perm = relax.op.layout_transform(z, lambda a, b, c, d: (a, c, d, b))
    assert _sinfo(perm).ndim == 4 and _sinfo(perm).shape is None


def test_layout_transform_values_with_padding():
    mod = _single(
        relax.TensorStructInfo((2, 3, 5, 5), "float32"),
        lambda x: relax.op.layout_transform(
            x, lambda a, b, c, d: (a, b // 4, c, d, b % 4), pad_value=1.5
        ),
    )
    data = rng.standard_normal((2, 3, 5, 5)).astype("float32")
    got = _run(mod, data)
    padded = np.concatenate([data, np.full((2, 1, 5, 5), 1.5, "float32")], axis=1)
    want = padded.reshape(2, 1, 4, 5, 5).transpose(0, 1, 3, 4, 2)
    np.testing.assert_array_equal(got, want)


def test_layout_transform_script_round_trip():
    x = relax.Var("x", relax.TensorStructInfo((2, 16, 3, 3), "float32"))
    mod = _single(
        x.struct_info,
        lambda x: relax.op.layout_transform(x, lambda a, b, c, d: (a, b // 4, c, d, b % 4)),
    )
    text = mod.script()
    assert "R.layout_transform(x, index_map=T.index_map(lambda a, b, c, d:" in text
    tvm.ir.assert_structural_equal(tvm.script.from_source(text), mod)


def test_layout_transform_bad_input():
    x = relax.Var("x", relax.TensorStructInfo((2, 3, 4), "float32"))
    with pytest.raises(ValueError, match="layout_transform: index_map takes 2 indices but x has 3"):
        _sinfo(relax.op.layout_transform(x, lambda a, b: (b, a)))
    with pytest.raises(TypeError, match="layout_transform: index_map must be"):
        relax.op.layout_transform(x, "NCHW")
    with pytest.raises(ValueError, match="layout_transform: axis_separators"):
        relax.op.layout_transform(x, lambda a, b, c: (c, b, a), axis_separators=[5])


@I.ir_module
class ConvNet:
    @R.function
    def main(
        x: R.Tensor((1, 3, 12, 12), "float32"),
        w1: R.Tensor((8, 3, 3, 3), "float32"),
        b1: R.Tensor((1, 8, 1, 1), "float32"),
        w2: R.Tensor((4, 8, 3, 3), "float32"),
    ) -> R.Tensor((1, 4), "float32"):
        with R.dataflow():
            c1 = R.nn.conv2d(x, w1, padding=[1, 1, 1, 1])
            a1 = R.add(c1, b1)
            r1 = R.nn.relu(a1)
            p1 = R.nn.max_pool2d(r1, pool_size=[2, 2], strides=[2, 2])
            c2 = R.nn.conv2d(p1, w2)
            r2 = R.tanh(c2)
            gv = R.mean(r2, axis=[2, 3])
            R.output(gv)
        return gv


def _ops(mod):
    return [
        ln.split(" = ")[1].split("(")[0] for ln in mod["main"].script().splitlines() if " = " in ln
    ]


def test_convert_layout_conv_net_same_values():
    converted = Normalize()(ConvertLayout({"relax.nn.conv2d": ["NHWC", "OHWI"]})(ConvNet))
    text = converted["main"].script()
    assert text.count('data_layout="NHWC"') == 2 and 'layout="NHWC"' in text
    # converted at the inputs only: x, w1, b1, w2; the mean over H, W needs no permute back
    assert _ops(converted).count("R.permute_dims") == 4
    assert relax.analysis.well_formed(converted)
    args = [
        rng.standard_normal(s).astype("float32")
        for s in [(1, 3, 12, 12), (8, 3, 3, 3), (1, 8, 1, 1), (4, 8, 3, 3)]
    ]
    np.testing.assert_allclose(_run(converted, *args), _run(ConvNet, *args), rtol=1e-5, atol=1e-5)


def test_convert_layout_leaves_module_without_conv():
    @I.ir_module
    class NoConv:
        @R.function
        def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            with R.dataflow():
                gv = R.nn.relu(x)
                R.output(gv)
            return gv

    out = ConvertLayout({"relax.nn.conv2d": ["NHWC", "OHWI"]})(NoConv)
    tvm.ir.assert_structural_equal(out, NoConv)


def test_convert_layout_bad_desired_layouts():
    with pytest.raises(
        ValueError, match=r"ConvertLayout: desired_layouts\['relax.nn.conv2d'\]\[0\]"
    ):
        ConvertLayout({"relax.nn.conv2d": ["nhwc", "OHWI"]})(ConvNet)
    with pytest.raises(ValueError, match=r"\[1\] \(kernel layout\) 'OHWX' must hold the axes"):
        ConvertLayout({"relax.nn.conv2d": ["NHWC", "OHWX"]})(ConvNet)
    with pytest.raises(TypeError, match=r"ConvertLayout: desired_layouts\['relax.nn.conv2d'\]"):
        ConvertLayout({"relax.nn.conv2d": "NHWC"})
    with pytest.raises(TypeError, match="ConvertLayout: layout_cb must be callable"):
        ConvertLayout({}, layout_cb=3)


@I.ir_module
class ManyOps:
    @R.function
    def main(
        x: R.Tensor((2, 3, 10, 10), "float32"),
        w: R.Tensor((4, 3, 3, 3), "float32"),
        gamma: R.Tensor((8, 8), "float32"),
        beta: R.Tensor((8, 8), "float32"),
    ):
        with R.dataflow():
            c = R.nn.conv2d(x, w)
            s = R.nn.softmax(c, axis=1)
            cat = R.concat((c, s), axis=1)
            parts = R.split(cat, indices_or_sections=2, axis=1)
            p0 = parts[0]
            ln = R.nn.layer_norm(p0, gamma, beta, axes=[-2, -1])
            sl = R.strided_slice(ln, axes=[1, 2], begin=[1, 0], end=[4, 8], strides=[2, 3])
            ex = R.expand_dims(sl, axis=[1])
            sq = R.squeeze(ex, axis=[1])
            keep = R.sum(sq, axis=[2], keepdims=True)
            tr = R.permute_dims(keep, axes=[0, 2, 3, 1])
            gv = (tr, parts[1])
            R.output(gv)
        return gv


def test_convert_layout_follows_through_many_ops_same_values():
    converted = ConvertLayout({"relax.nn.conv2d": ["NHWC", "OHWI"]})(ManyOps)
    text = converted["main"].script()
    assert "axis=3" in text  # softmax / concat / split now run along NHWC's channel axis
    assert relax.analysis.well_formed(converted)
    args = [
        rng.standard_normal(s).astype("float32")
        for s in [(2, 3, 10, 10), (4, 3, 3, 3), (8, 8), (8, 8)]
    ]

    def run(mod):
        vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
        return [t.numpy() for t in vm["main"](*args)]

    for got, want in zip(run(converted), run(ManyOps)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_convert_layout_callback_chooses_per_call():
    seen = []

    def callback(call):
        seen.append(call.op.name)
        return {"relax.nn.conv2d": ["NHWC", "HWIO"]}

    out = ConvertLayout({"relax.nn.conv2d": ["NCHW", "OIHW"]}, layout_cb=callback)(ConvNet)
    assert "relax.nn.conv2d" in seen
    assert out["main"].script().count('kernel_layout="HWIO"') == 2


def test_convert_layout_leaves_bindings_outside_dataflow_blocks():
    # upstream's pass rewrites dataflow blocks only
    @I.ir_module
    class Plain:
        @R.function
        def main(
            x: R.Tensor((1, 3, 8, 8), "float32"), w: R.Tensor((4, 3, 3, 3), "float32")
        ) -> R.Tensor((1, 4, 6, 6), "float32"):
            gv = R.nn.conv2d(x, w)
            return gv

    out = ConvertLayout({"relax.nn.conv2d": ["NHWC", "OHWI"]})(Plain)
    tvm.ir.assert_structural_equal(out, Plain)
