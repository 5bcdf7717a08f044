"""The folders a server's sessions upload to: one root per server, one folder per worker,
removed when the worker ends however it ends, and at start for servers that were killed."""

import logging
import os
import shutil
import tempfile

logger = logging.getLogger("tvm.rpc")

# Sessions started by a server (a worker's LocalSession, and a PopenSession worker started
# from it) make their workspace under the root this variable names.
WORKSPACE_ROOT_VAR = "TVM_RPC_WORKSPACE_ROOT"
_PREFIX = "tvm-rpc-server-"


class WorkspaceRoot:
    """``<tmp>/tvm-rpc-server-<server pid>-<random>/w<worker pid>``."""

    def __init__(self, parent=None):
        parent = tempfile.gettempdir() if parent is None else parent
        remove_orphans(parent)
        self.root = tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=parent)
        os.environ[WORKSPACE_ROOT_VAR] = self.root

    def path(self, worker_pid):
        return os.path.join(self.root, f"w{worker_pid}")

    def remove(self, worker_pid):
        shutil.rmtree(self.path(worker_pid), ignore_errors=True)

    def remove_all(self):
        shutil.rmtree(self.root, ignore_errors=True)


def remove_orphans(parent):
    """Remove the roots of servers of this user that are no longer running."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        if not name.startswith(_PREFIX):
            continue
        pid = name[len(_PREFIX) :].partition("-")[0]
        path = os.path.join(parent, name)
        try:
            if not pid.isdigit() or os.stat(path).st_uid != os.getuid() or _alive(int(pid)):
                continue
        except OSError:
            continue
        logger.info("tvm.rpc: removing %s, left by a server that is gone", path)
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie answers kill(0) but is gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        return True
