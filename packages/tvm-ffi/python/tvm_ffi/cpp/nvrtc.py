"""NVRTC: compiles CUDA C++ source to a CUBIN at run time, through the cuda-python bindings."""

from __future__ import annotations

from collections.abc import Sequence

_MISSING_BINDINGS = (
    "CUDA bindings not available. Install with: pip install cuda-python "
    "(nvrtc_compile needs its cuda.bindings.nvrtc and cuda.bindings.driver modules and the "
    "NVRTC library of a CUDA toolkit)"
)


def _check(result, nvrtc, what: str) -> None:
    if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"nvrtc_compile: {what} failed: {result}")


def _detect_arch(driver) -> str:
    """sm_XY of device 0, from the CUDA driver."""

    def call(what, result_and_value):
        result, value = result_and_value
        if result != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"{what}: {result}")
        return value

    try:
        (result,) = driver.cuInit(0)
        if result != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"cuInit: {result}")
        device = call("cuDeviceGet", driver.cuDeviceGet(0))
        attr = driver.CUdevice_attribute
        major = call(
            "cuDeviceGetAttribute",
            driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
        )
        minor = call(
            "cuDeviceGetAttribute",
            driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
        )
    except RuntimeError as err:
        raise RuntimeError(
            f"nvrtc_compile: cannot detect the GPU architecture ({err}); "
            "pass arch='sm_XY' explicitly"
        ) from None
    return f"sm_{major}{minor}"


def nvrtc_compile(
    source: str,
    *,
    name: str = "kernel.cu",
    arch: str | None = None,
    extra_opts: Sequence[str] | None = None,
) -> bytes:
    """Compiles CUDA C++ `source` to CUBIN bytes with NVRTC (loadable by the CUDA driver, e.g.
    through embed_cubin or cuModuleLoadData).

    `name` is the source's file name in messages; `arch` the target (``"sm_80"``), by default
    that of GPU 0; `extra_opts` more NVRTC options (``["-DN=4", "-I/path"]``). Compiled with
    ``--gpu-architecture=<arch> -default-device``.

    Raises TypeError for arguments of the wrong type, RuntimeError when cuda-python (with the
    NVRTC library) is not installed, the architecture cannot be detected or the compilation
    fails (with NVRTC's log).
    """
    if not isinstance(source, str):
        raise TypeError(
            f"nvrtc_compile: argument `source` must be a str, got {type(source).__name__}"
        )
    if not isinstance(name, str):
        raise TypeError(f"nvrtc_compile: argument `name` must be a str, got {type(name).__name__}")
    if arch is not None and not isinstance(arch, str):
        raise TypeError(
            f"nvrtc_compile: argument `arch` must be a str or None, got {type(arch).__name__}"
        )
    if isinstance(extra_opts, (str, bytes)) or not (
        extra_opts is None or all(isinstance(opt, (str, bytes)) for opt in extra_opts)
    ):
        raise TypeError("nvrtc_compile: argument `extra_opts` must be a sequence of str")
    try:
        from cuda.bindings import driver, nvrtc  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        raise RuntimeError(_MISSING_BINDINGS) from None
    if arch is None:
        arch = _detect_arch(driver)
    opts = [b"--gpu-architecture=" + arch.encode(), b"-default-device"]
    opts += [opt.encode() if isinstance(opt, str) else opt for opt in extra_opts or ()]
    result, prog = nvrtc.nvrtcCreateProgram(source.encode(), name.encode(), 0, [], [])
    _check(result, nvrtc, "nvrtcCreateProgram")
    try:
        (result,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
        if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            log_result, size = nvrtc.nvrtcGetProgramLogSize(prog)
            log = b""
            if log_result == nvrtc.nvrtcResult.NVRTC_SUCCESS and size > 1:
                buf = b" " * size
                (log_result,) = nvrtc.nvrtcGetProgramLog(prog, buf)
                log = buf.rstrip(b"\0") if log_result == nvrtc.nvrtcResult.NVRTC_SUCCESS else b""
            raise RuntimeError(
                f"nvrtc_compile: compiling {name} for {arch} failed ({result}):\n"
                + log.decode(errors="replace")
            )
        result, size = nvrtc.nvrtcGetCUBINSize(prog)
        _check(result, nvrtc, "nvrtcGetCUBINSize")
        cubin = b" " * size
        (result,) = nvrtc.nvrtcGetCUBIN(prog, cubin)
        _check(result, nvrtc, "nvrtcGetCUBIN")
        return cubin
    finally:
        nvrtc.nvrtcDestroyProgram(prog)


__all__ = ["nvrtc_compile"]
