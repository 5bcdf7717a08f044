"""nn layers built from nn.op: activations, Linear, convolutions, norms, Embedding, Identity."""

from __future__ import annotations

from tvm import tir

from . import op
from .core import Module, Parameter, Tensor
from .exporter import IOEffect


class ReLU(Module):
    """max(x, 0)."""

    def forward(self, x: Tensor):
        return op.relu(x)


class SiLU(Module):
    """x * sigmoid(x)."""

    def forward(self, x: Tensor):
        return op.silu(x)


class GELU(Module):
    """GELU (erf form)."""

    def forward(self, x: Tensor):
        return op.gelu(x)


class Identity(Module):
    """Returns its input."""

    def forward(self, x: Tensor):
        return x


class Linear(Module):
    """y = x @ weight.T + bias; weight (out_features, in_features), extents may be symbolic (str).
    With out_dtype the matmul yields out_dtype and bias is stored in it."""

    def __init__(
        self,
        in_features: int | str | tir.PrimExpr,
        out_features: int | str | tir.PrimExpr,
        bias: bool = True,
        dtype: str | None = None,
        out_dtype: str | None = None,
    ):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.out_dtype = out_dtype
        self.weight = Parameter((out_features, in_features), dtype)
        self.bias = (
            Parameter((out_features,), dtype if out_dtype is None else out_dtype) if bias else None
        )

    def forward(self, x: Tensor) -> Tensor:
        y = op.matmul(x, op.permute_dims(self.weight), out_dtype=self.out_dtype)
        if self.bias is not None:
            y = y + self.bias
        return y

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        # With out_dtype the bias stays in out_dtype, the dtype the matmul produces.
        self.weight.to(dtype=dtype)
        if self.bias is not None and self.out_dtype is None:
            self.bias.to(dtype=dtype)


class Conv1D(Module):
    """1-D convolution: weight (out_channels, in_channels // groups, kernel_size), NCW data."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int,
        stride: int = 1,
        padding: int = 0,
        dilation: int = 1,
        groups: int = 1,
        bias: bool = True,
        dtype: str | None = None,
    ) -> None:
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.groups = groups
        self.weight = Parameter((out_channels, in_channels // groups, kernel_size), dtype)
        self.bias = Parameter((out_channels,), dtype) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return op.conv1d(
            x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class Conv2D(Module):
    """2-D convolution: weight (out_channels, in_channels // groups, kh, kw); data_layout
    "NCHW" (or "NHWC")."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: list[int] | int,
        stride: int = 1,
        padding: int = 0,
        dilation: int = 1,
        groups: int = 1,
        bias: bool = True,
        dtype: str | None = None,
        data_layout: str = "NCHW",
    ):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.groups = groups
        self.data_layout = data_layout
        if isinstance(in_channels, int):
            per_group = in_channels // groups
        else:
            per_group = tir.floordiv(in_channels, groups)
        self.kernel_size = [kernel_size] * 2 if isinstance(kernel_size, int) else kernel_size
        self.weight = Parameter([out_channels, per_group, *self.kernel_size], dtype)
        self.bias = Parameter((out_channels,), dtype) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return op.conv2d(
            x,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self.dilation,
            self.groups,
            self.data_layout,
        )


class ConvTranspose1D(Module):
    """1-D transposed convolution: weight (in_channels, out_channels // groups, kernel_size)."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int,
        stride: int = 1,
        padding: int = 0,
        output_padding: int = 0,
        dilation: int = 1,
        groups: int = 1,
        bias: bool = True,
        dtype: str | None = None,
    ) -> None:
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding
        self.dilation = dilation
        self.groups = groups
        self.weight = Parameter((in_channels, out_channels // groups, kernel_size), dtype)
        self.bias = Parameter((out_channels,), dtype) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return op.conv1d_transpose(
            x,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self.output_padding,
            self.dilation,
            self.groups,
        )


class LayerNorm(Module):
    """Layer normalisation over the last axis, with weight and bias when elementwise_affine."""

    def __init__(
        self,
        normalized_shape: int,
        eps: float | None = 1e-5,
        elementwise_affine: bool = True,
        dtype: str | None = None,
    ) -> None:
        super().__init__()
        self.normalized_shape = normalized_shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter((normalized_shape,), dtype=dtype)
            self.bias = Parameter((normalized_shape,), dtype=dtype)
        else:
            self.weight = None
            self.bias = None

    def forward(self, x: Tensor) -> Tensor:
        return op.layer_norm(
            x, normalized_shape=self.normalized_shape, weight=self.weight, bias=self.bias,
            eps=self.eps,
        )  # fmt: skip


class RMSNorm(Module):
    """RMS normalisation over axes, times weight (hidden_size,), plus bias when bias."""

    def __init__(
        self,
        hidden_size: int,
        axes: int | list[int],
        epsilon: float = 1e-5,
        bias: bool = True,
        dtype: str | None = None,
    ):
        super().__init__()
        self.epsilon = epsilon
        self.axes = axes
        self.weight = Parameter((hidden_size,), dtype=dtype)
        self.bias = Parameter((hidden_size,), dtype=dtype) if bias else None

    def forward(self, x: Tensor):
        out = op.rms_norm(x, weight=self.weight, axes=self.axes, epsilon=self.epsilon)
        if self.bias is not None:
            out = op.add(out, self.bias)
        return out


class GroupNorm(Module):
    """Group normalisation of num_channels channels in num_groups groups, with weight and bias
    (num_channels,) when affine."""

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        dtype: str | None = None,
    ):
        super().__init__()
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        if affine:
            self.weight = Parameter((num_channels,), dtype)
            self.bias = Parameter((num_channels,), dtype)
        else:
            self.weight = None
            self.bias = None

    def forward(self, x: Tensor, channel_axis: int = 1, axes: list[int] | None = None):
        return op.group_norm(
            x, self.num_groups, self.weight, self.bias, self.eps, channel_axis, axes
        )


class Embedding(Module):
    """A lookup table: weight (num, dim); forward(x) gathers the rows x names (any rank)."""

    def __init__(
        self,
        num: int | str | tir.PrimExpr,
        dim: int | str | tir.PrimExpr,
        dtype: str | None = None,
    ):
        self.num = num
        self.dim = dim
        self.weight = Parameter((num, dim), dtype=dtype)

    def forward(self, x: Tensor):
        if x.ndim == 1:
            return op.take(self.weight, x, axis=0)
        flat = op.reshape(x, [-1])
        rows = op.take(self.weight, flat, axis=0)
        return op.reshape(rows, [*x.shape, self.dim])


__all__ = [
    "Conv1D", "Conv2D", "ConvTranspose1D", "Embedding", "GELU", "GroupNorm", "IOEffect",
    "Identity", "LayerNorm", "Linear", "RMSNorm", "ReLU", "SiLU",
]  # fmt: skip
