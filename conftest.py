"""pytest set-up for the whole tree: nbval's notebook kernels start again if one dies at start.

A kernel takes the ports its manager found free a moment before; while the other test worker
drives browsers and servers, an outgoing connection can take one of them first, and the kernel
dies before it answers ("Kernel died before replying to kernel_info": all 22 cells of a lesson
failed so in one clean-clone CI run). Such a kernel ran no cell, so starting another changes no
result: every cell still runs once and is compared as before. What the dead kernel printed is
logged, and after the last attempt it is in the error.
"""

from __future__ import annotations

import logging
import tempfile
from typing import Any

import nbval.kernel

#: How many kernels a notebook may try to start before its cells fail.
KERNEL_ATTEMPTS = 3
_LOG = logging.getLogger("mathgames.tests")
_start_new_kernel = nbval.kernel.start_new_kernel


def start_new_kernel_again(*args: Any, **kwargs: Any) -> Any:
    """nbval's ``start_new_kernel``, tried up to :data:`KERNEL_ATTEMPTS` times; the kernel's
    own error output is kept (nbval throws it away) to say why one died."""
    for attempt in range(1, KERNEL_ATTEMPTS + 1):
        with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as err:
            kwargs["stderr"] = err  # the kernel keeps its own copy of the file
            try:
                return _start_new_kernel(*args, **kwargs)
            except RuntimeError as error:
                err.seek(0)
                said = err.read()[-3000:]
                _LOG.warning("kernel %d of %d died at start: %s\n%s", attempt,
                             KERNEL_ATTEMPTS, error, said)
                if attempt == KERNEL_ATTEMPTS:
                    raise RuntimeError(f"{error}; the kernel said:\n{said}") from error
    raise AssertionError("not reached")


nbval.kernel.start_new_kernel = start_new_kernel_again
