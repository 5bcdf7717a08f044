# TVMScript parse errors: a DiagnosticError rendered as upstream does (file:line:col, the source
# line, carets under the offending code) with a message saying what was expected.
import subprocess
import sys

import pytest
import tvm
from tvm.script import tir as T
from tvmscript_checks import rendered_error

HEAD = 'from tvm.script import tir as T\n@T.prim_func\ndef f(A: T.Buffer((4,), "float32")):\n'


_rendered = rendered_error


@pytest.mark.parametrize(
    "body, expected",
    [
        (
            "    A[0] = y\n",
            "error: name 'y' is not defined\n --> <string>:4:12\n   |\n 4 |     A[0] = y\n"
            "   |            ^",
        ),
        (
            "    A[0] = T.exp(A[0], A[1])\n",
            "error: T.exp: exp() takes 1 positional argument but 2 were given\n"
            " --> <string>:4:12\n   |\n 4 |     A[0] = T.exp(A[0], A[1])\n"
            "   |            ^^^^^^^^^^^^^^^^^",
        ),
        (
            "    while True:\n        break\n",
            "error: break is not supported in TVMScript TIR\n"
            " --> <string>:5:9\n   |\n 5 |         break\n   |         ^^^^^",
        ),
        (
            "    g = lambda x: x\n",
            "error: a lambda is not supported in TVMScript\n --> <string>:4:9\n   |\n"
            " 4 |     g = lambda x: x\n   |         ^^^^^^^^^^^",
        ),
        (
            '    T.evaluate(**{"value": 0})\n',
            "error: **kwargs is not supported in TVMScript\n --> <string>:4:16\n   |\n"
            ' 4 |     T.evaluate(**{"value": 0})\n   |                ^^^^^^^^^^^^^^',
        ),
        (
            "    T.evaluat(0)\n",
            "error: T has no attribute 'evaluat'; did you mean 'evaluate'?\n"
            " --> <string>:4:5\n   |\n 4 |     T.evaluat(0)\n   |     ^^^^^^^^^",
        ),
        (
            "    T.evaluate(0)\n  T.evaluate(1)\n",
            "error: unindent does not match any outer indentation level\n"
            " --> <string>:5:16\n   |\n 5 |   T.evaluate(1)\n   |                ^",
        ),
    ],
    ids=["undefined", "arity", "while", "lambda", "kwargs", "misspelt-attr", "indentation"],
)
def test_bad_bodies_give_their_rendered_diagnostic(body, expected):
    assert _rendered(HEAD + body) == expected


def test_a_shape_that_is_not_a_tuple_and_a_misspelt_dtype():
    bad_shape = HEAD.replace('T.Buffer((4,), "float32")', 'T.Buffer(4.5, "float32")')
    assert _rendered(bad_shape + "    T.evaluate(0)\n") == (
        "error: T.Buffer: shape must be a tuple such as (128,) or (n, 4), got 4.5\n"
        " --> <string>:3:10\n   |\n"
        ' 3 | def f(A: T.Buffer(4.5, "float32")):\n'
        "   |          ^^^^^^^^^^^^^^^^^^^^^^^^"
    )
    typo = HEAD.replace('"float32"', '"flaot32"')
    assert _rendered(typo + "    T.evaluate(0)\n").splitlines()[0] == (
        "error: T.Buffer: unknown dtype 'flaot32'; did you mean 'float32'?"
    )


def test_a_decorated_function_error_names_its_file_line_and_column():
    with pytest.raises(tvm.error.DiagnosticError) as info:

        @T.prim_func
        def f(A: T.Buffer((4,), "flaot32")):
            T.evaluate(0)

    line = test_a_decorated_function_error_names_its_file_line_and_column.__code__.co_firstlineno
    assert f" --> {__file__}:{line + 4}:18\n" in str(info.value)
    assert info.value.span.line == line + 4


def test_an_uncaught_parse_error_prints_the_diagnostic_without_internal_frames():
    code = "import tvm.script\ntvm.script.from_source(" + repr(HEAD + "    A[0] = y\n") + ")\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    assert "error: name 'y' is not defined\n --> <string>:4:12" in done.stderr
    assert "evaluator.py" not in done.stderr


def test_a_statement_checked_as_its_scope_closes_points_at_that_statement():
    # `assert` lasts to the end of the body: its node is built (and checked) only then.
    src = 'from tvm.script import tir as T\n@T.prim_func\ndef f(n: T.int32):\n    assert n, "m"\n'
    assert _rendered(src + "    T.evaluate(0)\n") == (
        "error: TypeError: AssertStmt: expected a bool expression, got dtype int32\n"
        ' --> <string>:4:5\n   |\n 4 |     assert n, "m"\n   |     ^^^^^^^^^^^^^'
    )


@pytest.mark.parametrize(
    "opener",
    [
        '    B = T.allocate_const([1, 2], "int32", [2])\n',
        '    assert A[0] > T.float32(0), "positive"\n',
        '    B = T.allocate_const([1, 2], "int32", [2])\n    assert A[0] > T.float32(0), "m"\n',
    ],
    ids=["allocate_const", "assert", "both"],
)
def test_an_error_after_a_statement_lasting_to_the_end_is_reported_itself(opener):
    # Those statements' frames were still open when the error left the body, and the
    # function's frame then reported "PrimFuncFrame exited out of order" instead.
    for body, line in [("    A[0] = y\n", 0), ("    for i in range(4):\n        A[i] = y\n", 1)]:
        lineno = 4 + opener.count("\n") + line
        assert _rendered(HEAD + opener + body).startswith(
            f"error: name 'y' is not defined\n --> <string>:{lineno}:"
        )


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (b"x = 1", r"from_source: program must be TVMScript text \(a str; decode bytes first\)"),
        (42, "from_source: program must be TVMScript text .* got int"),
        (None, "from_source: program must be TVMScript text .* got NoneType"),
    ],
)
def test_from_source_names_what_it_takes(program, expected):
    with pytest.raises(TypeError, match=expected):
        tvm.script.from_source(program)
