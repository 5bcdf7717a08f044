"""The TVMScript texts bench_tvmscript.py parses and prints: a TIR function of 1,000
statements and a Relax function of 1,000 bindings (tir_module names the T import: upstream
0.27 spells it tirx)."""

from mlp_workload import best_ms  # the shared timer (fastest of n, after a warm-up)

SIZE = 1000


def tir_text(tir_module: str = "tir") -> str:
    lines = [
        f"# from tvm.script import {tir_module} as T",
        "",
        "@T.prim_func",
        f'def main(A: T.Buffer(({SIZE},), "float32"), B: T.Buffer(({SIZE},), "float32")):',
    ]
    lines += [f"    B[{i}] = A[{i}] * T.float32(2.0) + T.float32(1.0)" for i in range(SIZE)]
    return "\n".join(lines) + "\n"


def relax_text() -> str:
    lines = [
        "# from tvm.script import relax as R",
        "",
        "@R.function",
        'def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):',
        "    lv0 = R.add(x, x)",
    ]
    lines += [f"    lv{i} = R.add(lv{i - 1}, x)" for i in range(1, SIZE)]
    lines.append(f"    return lv{SIZE - 1}")
    return "\n".join(lines) + "\n"


def figures(parse, tir_module: str = "tir") -> dict:
    """{workload: {"parse": ms, "print": ms}} for a from_source-like parse function."""
    out = {}
    for name, text in (("tir", tir_text(tir_module)), ("relax", relax_text())):
        func = parse(text)
        out[name] = {"parse": best_ms(lambda t=text: parse(t), 3), "print": best_ms(func.script, 3)}
    return out
