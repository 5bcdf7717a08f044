"""tvm.contrib.utils: temporary folders for build artefacts, removed when done."""

from __future__ import annotations

import os
import shutil
import tempfile


class TempDirectory:
    """A folder that is removed by remove(), at the end of a `with` block, or when collected.

    keep_for_debug (or $TVM_TEMPDIR_KEEP set to a non-empty value) keeps it for inspection.
    """

    def __init__(self, custom_path=None, keep_for_debug=None):
        if custom_path is not None and not isinstance(custom_path, (str, os.PathLike)):
            raise TypeError(
                "tvm.contrib.utils.tempdir: argument 'custom_path' must be a path, "
                f"got {type(custom_path).__name__}"
            )
        if keep_for_debug is None:
            keep_for_debug = bool(os.environ.get("TVM_TEMPDIR_KEEP"))
        self._keep = bool(keep_for_debug)
        if custom_path is not None:
            os.makedirs(custom_path, exist_ok=True)
            self.temp_dir = os.path.abspath(os.fspath(custom_path))
            self._owned = False  # a folder the caller named is never deleted
        else:
            self.temp_dir = tempfile.mkdtemp(prefix="tvm-")
            self._owned = True

    @property
    def path(self) -> str:
        return self.temp_dir

    def relpath(self, name) -> str:
        """The path of `name` inside this folder."""
        if not isinstance(name, (str, os.PathLike)):
            raise TypeError(
                f"TempDirectory.relpath: argument 'name' must be a str, got {type(name).__name__}"
            )
        return os.path.join(self.temp_dir, os.fspath(name))

    def listdir(self) -> list[str]:
        return os.listdir(self.temp_dir)

    def set_keep_for_debug(self, keep: bool = True) -> None:
        self._keep = bool(keep)

    def remove(self) -> None:
        if self.temp_dir and self._owned and not self._keep:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
            self.temp_dir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False

    def __del__(self):
        try:
            self.remove()
        except Exception:  # noqa: BLE001  (interpreter shutdown may have torn down shutil)
            pass

    def __repr__(self):
        return f"TempDirectory({self.temp_dir!r})"


def tempdir(custom_path=None, keep_for_debug=None) -> TempDirectory:
    """A fresh temporary folder (or `custom_path`, created if missing and never deleted)."""
    return TempDirectory(custom_path, keep_for_debug)
