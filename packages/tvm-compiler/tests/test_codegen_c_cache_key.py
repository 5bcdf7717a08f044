# The C kernel cache: a kernel built against other tvm-ffi headers (another ABI) is rebuilt.
from tvm.codegen.c import compiler

SOURCE = (
    "#include <tvm_ffi/c_api.h>\nTVM_FFI_LIBRARY_ABI_TAG();\n"
    "int tvm_cache_key_probe(void) { return 7; }\n"
)


def test_header_identity_follows_the_header_contents(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, text in (
        (first, "#define TVM_FFI_ABI_VERSION_MAJOR 0\n"),
        (second, "#define TVM_FFI_ABI_VERSION_MAJOR 1\n"),
    ):
        (folder / "tvm_ffi").mkdir(parents=True)
        (folder / "tvm_ffi" / "c_api.h").write_text(text)
    assert compiler._header_identity(str(first)) != compiler._header_identity(str(second))
    assert compiler._header_identity(str(tmp_path / "none")) == str(tmp_path / "none")


def test_other_headers_make_another_cached_library(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_STACK_KERNEL_CACHE", str(tmp_path))
    built = compiler.compile_shared_library(SOURCE, use_openmp=False)
    assert compiler.compile_shared_library(SOURCE, use_openmp=False) == built
    monkeypatch.setattr(compiler, "_header_identity", lambda include_dir: "other headers")
    assert compiler.compile_shared_library(SOURCE, use_openmp=False) != built
