# Runs every command and code block of the docs and READMEs in a fresh venv, as a reader would.
"""Usage: python ci/run_docs.py [--keep] [PAGE ...]

Each page runs in a fresh venv built the way the page says: its `docs-run: install` blocks,
run in a folder where `dist` holds the wheels `nox -s wheels` built. Pages whose install
lines are the same share one venv (a page kind: tvm-ffi alone, the compiler, ...), so a
page that forgets an install line fails even when another page would have installed it.
Kinds run side by side, three at a time; a kind's pages run one after another, in order.
A page's blocks then run in order in a work folder of its own: Python blocks each in their
own process, shell blocks with bash, background blocks started and left running until the
page ends, file blocks written for later blocks to use. See ci/doc_blocks.py for how a
block says what it is. Exits non-zero, naming the page and line, on the first block of a
page that fails, after running every page.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from build_wheels import find_uv
from doc_blocks import blocks_of, check_claims, classify, doc_pages
from monorepo import DIST_DIR, ROOT

BLOCK_TIMEOUT = 600  # seconds; a block that hangs fails instead of stalling CI
BACKGROUND_READY_TIMEOUT = 60  # seconds a background block has to print its first line


def venv_env(venv: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env["PIP_NO_COMPILE"] = "1"  # no .pyc for what pip installs: most of its CPU time here
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


def start_background(block, folder: Path, env: dict[str, str]):
    """Starts a long-running block (a server) and waits for its first line of output; returns
    (process, None), or (None, what went wrong). Its output goes to a log in `folder`."""
    log_path = folder / f"background_{block.line}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            ["bash", "-euo", "pipefail", "-c", block.code],
            cwd=folder,
            env={**env, "PYTHONUNBUFFERED": "1"},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped whole at the page's end
        )
    deadline = time.monotonic() + BACKGROUND_READY_TIMEOUT
    while time.monotonic() < deadline:
        if log_path.read_text().strip():
            return process, None
        if process.poll() is not None:
            return None, f"exited with status {process.returncode} before printing anything"
        time.sleep(0.1)
    stop_background(process)
    return None, f"printed nothing in {BACKGROUND_READY_TIMEOUT} s"


def stop_background(process) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def new_work_folder(root: Path, name: str) -> Path:
    """A folder where `dist` is the repository's wheel folder and `packages` its packages, as
    at the repository root (read only: a page that builds from `packages/` copies it)."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "dist").symlink_to(DIST_DIR, target_is_directory=True)
    (folder / "packages").symlink_to(ROOT / "packages", target_is_directory=True)
    return folder


def build_venv(work: Path, number: int, installs, uv, failures: list[str]) -> dict | None:
    """A fresh venv holding what the install blocks `installs` install; its environment, or
    None (with the failure recorded) when an install line fails."""
    venv = work / f"venv-{number}"
    started = time.monotonic()
    if uv:  # uv makes a venv with pip in it in a tenth of the time `venv` takes
        command = [uv, "venv", "--quiet", "--seed", "--python", sys.executable, str(venv)]
    else:
        command = [sys.executable, "-m", "venv", str(venv)]
    subprocess.run(command, check=True)
    env = venv_env(venv)
    folder = new_work_folder(work, f"install-{number}")
    for block in installs:
        if error := run_block(block, "shell", folder, env):
            failures.append(f"{short(block.where)}: {error}")
            return None
    lines = "; ".join(b.code.strip().replace("\n", "; ") for b in installs)
    print(f"run_docs: venv-{number} ({time.monotonic() - started:.1f} s): {lines}", flush=True)
    return env


def short(where: str) -> str:
    return where.replace(str(ROOT) + "/", "")


def run_page(page: Path, plan, env, folder: Path, failures: list[str]) -> None:
    """Runs the page's blocks in order, stopping at the first that fails."""
    background = []
    try:
        for block, kind in plan:
            if kind not in ("python", "shell", "file", "background"):
                continue
            started = time.monotonic()
            if kind == "background":
                process, error = start_background(block, folder, env)
                background += [process] if process else []
            else:
                error = run_block(block, kind, folder, env)
            print(
                f"run_docs: {short(block.where)} [{block.lang}{' &' * (kind == 'background')}] "
                f"{'FAILED' if error else 'ok'} ({time.monotonic() - started:.1f} s)",
                flush=True,
            )
            if error:
                failures.append(f"{short(block.where)}: {error}")
                return  # later blocks of the page may depend on this one
    finally:
        for process in background:
            stop_background(process)


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
    plans = {page: [(b, classify(b)) for b in blocks_of(page)] for page in pages}
    counts = {}
    for plan in plans.values():
        for _block, kind in plan:
            counts[kind] = counts.get(kind, 0) + 1
    work = Path(tempfile.mkdtemp(prefix="tvm-stack-docs-"))
    failures, kinds = [], {}
    for page, plan in plans.items():
        installs = [b for b, kind in plan if kind == "install"]
        if installs:  # check_claims saw to it that a page without one runs nothing
            key = tuple(b.code for b in installs)
            kinds.setdefault(key, (installs, []))[1].append(page)

    def run_kind(number: int, installs, kind_pages) -> None:
        """One venv, then its pages one at a time, in order: a page may install into it."""
        env = build_venv(work, number, installs, uv, failures)
        for page in kind_pages if env else []:
            name = page.relative_to(ROOT).as_posix().replace("/", "_")
            run_page(page, plans[page], env, new_work_folder(work, name), failures)

    started = time.monotonic()
    uv = find_uv()  # here, not in the threads: its first sysconfig lookup is not thread-safe
    # Three page kinds at a time: pip and the builds wait on the index and the disk part of
    # the time, so this overlaps them on a 2-core machine; each kind's pages keep their order.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=3)
    try:
        jobs = [
            pool.submit(run_kind, number, installs, kind_pages)
            for number, (installs, kind_pages) in enumerate(kinds.values(), 1)
        ]
        for job in jobs:
            job.result()  # re-raises what went wrong in the runner itself
    finally:
        pool.shutdown(wait=True)
        if args.keep:
            print(f"run_docs: work folders kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("run_docs: blocks by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    print(f"run_docs: {len(plans)} pages, {len(kinds)} venvs, {time.monotonic() - started:.0f} s")
    for failure in sorted(failures):
        print(f"run_docs: FAILED {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
