"""tvm.contrib.cc: shared and static libraries built with the system compiler, as upstream."""

import ctypes
import os
import shutil
import subprocess

import pytest
from tvm.contrib import cc, utils

needs_cc = pytest.mark.skipif(
    cc.get_cc() is None, reason="needs a C compiler, which this host lacks"
)
# g++ comes first among the default compilers (as upstream): the symbol keeps its C name.
SOURCE = '#ifdef __cplusplus\nextern "C"\n#endif\nint add_one(int x) { return x + 1; }\n'


@needs_cc
def test_create_shared_links_a_library_that_loads(tmp_path):
    src = tmp_path / "add.c"
    src.write_text(SOURCE)
    lib = tmp_path / "libadd.so"
    cc.create_shared(str(lib), [str(src)], options=["-O2"])
    assert ctypes.CDLL(str(lib)).add_one(41) == 42
    assert cc.create_shared.output_format == "so"


@needs_cc
@pytest.mark.skipif(shutil.which("ar") is None, reason="needs ar, which this host lacks")
def test_create_staticlib_archives_objects(tmp_path):
    src = tmp_path / "add.c"
    src.write_text(SOURCE)
    obj = tmp_path / "add.o"
    cc.create_shared(str(obj), [str(src)])  # a .o output compiles only (-c)
    lib = tmp_path / "libadd.a"
    cc.create_staticlib(str(lib), [str(obj)])
    listed = subprocess.run(["ar", "t", str(lib)], capture_output=True, text=True, check=True)
    assert listed.stdout.split() == ["add.o"]


@needs_cc
def test_create_executable_and_a_cross_compiler_with_extra_options(tmp_path):
    src = tmp_path / "main.c"
    src.write_text("int main(void) { return VALUE; }\n")
    exe = tmp_path / "main"
    fcompile = cc.cross_compiler(cc.create_executable, options=["-DVALUE=3"])
    fcompile(str(exe), [str(src)])
    assert subprocess.run([str(exe)]).returncode == 3
    assert fcompile.output_format == ""


@needs_cc
def test_a_compile_error_is_a_runtime_error_with_the_output_and_command(tmp_path):
    src = tmp_path / "bad.c"
    src.write_text("int f( { }\n")
    with pytest.raises(RuntimeError, match=r"(?s)^Compilation error:\n.*\nCommand line: .*bad\.c"):
        cc.create_shared(str(tmp_path / "bad.so"), [str(src)])


def test_get_cc_prefers_the_environment(monkeypatch):
    monkeypatch.setenv("CXX", "/opt/my-c++")
    assert cc.get_cc() == "/opt/my-c++"
    monkeypatch.delenv("CXX")
    monkeypatch.setenv("CC", "/opt/my-cc")
    assert cc.get_cc() == "/opt/my-cc"


def test_a_missing_compiler_command_is_named(tmp_path):
    with pytest.raises(
        RuntimeError, match="create_shared: the command '/no/such/cc' was not found"
    ):
        cc.create_shared(str(tmp_path / "x.so"), ["x.c"], cc="/no/such/cc")


def test_a_compiler_that_cannot_run_and_a_missing_cwd_are_named(tmp_path):
    # a directory is found but cannot be executed: not the bare PermissionError
    with pytest.raises(RuntimeError, match=f"create_shared: the command '{tmp_path}' cannot run"):
        cc.create_shared(str(tmp_path / "x.so"), ["x.c"], cc=str(tmp_path))
    # a missing working directory is not reported as a missing compiler
    with pytest.raises(ValueError, match="create_shared: argument 'cwd' is not a directory"):
        cc.create_shared(str(tmp_path / "x.so"), ["x.c"], cwd=str(tmp_path / "nope"))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cc.create_shared(3, ["a.c"]), "create_shared: argument 'output' must be a path"),
        (lambda: cc.create_shared("a.so", 3), "argument 'objects' must be a path or a list"),
        (lambda: cc.create_shared("a.so", ["a.c"], options="-O2"), "'options' must be a list"),
        (lambda: cc.create_staticlib("a.a", [None]), "create_staticlib: argument 'inputs'"),
        (lambda: cc.cross_compiler(3), "cross_compiler: argument 'compile_func' must be a str"),
        (lambda: cc.cross_compiler("g++", options="-O2"), "cross_compiler: argument 'options'"),
        (lambda: cc.cross_compiler("g++", add_files="a.c"), "argument 'add_files' must be a list"),
        (lambda: cc.create_shared("a.so", ["a.c"], cc=5), "create_shared: argument 'cc' must be"),
        (lambda: cc.create_shared("a.so", ["a.c"], cc=["g++"]), "argument 'cc' must be a command"),
        (lambda: cc.create_staticlib("a.a", ["a.o"], ar=5), "create_staticlib: argument 'ar'"),
        (lambda: cc.create_shared("a.so", ["a.c"], cwd=3), "create_shared: argument 'cwd'"),
    ],
)
def test_bad_arguments_are_type_errors_naming_them(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_tempdir_is_there_too():
    with utils.tempdir() as temp:
        assert os.path.isdir(temp.path)
