"""relax.get_pipeline: the named pass pipelines that prepare a Relax module for the VM
("default" / "default_build": legalise ops to TIR, then lower memory, builtins and shapes)."""

from __future__ import annotations

import tvm.transform


def _legalize_passes():
    """Upstream's legalisation passes: ops to TIR, then fusion of the kernels by pattern."""
    from tvm.relax import transform

    return [
        transform.LegalizeOps(),
        transform.AnnotateTIROpPattern(),
        transform.FoldConstant(),
        transform.FuseOps(),
        transform.FuseTIR(),
    ]


def _default_schedule_passes():
    """dlight's CPU rules after fusion, for a CPU target in scope (upstream's CPU pipeline
    schedules its kernels the same way); nothing for another target or none."""
    from tvm.target import Target

    def schedule(mod, ctx):
        target = Target.current()
        if target is None or "cpu" not in target.keys:
            return mod
        from tvm.s_tir import dlight as dl

        rules = (dl.cpu.GEMV(), dl.cpu.Matmul(), dl.cpu.Reduction(), dl.cpu.Fallback())
        return dl.ApplyDefaultSchedule(*rules)(mod)

    return [tvm.transform.module_pass(schedule, opt_level=0, name="DefaultCPUSchedule")]


def zero_pipeline():
    """Legalise ops to TIR, annotate their patterns and fuse them, nothing more."""
    return tvm.transform.Sequential(_legalize_passes(), name="zero_pipeline")


def default_build_pipeline():
    """The pipeline relax.build / tvm.compile runs by default."""
    from tvm.relax import transform

    passes = [
        # Local functions become module functions and closures first: the VM runs only those.
        transform.LambdaLift(),
        *_legalize_passes(),
        *_default_schedule_passes(),
        transform.ToNonDataflow(),
        transform.RemovePurityChecking(),
        transform.CallTIRRewrite(),
        transform.StaticPlanBlockMemory(),
        transform.LowerAllocTensor(),
        transform.KillAfterLastUse(),
        transform.LowerRuntimeBuiltin(),
        transform.ComputePrimValue(),
        transform.VMShapeLower(),
        transform.AttachGlobalSymbol(),
    ]
    return tvm.transform.Sequential(passes, name="default_build_pipeline")


def get_default_pipeline(target=None) -> tvm.transform.Pass:
    """The default pipeline for target (relax.get_default_pipeline); every CPU target gets
    default_build_pipeline, which is upstream's cpu_generic pipeline."""
    return default_build_pipeline()


PIPELINE_MAP = {
    "zero": zero_pipeline,
    "default": default_build_pipeline,
    "default_build": default_build_pipeline,
}


def get_pipeline(name: str = "zero", **kwargs) -> tvm.transform.Pass:
    """The pipeline registered as name (relax.get_pipeline)."""
    if name not in PIPELINE_MAP:
        raise ValueError(
            f"relax.get_pipeline: unknown pipeline {name!r}; the registered pipelines are "
            f"{sorted(PIPELINE_MAP)}"
        )
    return PIPELINE_MAP[name](**kwargs)


def register_pipeline(name: str):
    """Decorator: register a function returning a Pass as the pipeline called name."""
    if name in PIPELINE_MAP:
        raise ValueError(f"relax.register_pipeline: a pipeline {name!r} is already registered")

    def register(func):
        PIPELINE_MAP[name] = func
        return func

    return register
