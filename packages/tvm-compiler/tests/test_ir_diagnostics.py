# tvm.ir.diagnostics: Diagnostic, DiagnosticContext, DiagnosticRenderer, override_renderer; the
# TVMScript parser renders through them and reports independent mistakes in a function together.
import pytest
import tvm
from tvm.ir import diagnostics as D
from tvm.ir.span import SourceName, Span
from tvmscript_checks import rendered_error

TIR = 'from tvm.script import tir as T\n@T.prim_func\ndef f(A: T.Buffer((4,), "float32")):\n'
RELAX = (
    "from tvm.script import relax as R\n"
    "@R.function\n"
    'def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):\n'
)


@pytest.fixture(autouse=True)
def _default_renderer():
    yield
    D.override_renderer(None)


def test_two_undefined_names_in_two_statements_are_one_error_rendering_both():
    text = rendered_error(TIR + "    A[0] = y\n    A[1] = z\n")
    assert text == (
        "error: name 'y' is not defined\n --> <string>:4:12\n   |\n 4 |     A[0] = y\n"
        "   |            ^\n"
        "\n"
        "error: name 'z' is not defined\n --> <string>:5:12\n   |\n 5 |     A[1] = z\n"
        "   |            ^"
    )


def test_a_statement_using_what_a_failed_statement_defines_adds_nothing():
    # `b` fails because `a` failed: one diagnostic, for the first mistake only.
    src = RELAX + "    a = R.add(x, y)\n    b = R.add(a, a)\n    return b\n"
    assert rendered_error(src) == (
        "error: name 'y' is not defined\n --> <string>:4:18\n   |\n"
        " 4 |     a = R.add(x, y)\n   |                  ^"
    )


def test_relax_reports_independent_mistakes_together():
    src = RELAX + "    a = R.add(x, y)\n    b = R.multiply(x, w)\n    return x\n"
    errors = rendered_error(src).split("\n\n")
    assert [e.splitlines()[0] for e in errors] == [
        "error: name 'y' is not defined",
        "error: name 'w' is not defined",
    ]
    assert errors[1].splitlines()[1] == " --> <string>:5:23"


def test_a_correct_local_function_after_a_mistake_does_not_stop_the_report():
    src = (
        RELAX
        + "    a = R.add(x, y)\n"
        + "    @R.function\n"
        + '    def inner(z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):\n'
        + "        return z\n"
        + "    b = R.multiply(x, w)\n"
        + "    return x\n"
    )
    errors = rendered_error(src).split("\n\n")
    assert [e.splitlines()[0] for e in errors] == [
        "error: name 'y' is not defined",
        "error: name 'w' is not defined",
    ]


def test_a_mistake_in_a_local_function_is_reported_with_those_around_it():
    src = (
        RELAX
        + "    a = R.add(x, y)\n"
        + "    @R.function\n"
        + '    def inner(z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):\n'
        + "        return R.add(z, q)\n"
        + "    b = R.multiply(x, w)\n"
        + "    return x\n"
    )
    errors = rendered_error(src).split("\n\n")
    assert [e.splitlines()[0] for e in errors] == [
        "error: name 'y' is not defined",
        "error: name 'q' is not defined",
        "error: name 'w' is not defined",
    ]


def test_mistakes_inside_nested_blocks_are_reported_with_those_outside():
    src = TIR + "    for i in range(4):\n        A[i] = q\n    A[0] = r\n"
    errors = rendered_error(src).split("\n\n")
    assert [e.splitlines()[0] for e in errors] == [
        "error: name 'q' is not defined",
        "error: name 'r' is not defined",
    ]


def test_mistakes_in_two_functions_of_a_module_are_reported_together():
    src = (
        "from tvm.script import ir as I\n"
        "from tvm.script import relax as R\n"
        "from tvm.script import tir as T\n"
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func\n"
        '    def f(A: T.Buffer((4,), "float32")):\n'
        "        A[0] = y\n"
        "    @R.function\n"
        '    def g(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):\n'
        "        return R.add(x, z)\n"
    )
    assert rendered_error(src) == (
        "error: name 'y' is not defined\n --> <string>:8:16\n   |\n 8 |         A[0] = y\n"
        "   |                ^\n"
        "\n"
        "error: name 'z' is not defined\n  --> <string>:11:25\n    |\n"
        " 11 |         return R.add(x, z)\n    |                         ^"
    )


