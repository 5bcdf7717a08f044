"""Converters of ONNX's recurrent layers RNN, GRU and LSTM: the input projection of every
step in one matmul, then the recurrence unrolled (a static length up to MAX_UNROLL) or run as a
loop (while_loop, the Loop converter's recursive function)."""

from __future__ import annotations

import numpy as np
from tvm import relax, te
from tvm.relax import op as R

from ._relax_api import tir
from .common import Node, const, dtype_of
from .ops_elementwise import scalar
from .ops_loop import MAX_UNROLL, while_loop
from .registry import converter

# Gate count and the default activations (per direction) of each layer.
_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
_DEFAULT_ACTIVATIONS = {
    "RNN": ["Tanh"],
    "GRU": ["Sigmoid", "Tanh"],
    "LSTM": ["Sigmoid", "Tanh", "Tanh"],
}

# The activations the layers accept (lower-cased) and their default (alpha, beta); those with
# a default take their alpha/beta from activation_alpha/_beta in order, as onnxruntime does.
_ALPHA_BETA = {
    "affine": (1.0, 0.0),
    "leakyrelu": (0.01, None),
    "thresholdedrelu": (1.0, None),
    "scaledtanh": (1.0, 1.0),
    "hardsigmoid": (0.2, 0.5),
    "elu": (1.0, None),
}


def _activation(node: Node, name: str, alpha, beta):
    """The activation called name as a function of a Relax expression."""
    kind = name.lower()

    def a(x):
        return scalar(alpha, x)

    def b(x):
        return scalar(beta, x)

    table = {
        "relu": lambda x: R.maximum(x, scalar(0, x)),
        "tanh": R.tanh,
        "sigmoid": R.sigmoid,
        "softsign": lambda x: R.divide(x, R.add(R.abs(x), scalar(1, x))),
        "softplus": lambda x: R.log(R.add(R.exp(x), scalar(1, x))),
        "affine": lambda x: R.add(R.multiply(a(x), x), b(x)),
        "leakyrelu": lambda x: R.where(R.less(x, scalar(0, x)), R.multiply(a(x), x), x),
        "thresholdedrelu": lambda x: R.where(R.greater(x, a(x)), x, scalar(0, x)),
        "scaledtanh": lambda x: R.multiply(a(x), R.tanh(R.multiply(b(x), x))),
        "hardsigmoid": lambda x: R.minimum(
            R.maximum(R.add(R.multiply(a(x), x), b(x)), scalar(0, x)), scalar(1, x)
        ),
        "elu": lambda x: R.where(
            R.less(x, scalar(0, x)), R.multiply(a(x), R.subtract(R.exp(x), scalar(1, x))), x
        ),
    }
    if kind not in table:
        raise node.unsupported(f"the activation {name!r}")
    return table[kind]


def _activations(node: Node, kind: str, num_dir: int):
    """One list of activation functions per direction."""
    per_dir = len(_DEFAULT_ACTIVATIONS[kind])
    names = list(node.attr("activations", _DEFAULT_ACTIVATIONS[kind] * num_dir))
    if len(names) == per_dir and num_dir == 2:  # one set given for both directions
        names = names * 2
    if len(names) != per_dir * num_dir:
        raise ValueError(
            f"from_onnx: {node.where()}: activations must name {per_dir * num_dir} functions "
            f"({per_dir} per direction), got {names}"
        )
    alphas = list(node.attr("activation_alpha", []))
    betas = list(node.attr("activation_beta", []))
    fns = []
    for name in names:
        alpha, beta = _ALPHA_BETA.get(name.lower(), (None, None))
        if alpha is not None and alphas:
            alpha = alphas.pop(0)
        if beta is not None and betas:
            beta = betas.pop(0)
        fns.append(_activation(node, name, alpha, beta))
    return [fns[d * per_dir : (d + 1) * per_dir] for d in range(num_dir)]


