"""pytest set-up for the whole tree: Hypothesis's profiles, and nbval's notebook kernels start
again if one dies at start.

Hypothesis: with ``CI`` set to ``true`` or ``1`` (``.ci/run`` sets it; CI services do too) the
``ci`` profile draws the same examples on every run (``derandomize=True``, each test's seed
comes from the test itself, no example database), so that a red CI run is red again on any
machine; a developer's run (the ``dev`` profile) draws new examples every time and keeps
failing ones in ``.hypothesis/`` to try first next time. ``HYPOTHESIS_PROFILE=ci`` (or
``dev``) chooses one by hand; the pytest header says which ran, and how to draw that run's
examples again.

A kernel takes the ports its manager found free a moment before; while the other test worker
drives browsers and servers, an outgoing connection can take one of them first, and the kernel
dies before it answers ("Kernel died before replying to kernel_info": all 22 cells of a lesson
failed so in one clean-clone CI run). Such a kernel ran no cell, so starting another changes no
result: every cell still runs once and is compared as before. What the dead kernel printed is
logged, and after the last attempt it is in the error.
"""

from __future__ import annotations

import logging
import os
import tempfile
from typing import Any

import nbval.kernel
import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)


def hypothesis_profile(environ: Any = os.environ) -> str:
    """The Hypothesis profile of a run: ``HYPOTHESIS_PROFILE`` if set, else ``ci`` when
    ``CI`` is ``true`` or ``1``, else ``dev``.

    >>> hypothesis_profile({"CI": "true"}), hypothesis_profile({}), hypothesis_profile(
    ...     {"CI": "true", "HYPOTHESIS_PROFILE": "dev"})
    ('ci', 'dev', 'dev')
    """
    chosen = environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    return "ci" if environ.get("CI", "").strip().lower() in ("true", "1") else "dev"


HYPOTHESIS_PROFILE = hypothesis_profile()
settings.load_profile(HYPOTHESIS_PROFILE)  # every xdist worker loads this file, and so it


def pytest_report_header() -> list[str]:
    """Which Hypothesis profile ran, and how to draw the same examples again."""
    if settings.default.derandomize:
        how = "the same examples every run (derandomize=True); HYPOTHESIS_PROFILE=ci repeats it"
    else:
        how = ("new examples every run; a failure prints its example and a "
               "@reproduce_failure blob, and .hypothesis/ tries it first next run")
    return [f"hypothesis: the {HYPOTHESIS_PROFILE!r} profile: {how}"]

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


def _in_main_process(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")  # pytest-xdist's workers have it


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the slow installs the session's tests use (``tests/prepared.py``), before
    pytest-xdist starts its workers, which then find them through the environment."""
    config = session.config
    if _in_main_process(config):
        from tests import prepared

        here = config.invocation_params.dir
        prepared.start([str(here / arg) for arg in config.args],
                       narrowed=bool(config.option.keyword or config.option.markexpr
                                     or config.option.collectonly))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Wait for the installs started at the start, and remove them."""
    if _in_main_process(session.config):
        from tests import prepared

        prepared.finish()
