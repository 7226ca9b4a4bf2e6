"""Writing output files without destroying anything: the one rule every command writes by.

A tool people point at their own files must never lose one. What a path names decides how
it is written:

- a regular file (or a new name) is written to a temporary file in the same folder and
  renamed over it once complete, so a failed run leaves the old file as it was; an existing
  file keeps its permission bits (and its owner, where this process may set it);
- a symbolic link is followed: its target is replaced as above, and the link stays a link;
- a character or block device, a FIFO or a socket is opened and written in place: renaming
  over ``/dev/null`` would replace the device node for every process on the machine, and
  renaming over a FIFO would leave its reader waiting for ever;
- a folder, or a file that is one of the command's inputs (``os.path.samefile``), is refused
  with :class:`~glyphweave.core.errors.UsageError` before anything is written.

The process umask is never changed (``os.umask`` is process-wide, unsafe in a threaded
host): a new file is created with mode ``0o666`` and the kernel applies the umask, exactly
as ``open()`` would.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from typing import IO, Any

from glyphweave.core.errors import UsageError

__all__ = ["TEMP_PREFIX", "check_not_input", "replacing", "write_bytes", "write_text"]

TEMP_PREFIX = ".glyphweave-part-"
"""Name prefix of the temporary files renamed into place (a crash may leave one behind)."""

PathLike = str | os.PathLike[str]


def check_not_input(path: PathLike, inputs: Iterable[PathLike]) -> None:
    """Refuse ``path`` when it is one of ``inputs`` (the same file, by device and inode:
    another name, a link or a relative path of it included).

    :raises UsageError: naming both paths.
    """
    for source in inputs:
        if isinstance(source, (bytes, bytearray)) or source in ("-", ""):
            continue
        try:
            same = os.path.samefile(path, source)
        except (OSError, ValueError):
            continue  # one of them does not exist (yet): they cannot be the same file
        if same:
            raise UsageError(f"{os.fspath(path)}: this is the input file {os.fspath(source)}; "
                             "refusing to write over it (give another output path)")


@contextlib.contextmanager
def replacing(
    path: PathLike,
    *,
    inputs: Iterable[PathLike] = (),
    binary: bool = False,
    encoding: str = "utf-8",
    errors: str = "strict",
    durable: bool = False,
) -> Iterator[IO[Any]]:
    """A stream whose content becomes ``path`` when the block ends without an error.

    See the module's docstring for what each kind of path gets. ``inputs`` are the files
    the command reads: ``path`` may be none of them. ``durable`` flushes the file to disk
    before the rename (for outputs a crash must not leave empty, such as a registry).

    :raises UsageError: ``path`` is a folder or one of ``inputs``.
    :raises OSError: the folder cannot be written, or the device cannot be opened.
    """
    name = os.fspath(path)
    check_not_input(name, inputs)
    target = os.path.realpath(name)  # a symlink's target is what gets replaced; the link stays
    try:
        status: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        status = None
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise UsageError(f"{name}: is a folder (give a file name)")
    mode = "wb" if binary else "w"
    text_args: dict[str, Any] = {} if binary else {"encoding": encoding, "errors": errors, "newline": ""}
    if status is not None and not stat.S_ISREG(status.st_mode):
        # A device, FIFO or socket: written in place, never replaced.
        with open(target, mode, **text_args) as stream:  # noqa: PTH123
            yield stream
        return
    fd, tmp = _create_temporary(os.path.dirname(target))
    try:
        with os.fdopen(fd, mode, **text_args) as stream:
            yield stream
            stream.flush()
            if status is not None:
                _keep_attributes(stream.fileno(), status)
            if durable:
                os.fsync(stream.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: PathLike, content: str, **kwargs: Any) -> None:
    """Write ``content`` to ``path`` by :func:`replacing` (same keyword arguments)."""
    with replacing(path, **kwargs) as stream:
        stream.write(content)


def write_bytes(path: PathLike, content: bytes, **kwargs: Any) -> None:
    """Write ``content`` to ``path`` by :func:`replacing`, in binary."""
    with replacing(path, binary=True, **kwargs) as stream:
        stream.write(content)


def _create_temporary(folder: str) -> tuple[int, str]:
    """A new file in ``folder``, created as ``open()`` would create it (mode 0o666 less the
    umask, applied by the kernel); its descriptor and path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(folder or ".", f"{TEMP_PREFIX}{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as exc:  # name the folder the user chose, not our temporary name
            raise OSError(exc.errno, f"cannot write in this folder ({exc.strerror})", folder or ".") from None
    raise FileExistsError(f"{folder}: could not create a temporary file")  # pragma: no cover


def _keep_attributes(fd: int, status: os.stat_result) -> None:
    """Give the new file the permission bits, and where allowed the owner, of the old one."""
    if hasattr(os, "fchown"):
        with contextlib.suppress(OSError):  # only root (or the owner, for the group) may
            os.fchown(fd, status.st_uid, status.st_gid)
    with contextlib.suppress(OSError):  # after the owner: chown clears set-user-ID bits
        os.fchmod(fd, stat.S_IMODE(status.st_mode))