def _reverse_te(x, lens):
    """x [T, B, ...] with each batch entry b's first lens[b] steps reversed (the steps after
    them kept): the step a reverse direction sees at time t. Its own inverse."""
    steps = x.shape[0]

    def pick(t, b, *rest):
        length = tir.min(lens[b].astype("int64"), steps.astype("int64"))
        src = tir.Select(t < length, length - 1 - t, t.astype("int64"))
        return x[(src, b, *rest)]

    return te.compute(x.shape, pick, name="reverse_in_length")


def _reverse(node: Node, x, lens):
    if lens is None:
        return node.emit(R.flip(x, axis=0))
    return node.emit_te(_reverse_te, x, lens)


def _pick(node: Node, tensor, d: int):
    """tensor[d] (the direction d's slice of a [num_directions, ...] operand)."""
    if tensor is None:
        return None
    return node.emit(R.take(tensor, const(np.int64(d)), axis=0))


def _split(node: Node, x, parts: int):
    """x split in parts equal pieces along its last axis."""
    if parts == 1:
        return [x]
    pieces = node.emit(R.split(x, parts, axis=-1))
    return [node.emit(relax.TupleGetItem(pieces, k)) for k in range(parts)]


class _Layer:
    """The operands and options of one direction of a layer."""

    def __init__(self, node: Node, kind: str, d: int, hidden: int, acts, clip, x):
        self.node, self.kind, self.hidden, self.acts, self.clip = node, kind, hidden, acts, clip
        n_gates = _GATES[kind]
        w = _pick(node, node.input(1), d)  # [gates * hidden, input]
        self.r = _pick(node, node.input(2), d)  # [gates * hidden, hidden]
        self.r_t = node.emit(R.permute_dims(self.r, [1, 0]))
        bias = _pick(node, node.input(3, optional=True), d)  # [2 * gates * hidden]
        proj = node.emit(R.matmul(x, R.permute_dims(w, [1, 0])))  # [T, B, gates * hidden]
        self.rbh = None
        if bias is not None:
            wb, rb = _split(node, bias, 2)
            if kind == "GRU":  # Rbh sits inside the reset gate's product: kept apart
                rbz, rbr, self.rbh = _split(node, rb, 3)
                rb = node.emit(R.concat([rbz, rbr, R.zeros([hidden], dtype_of(x))], axis=0))
            proj = node.emit(R.add(proj, R.add(wb, rb)))
        self.proj = proj
        peep = _pick(node, node.input(7, optional=True), d) if kind == "LSTM" else None
        self.peep = None if peep is None else _split(node, peep, 3)  # i, o, f
        self.gates = n_gates

    def act(self, k: int, value):
        """Activation k of value, after the clip to [-clip, clip] when there is one."""
        value = self.node.emit(value)  # the activations read its dtype
        if self.clip is not None:
            c = self.clip
            value = self.node.emit(R.clip(value, -c, c))
        return self.acts[k](value)

    def step(self, x_t, h, c):
        """The new (h, c) from one step's projected input x_t and the previous state."""
        node, emit = self.node, self.node.emit
        if self.kind == "RNN":
            return emit(self.act(0, R.add(x_t, R.matmul(h, self.r_t)))), None
        if self.kind == "LSTM":
            gates = emit(R.add(x_t, R.matmul(h, self.r_t)))
            gi, go, gf, gc = _split(node, gates, 4)
            if self.peep is not None:
                pi, po, pf = self.peep
                gi, gf = R.add(gi, R.multiply(pi, c)), R.add(gf, R.multiply(pf, c))
            i = emit(self.act(0, gi))
            if node.attrs.get("input_forget", 0):
                f = R.subtract(scalar(1, i), i)
            else:
                f = self.act(0, gf)
            c_new = emit(R.add(R.multiply(f, c), R.multiply(i, self.act(1, gc))))
            if self.peep is not None:
                go = R.add(go, R.multiply(po, c_new))
            h_new = emit(R.multiply(self.act(0, go), self.acts[2](c_new)))
            return h_new, c_new
        # GRU
        xz, xr, xh = _split(node, x_t, 3)
        hidden = self.hidden
        r_zr, r_h = _split_rows(node, self.r_t, hidden)
        hzr = emit(R.matmul(h, r_zr))
        hz, hr = _split(node, hzr, 2)
        z = emit(self.act(0, R.add(xz, hz)))
        r = emit(self.act(0, R.add(xr, hr)))
        if node.attrs.get("linear_before_reset", 0):
            hh = R.matmul(h, r_h)
            if self.rbh is not None:
                hh = R.add(hh, self.rbh)
            cand = R.add(xh, R.multiply(r, hh))
        else:
            cand = R.add(xh, R.matmul(R.multiply(r, h), r_h))
            if self.rbh is not None:
                cand = R.add(cand, self.rbh)
        n = emit(self.act(1, cand))
        one_minus_z = R.subtract(scalar(1, z), z)
        return emit(R.add(R.multiply(one_minus_z, n), R.multiply(z, h))), None


