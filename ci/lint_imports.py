# Checks the layer DAG's import contracts (root pyproject.toml) on the installed tvm packages.
"""Usage: python ci/lint_imports.py [--config pyproject.toml]

Runs import-linter on the packages importable from this interpreter (a regular install of
every wheel in `nox -s lint`). Contracts name modules that a layer must never import; a
named module that no installed package ships (for instance a compiler subpackage that does
not exist yet) is reported and left out, and a contract whose source modules are all
missing fails: it would check nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

import grimp
from importlinter.cli import lint_imports

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
MODULE_LISTS = ("source_modules", "forbidden_modules")


def load_config(path: Path) -> dict:
    with open(path, "rb") as f:
        config = tomllib.load(f).get("tool", {}).get("importlinter")
    if not config or not config.get("contracts"):
        raise SystemExit(f"lint_imports: {path} has no [tool.importlinter] contracts")
    return config


def keep_existing(config: dict, modules: set[str]) -> tuple[dict, list[str]]:
    """The config with modules absent from `modules` dropped; also the failures found."""
    problems = []
    contracts = []
    for contract in config["contracts"]:
        contract = dict(contract)
        for key in MODULE_LISTS:
            if key not in contract:
                continue
            present = [m for m in contract[key] if m in modules]
            missing = sorted(set(contract[key]) - set(present))
            if missing:
                print(f"[{contract['id']}] not installed, so not checked: {', '.join(missing)}")
            contract[key] = present
        if "source_modules" in contract and not contract["source_modules"]:
            problems.append(f"[{contract['id']}] none of its source modules is installed")
            continue
        if "forbidden_modules" in contract and not contract["forbidden_modules"]:
            print(
                f"[{contract['id']}] none of its forbidden modules is installed; nothing to check"
            )
            continue
        contracts.append(contract)
    return {**config, "contracts": contracts}, problems


def to_ini(config: dict) -> str:
    """import-linter's INI form of a [tool.importlinter] table (lists as indented lines)."""

    def value(v) -> str:
        if isinstance(v, list):
            return "".join(f"\n    {item}" for item in v) or "\n"
        return str(v).lower() if isinstance(v, bool) else str(v)

    lines = ["[importlinter]"]
    lines += [f"{k} = {value(v)}" for k, v in config.items() if k != "contracts"]
    for contract in config["contracts"]:
        lines.append(f"\n[importlinter:contract:{contract['id']}]")
        lines += [f"{k} = {value(v)}" for k, v in contract.items() if k != "id"]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "pyproject.toml")
    args = parser.parse_args(argv)
    config = load_config(args.config)
    roots = config["root_packages"]
    missing_roots = [r for r in roots if importlib.util.find_spec(r) is None]
    if missing_roots:
        print(
            f"lint_imports: root packages {missing_roots} are not importable from {sys.executable}"
        )
        return 1
    graph = grimp.build_graph(*roots, cache_dir=None)
    config, problems = keep_existing(config, graph.modules)
    for problem in problems:
        print(problem)
    with tempfile.TemporaryDirectory() as tmp:
        ini = Path(tmp) / "importlinter.ini"
        ini.write_text(to_ini(config))
        result = lint_imports(config_filename=str(ini), no_cache=True, no_logo=True)
    return 1 if problems else result


if __name__ == "__main__":
    sys.exit(main())
