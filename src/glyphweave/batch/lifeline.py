"""Worker processes that die with their parent, however the parent dies.

A parent killed with ``kill -9`` (or by the OOM killer, or a crash) runs no clean-up: its
workers are not told to stop. Forked workers also hold each other's ends of the parent's
pipes, so none of them sees its pipe close, and a worker busy with a file goes on with it;
they stayed for minutes, orphaned. Every pool (``batch``, ``scan``, ``extract --jobs``) has
its workers call :func:`bind` first thing, with the :class:`Lifeline` the parent made for it:

* On Linux the kernel does it: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` has the worker killed the
  moment its parent exits. The kernel ties that signal to the parent *thread* that started
  the worker, so it is asked for only when the worker was started from the main thread (a
  host that runs a batch on a thread that then ends must not lose its workers).
* The parent may have died before the request was made: the worker then checks that its
  parent is still the process that started it, and exits otherwise.
* Everywhere (and for workers started from another thread), a daemon thread in the worker
  watches the parent: its process sentinel (``multiprocessing.parent_process()``, the
  parent's process handle on Windows) and, on POSIX, its process id (a worker whose parent
  died is adopted by another process). It ends the worker within :data:`WATCH_SECONDS`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

import attrs

WATCH_SECONDS = 0.5
"""How often the watching thread checks that the parent is alive."""

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_ORPHANED = 1  # the exit status of a worker whose parent died


@attrs.frozen
class Lifeline:
    """What a worker needs to follow its parent: made in the parent by :func:`lifeline`."""

    parent: int
    """The process id of the parent."""
    kernel: bool
    """Whether to ask the kernel to kill the worker with its parent (Linux, main thread)."""


def lifeline() -> Lifeline:
    """The parent's side: call it where the worker is started, on the thread that starts it."""
    on_main = threading.current_thread() is threading.main_thread()
    return Lifeline(parent=os.getpid(), kernel=on_main and sys.platform.startswith("linux"))


def bind(line: Lifeline) -> None:
    """The worker's side, first thing in the worker: die with the parent (see the module)."""
    if line.kernel:
        _kill_me_with_my_parent()
    if _orphaned(line.parent):
        os._exit(_ORPHANED)
    threading.Thread(target=_watch, args=(line.parent,), name="glyphweave-lifeline", daemon=True).start()


def kernel_bound() -> bool:
    """Whether the kernel will kill this process when its parent dies (Linux; False elsewhere)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    value = ctypes.c_int(0)
    if libc.prctl(_PR_SET_PDEATHSIG + 1, ctypes.byref(value), 0, 0, 0) != 0:  # PR_GET_PDEATHSIG
        return False
    return value.value == signal.SIGKILL


def _kill_me_with_my_parent() -> None:
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # no prctl (another libc): the watch remains
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _orphaned(parent: int) -> bool:
    return hasattr(os, "getppid") and os.name == "posix" and os.getppid() != parent


def _watch(parent: int) -> None:
    import multiprocessing
    from multiprocessing.connection import wait

    process = multiprocessing.parent_process()
    sentinel = getattr(process, "sentinel", None)
    while True:
        if sentinel is not None:
            try:
                if wait([sentinel], timeout=WATCH_SECONDS):
                    os._exit(_ORPHANED)
            except (OSError, ValueError):  # the sentinel was closed here: ids alone from now on
                sentinel = None
        else:
            threading.Event().wait(WATCH_SECONDS)
        if _orphaned(parent):
            os._exit(_ORPHANED)