def _split_rows(node: Node, r_t, hidden: int):
    """R^T [hidden, 3 * hidden] as its z/r columns [hidden, 2 * hidden] and h columns."""
    zr = node.emit(R.strided_slice(r_t, axes=[1], begin=[0], end=[2 * hidden]))
    h = node.emit(R.strided_slice(r_t, axes=[1], begin=[2 * hidden], end=[3 * hidden]))
    return zr, h


def _with_batch(node: Node, value, batch):
    """value [B, ...] cast (checked at run time) to a first dim of batch where that is
    another symbolic dim: the loop function's state names the batch with its own var."""
    shape = node.shape(value)
    if isinstance(batch, int) or isinstance(shape[0], int) or shape[0].same_as(batch):
        return value
    return node.bb.match_cast(value, relax.TensorStructInfo([batch, *shape[1:]], dtype_of(value)))


def _run_direction(node: Node, layer: _Layer, xs, lens, h0, c0, steps):
    """(Y [T, B, H], Y_h, Y_c) of one direction over xs (already in its time order)."""
    has_c = layer.kind == "LSTM"

    def one_step(i, h, c):
        batch = node.shape(h)[0]  # in a loop, the function's own var for a symbolic batch
        x_t = _with_batch(node, node.emit(R.take(xs, i, axis=0)), batch)
        h_new, c_new = layer.step(x_t, h, c)
        if lens is None:
            return h_new, c_new, h_new
        valid = node.emit(R.expand_dims(R.less(i, lens), [1]))  # [B, 1]
        valid = _with_batch(node, valid, batch)
        y = node.emit(R.where(valid, h_new, scalar(0, h_new)))
        h_new = node.emit(R.where(valid, h_new, h))
        if has_c:
            c_new = node.emit(R.where(valid, c_new, c))
        return h_new, c_new, y

    if isinstance(steps, int) and steps <= MAX_UNROLL:
        h, c, rows = h0, c0, []
        for t in range(steps):
            h, c, y = one_step(const(np.int64(t)), h, c)
            rows.append(node.emit(R.expand_dims(y, [0])))
        y_all = rows[0] if len(rows) == 1 else node.emit(R.concat(rows, axis=0))
        return y_all, h, c

    def loop_step(i, _cond, carried):
        h, c = carried[0], (carried[1] if has_c else None)
        h, c, y = one_step(i, h, c)
        return [const(True), h, *([c] if has_c else []), y]

    trip = node.emit(R.shape_to_tensor(relax.ShapeExpr([steps])))
    init = [h0, c0] if has_c else [h0]
    outs = while_loop(node, loop_step, trip, None, init, 1, scan_like=[0])
    batch, hidden = node.shape(h0)
    h = _with_batch(node, outs[0], batch)
    c = _with_batch(node, outs[1], batch) if has_c else None
    rows = outs[-1]
    y_all = node.bb.match_cast(rows, relax.TensorStructInfo([steps, batch, hidden], dtype_of(h0)))
    return y_all, h, c