def test_the_error_carries_its_diagnostics_and_the_span_of_the_first():
    with pytest.raises(tvm.error.DiagnosticError) as info:
        tvm.script.from_source(TIR + "    A[0] = y\n    A[1] = z\n")
    err = info.value
    assert [d.message for d in err.diagnostics] == [
        "name 'y' is not defined",
        "name 'z' is not defined",
    ]
    assert all(d.level == D.DiagnosticLevel.ERROR for d in err.diagnostics)
    assert (err.span.line, err.span.column) == (4, 12)


def test_an_overriding_renderer_sees_every_diagnostic_and_the_error_says_so():
    seen = []

    def render(ctx):
        seen.append([(d.level, d.message, d.span.line) for d in ctx.diagnostics])

    D.override_renderer(render)
    assert D.get_renderer().render_func is render
    with pytest.raises(tvm.error.DiagnosticError) as info:
        tvm.script.from_source(TIR + "    A[0] = y\n    A[1] = z\n")
    assert str(info.value) == (
        "DiagnosticError: one or more error diagnostics were emitted, please check diagnostic "
        "render for output."
    )
    assert seen == [
        [
            (D.DiagnosticLevel.ERROR, "name 'y' is not defined", 4),
            (D.DiagnosticLevel.ERROR, "name 'z' is not defined", 5),
        ]
    ]
    D.override_renderer(None)
    assert D.get_renderer().render_func is D.render_text
    assert rendered_error(TIR + "    A[0] = y\n").startswith("error: name 'y' is not defined")


def _span(line, col, end_col):
    return Span(SourceName("prog.py"), line, col, line, end_col)


def test_a_context_renders_its_diagnostics_with_the_source_lines():
    source_map = D.SourceMap({"prog.py": "x = 1\ny = x +\n"})
    ctx = D.DiagnosticContext(None, D.DiagnosticRenderer(), source_map)
    ctx.emit(D.Diagnostic(D.DiagnosticLevel.WARNING, _span(1, 1, 2), "x is unused"))
    ctx.emit(D.Diagnostic(D.DiagnosticLevel.ERROR, _span(2, 5, 8), "incomplete expression"))
    with pytest.raises(tvm.error.DiagnosticError) as info:
        ctx.render()
    assert str(info.value) == (
        "warning: x is unused\n --> prog.py:1:1\n   |\n 1 | x = 1\n   | ^\n"
        "\n"
        "error: incomplete expression\n --> prog.py:2:5\n   |\n 2 | y = x +\n   |     ^^^"
    )


def test_warnings_alone_are_shown_on_stderr_by_the_default_renderer(capsys):
    # upstream's terminal renderer writes them; they must not vanish when nothing fails
    source_map = D.SourceMap({"prog.py": "x = 1\n"})
    ctx = D.DiagnosticContext(None, D.DiagnosticRenderer(), source_map)
    ctx.emit(D.Diagnostic(D.DiagnosticLevel.WARNING, _span(1, 1, 2), "x is unused"))
    ctx.render()
    assert capsys.readouterr().err == (
        "warning: x is unused\n --> prog.py:1:1\n   |\n 1 | x = 1\n   | ^\n"
    )
    ctx.render()  # rendered diagnostics are cleared, as upstream's render does
    assert capsys.readouterr().err == ""


def test_a_context_of_warnings_only_renders_without_failing():
    calls = []
    ctx = D.DiagnosticContext(None, D.DiagnosticRenderer(calls.append))
    ctx.emit(D.Diagnostic(D.DiagnosticLevel.NOTE, None, "just so you know"))
    ctx.render()
    assert calls == [ctx]


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: D.Diagnostic(99, None, "m"), ValueError, "argument 'level' must be a Diagnos"),
        (lambda: D.Diagnostic(20, "a span", "m"), TypeError, "argument 'span' must be a tvm.ir"),
        (lambda: D.Diagnostic(20, None, 3), TypeError, "argument 'message' must be a str"),
        (lambda: D.DiagnosticRenderer(3), TypeError, "argument 'render_func' must be callable"),
        (lambda: D.DiagnosticContext(None, "r"), TypeError, "argument 'renderer' must be a Diag"),
        (lambda: D.DiagnosticContext().emit("d"), TypeError, "argument 'diagnostic' must be a Di"),
        (lambda: D.override_renderer(3), TypeError, "argument 'render_func' must be callable"),
    ],
)
def test_bad_arguments_name_the_function_and_the_argument(make, error, message):
    with pytest.raises(error, match=message):
        make()
