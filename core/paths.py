"""Where the explorer keeps what it builds: converted models, embedding caches, fine-tuned models."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def cache_dir() -> Path:
    """Per-user cache folder; `EXPLORER_CACHE_DIR` overrides it (tests use a temporary one)."""
    configured = os.environ.get("EXPLORER_CACHE_DIR")
    if configured:
        root = Path(configured)
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "embedding-explorer"
    root.mkdir(parents=True, exist_ok=True)
    return root


def models_dir() -> Path:
    path = cache_dir() / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a temporary sibling folder to fill; it replaces `target` only if the block succeeds."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    tmp.chmod(0o755)
    try:
        yield tmp
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _synced(path: Path, flags: int = os.O_RDONLY) -> None:
    """What was written to `path` (a file, or a folder's list of names) on the disk, not only in the OS's cache."""
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(target: Path, write: Callable[[Path], object]) -> None:
    """Call `write(tmp_path)` on a temporary file beside `target`, put it on the disk (fsync), and rename it onto
    `target`, then put the folder's new entry on the disk too: readers never see half a file, an error in `write`
    leaves the old file whole, and after a crash `target` is the old file or the new one, never an empty one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        _synced(tmp)
        os.replace(tmp, target)
        _synced(target.parent, os.O_RDONLY | os.O_DIRECTORY)
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def held(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive lock on `lock_file` (waiting for it) across threads and processes."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with lock_file.open("a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