def _recurrent(node: Node, kind: str):
    x, w = node.input(0), node.input(1)
    lens = node.input(4, optional=True)
    h0_all = node.input(5, optional=True)
    c0_all = node.input(6, optional=True) if kind == "LSTM" else None
    direction = node.attr("direction", "forward")
    if direction not in ("forward", "reverse", "bidirectional"):
        raise node.unsupported(f"direction={direction!r}")
    num_dir = 2 if direction == "bidirectional" else 1
    layout = node.attr("layout", 0)
    if layout not in (0, 1):
        raise node.unsupported(f"layout={layout}")
    w_shape = node.shape(w)
    if len(w_shape) != 3 or w_shape[0] != num_dir:
        raise ValueError(
            f"from_onnx: {node.where()}: W must be [num_directions={num_dir}, "
            f"{_GATES[kind]} * hidden_size, input_size], got {w_shape}"
        )
    hidden = node.attr("hidden_size", None)
    if hidden is None:
        if not isinstance(w_shape[1], int):
            raise node.unsupported("a W of symbolic shape without hidden_size")
        hidden = w_shape[1] // _GATES[kind]
    if isinstance(w_shape[1], int) and w_shape[1] != _GATES[kind] * hidden:
        raise ValueError(
            f"from_onnx: {node.where()}: W {w_shape} does not hold {_GATES[kind]} gates of "
            f"hidden_size={hidden}"
        )
    node.ignore("output_sequence")  # opset 1: whether Y is wanted, which its name says
    clip = node.attr("clip", None)
    acts = _activations(node, kind, num_dir)
    if kind == "GRU":
        node.attr("linear_before_reset", 0)
    if kind == "LSTM":
        node.attr("input_forget", 0)
    if layout == 1:  # batch-major operands: made time-major ([T, B, ...], [D, B, H])
        x = node.emit(R.permute_dims(x, [1, 0, 2]))
        if h0_all is not None:
            h0_all = node.emit(R.permute_dims(h0_all, [1, 0, 2]))
        if c0_all is not None:
            c0_all = node.emit(R.permute_dims(c0_all, [1, 0, 2]))
    steps, batch, _ = node.shape(x)
    dtype = dtype_of(x)
    if lens is not None:
        lens = node.emit(R.astype(lens, "int64"))
    ys, hs, cs = [], [], []
    for d in range(num_dir):
        layer = _Layer(node, kind, d, hidden, acts[d], clip, x)
        zeros = R.zeros([batch, hidden], dtype)
        h0 = _pick(node, h0_all, d) if h0_all is not None else node.emit(zeros)
        c0 = None
        if kind == "LSTM":
            c0 = _pick(node, c0_all, d) if c0_all is not None else node.emit(zeros)
        backward = direction == "reverse" or d == 1
        xs = _reverse(node, layer.proj, lens) if backward else layer.proj
        y, h, c = _run_direction(node, layer, xs, lens, h0, c0, steps)
        if backward:
            y = _reverse(node, y, lens)
        ys.append(node.emit(R.expand_dims(y, [1])))
        hs.append(node.emit(R.expand_dims(h, [0])))
        if c is not None:
            cs.append(node.emit(R.expand_dims(c, [0])))

    def join(parts, axis):
        return parts[0] if len(parts) == 1 else node.emit(R.concat(parts, axis=axis))

    y, y_h = join(ys, 1), join(hs, 0)  # [T, D, B, H], [D, B, H]
    y_c = join(cs, 0) if cs else None
    if layout == 1:
        y = node.emit(R.permute_dims(y, [2, 0, 1, 3]))
        y_h = node.emit(R.permute_dims(y_h, [1, 0, 2]))
        if y_c is not None:
            y_c = node.emit(R.permute_dims(y_c, [1, 0, 2]))
    return [y, y_h] + ([y_c] if y_c is not None else [])


@converter("RNN", since=1)
def _rnn(node: Node):
    return _recurrent(node, "RNN")


@converter("GRU", since=1)
def _gru(node: Node):
    return _recurrent(node, "GRU")


@converter("LSTM", since=1)
def _lstm(node: Node):
    return _recurrent(node, "LSTM")
