"""PyTorch tensors: zero-copy exchange both ways, and the C exchange API used when torch has it."""

import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed in this venv")

import tvm_ffi  # noqa: E402
from tvm_ffi import testing  # noqa: E402


def test_from_dlpack_shares_memory_both_ways():
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = tvm_ffi.from_dlpack(t)
    assert x.shape == (2, 3) and x.dtype == "float32" and str(x.device) == "cpu:0"
    torch.from_dlpack(x)[0, 0] = 42.0
    assert t[0, 0].item() == 42.0
    t[1, 2] = -1.0
    assert torch.from_dlpack(x)[1, 2].item() == -1.0


def test_strides_of_a_transposed_tensor_are_kept():
    t = torch.arange(12, dtype=torch.int64).reshape(3, 4).t()
    x = tvm_ffi.from_dlpack(t)
    assert x.shape == (4, 3) and x.strides == (1, 4)
    assert torch.equal(torch.from_dlpack(x), t)


@pytest.mark.parametrize(
    "dtype, name",
    [
        (torch.bfloat16, "bfloat16"),
        (torch.bool, "bool"),
        (torch.float16, "float16"),
        (torch.uint8, "uint8"),
    ],
)
def test_dtypes(dtype, name):
    assert tvm_ffi.from_dlpack(torch.zeros(3, dtype=dtype)).dtype == name


def test_a_tensor_passed_to_a_function_converts_on_its_own():
    t = torch.ones(5)
    back = testing.echo(t)
    assert isinstance(back, tvm_ffi.Tensor)
    torch.from_dlpack(back)[0] = 7.0
    assert t[0].item() == 7.0


class NoPythonDLPack(torch.Tensor):
    """A tensor whose __dlpack__ fails: only the C exchange API can convert it."""

    def __dlpack__(self, *args, **kwargs):
        raise AssertionError("__dlpack__ was called; the C exchange API should have been used")


@pytest.mark.skipif(
    not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"),
    reason="this PyTorch has no __dlpack_c_exchange_api__ (older than 2.10)",
)
def test_the_c_exchange_api_is_used_instead_of_dlpack():
    t = torch.arange(4, dtype=torch.float32).as_subclass(NoPythonDLPack)
    x = tvm_ffi.from_dlpack(t)
    assert x.shape == (4,)
    testing.nop(t)


def test_import_tvm_ffi_does_not_import_torch():
    code = "import sys, tvm_ffi, tvm_ffi.testing; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: torch.ones(3, requires_grad=True), "requires grad; pass tensor.detach()"),
        (
            lambda: torch.ones(3, dtype=torch.complex64).conj(),
            "conjugate bit set; pass tensor.resolve_conj()",
        ),
        (
            lambda: torch.ones(3, dtype=torch.complex64).conj().imag,
            "negative bit set; pass tensor.resolve_neg()",
        ),
        (lambda: torch._neg_view(torch.ones(3, dtype=torch.int32)), "negative bit set"),
    ],
    ids=["requires_grad", "conj", "neg", "neg int"],
)
def test_from_dlpack_refuses_what_torch_would_not_export_as_is(make, message):
    # Through the C exchange API these came back as raw values (torch's own __dlpack__ refuses
    # the first two; the neg bit's raw values are the negation of the tensor's).
    with pytest.raises(BufferError, match=message):
        tvm_ffi.from_dlpack(make())


def test_a_tensor_that_requires_grad_passes_as_an_argument():
    # Calls are not from_dlpack: kernels take parameters that require grad, and asking torch
    # for its state would cost more than the call.
    assert testing.echo(torch.ones(3, requires_grad=True)).shape == (3,)


def test_from_dlpack_accepts_resolved_tensors():
    t = torch.ones(3, dtype=torch.complex64).conj()
    assert torch.equal(torch.from_dlpack(tvm_ffi.from_dlpack(t.resolve_conj())), t)
    g = torch.ones(3, requires_grad=True)
    assert tvm_ffi.from_dlpack(g.detach()).shape == (3,)
    n = torch.ones(3, dtype=torch.complex64).conj().imag
    assert torch.equal(torch.from_dlpack(tvm_ffi.from_dlpack(n.resolve_neg())), n)
