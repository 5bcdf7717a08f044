"""tvm.testing.plugin: a pytest plugin generating the tests tvm.testing.parameters asks for."""

from __future__ import annotations


def pytest_configure(config):
    # The marks upstream's test files use for devices this stack may lack.
    for mark, what in (("gpu", "needs a GPU"), ("llvm", "needs the LLVM backend")):
        config.addinivalue_line("markers", f"{mark}: {what}")


def pytest_generate_tests(metafunc):
    """Parametrize the fixtures of one tvm.testing.parameters call together, once per value
    set (a plain parametrization of each would run every combination)."""
    groups: dict = {}
    for name, fixturedefs in metafunc.definition._fixtureinfo.name2fixturedefs.items():
        func = fixturedefs[-1].func
        group = getattr(func, "parametrize_group", None)
        if group is None or name not in metafunc.fixturenames:
            continue
        entry = groups.setdefault(group, {"ids": func.parametrize_ids, "params": []})
        entry["params"].append((name, func.parametrize_values))
    for entry in groups.values():
        names = [name for name, _ in entry["params"]]
        if len(names) == 1:
            metafunc.parametrize(names[0], entry["params"][0][1], indirect=True, ids=entry["ids"])
        else:
            rows = list(zip(*(values for _, values in entry["params"])))
            metafunc.parametrize(",".join(names), rows, indirect=True, ids=entry["ids"])
