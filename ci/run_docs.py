# Runs every command and code block of the docs and READMEs in a fresh venv, as a reader would.
"""Usage: python ci/run_docs.py [--keep] [PAGE ...]

Builds a fresh venv the way the pages say (their `docs-run: install` blocks, run in a
folder where `dist` holds the wheels `nox -s wheels` built), then runs each page's
blocks in order in a work folder of its own: Python blocks each in their own process,
shell blocks with bash, file blocks written for later blocks to use. See ci/doc_blocks.py
for how a block says what it is. Exits non-zero, naming the page and line, on the first
block of a page that fails, after running every page.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from doc_blocks import blocks_of, check_claims, classify, doc_pages, tested_by
from monorepo import DIST_DIR, ROOT

BLOCK_TIMEOUT = 600  # seconds; a block that hangs fails instead of stalling CI


def venv_env(venv: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env.pop("PYTHONPATH", None)
    return env


def run_block(block, kind: str, folder: Path, env: dict[str, str]) -> str | None:
    """Runs one block in `folder`; returns None, or what went wrong with its output."""
    if kind == "file":
        target = folder / block.file_name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.code, encoding="utf-8")
        return None
    if kind == "python":
        # Blank lines first, so a traceback's line numbers are the page's own.
        script = folder / f"block_{block.line}.py"
        script.write_text("\n" * block.line + block.code, encoding="utf-8")
        command = ["python", str(script)]
    else:
        command = ["bash", "-euo", "pipefail", "-c", block.code]
    try:
        done = subprocess.run(
            command, cwd=folder, env=env, capture_output=True, text=True, timeout=BLOCK_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return f"still running after {BLOCK_TIMEOUT} s"
    if done.returncode == 0:
        return None
    return f"exit status {done.returncode}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"


def new_work_folder(root: Path, name: str) -> Path:
    """A folder where `dist` is the repository's wheel folder, as at the repository root."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "dist").symlink_to(DIST_DIR, target_is_directory=True)
    return folder


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the work folders")
    parser.add_argument("pages", nargs="*", type=Path, help="only these pages (default: all)")
    args = parser.parse_args(argv)

    problems = check_claims(ROOT)
    if problems:
        print("\n".join(problems))
        return 1
    if not any(DIST_DIR.glob("*.whl")):
        print(f"run_docs: no wheels in {DIST_DIR}: run `nox -s wheels` first")
        return 1
    pages = [p.resolve() for p in args.pages] if args.pages else doc_pages(ROOT)
    work = Path(tempfile.mkdtemp(prefix="tvm-stack-docs-"))
    failures, counts = [], {}
    try:
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = venv_env(venv)
        setup = new_work_folder(work, "install")
        plan = []
        for page in doc_pages(ROOT):
            page_test = tested_by(page)
            plan += [(page, b, classify(b, page_test)) for b in blocks_of(page)]
        for _page, _block, kind in plan:
            counts[kind] = counts.get(kind, 0) + 1
        # Every install line of every page first: later blocks run where all of them hold.
        for _page, block, kind in plan:
            if kind == "install" and (error := run_block(block, "shell", setup, env)):
                failures.append(f"{block.where}: {error}")
        for page in pages:
            folder = new_work_folder(work, page.relative_to(ROOT).as_posix().replace("/", "_"))
            for p, block, kind in plan:
                if p != page or kind not in ("python", "shell", "file"):
                    continue
                started = time.monotonic()
                error = run_block(block, kind, folder, env)
                print(
                    f"run_docs: {block.where.replace(str(ROOT) + '/', '')} [{block.lang}] "
                    f"{'FAILED' if error else 'ok'} ({time.monotonic() - started:.1f} s)",
                    flush=True,
                )
                if error:
                    failures.append(f"{block.where}: {error}")
                    break  # later blocks of the page may depend on this one
    finally:
        if args.keep:
            print(f"run_docs: work folders kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("run_docs: blocks by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    for failure in failures:
        print(f"run_docs: FAILED {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
