"""A forked kernel's IPython shell, built once in the kernel template.

Every page's kernel built its own IPython shell (``ZMQInteractiveShell``): its
namespaces, its hundred magics, its completer, prefilter, formatters and display
hook. That was the largest part of a forked kernel's start, and the same in every
kernel. The kernel template (:mod:`mathgames.server.kernel_forks`) now builds it once,
before it forks (:func:`build`). Each forked kernel adopts its copy of it
(:func:`adopt_in`) and gives it what is the kernel's own: the kernel, its folder and its
environment. A kernel's shell is still its own: the fork copies it, and nothing one page
does reaches another.

A kernel adopts the shell only when nothing it was told would have built it otherwise:
the usual kernel class, and (:func:`fits`) no user namespace given, the same profile
folder, and no configuration beyond the template's own. A profile's
``ipython_config.py`` or ``ipython_kernel_config.py``, say, is a reason to build anew.
Then the built shell is dropped and the kernel builds its own, as a launched kernel does.
Settings of the kernel application itself (``IPKernelApp``: the connection file, the
startup code) are not the shell's: the application applies them after, as usual.
"""

from __future__ import annotations

import atexit
import os
from pathlib import Path
from typing import Any

__all__ = ["adopt_in", "build", "built", "drop", "fits"]

_BUILT = "_mathgames_built_in_template"


def build(config: Any) -> Any:
    """Build the shell a kernel with ``config`` would build (the kernel template calls it).

    It is the ``ZMQInteractiveShell`` singleton from then on, as in a kernel. What a
    page's first cell would make is made now: the display formatters, and the patterns
    the cell transformers and the tokenizer compile on first use (the tokenizer's, read
    to tell whether a cell's last line ends in ``;``, were a twentieth of a game page's
    kernel under cProfile). It is not cleaned up at the template's exit: the template
    never runs a cell.
    """
    from ipykernel.ipkernel import IPythonKernel

    kernel_traits = IPythonKernel.class_traits()
    shell_class = kernel_traits["shell_class"].default_value
    compiler_class = kernel_traits["compiler_class"].default_value
    shell = shell_class.instance(config=config, compiler_class=compiler_class)
    shell.display_formatter.formatters  # noqa: B018 (made on first read)
    cell = "a = [1]\nprint(a)  # ;\na;\n%time a\n"
    shell.transform_cell(cell)
    shell.displayhook.semicolon_at_end_of_expression(cell)
    atexit.unregister(shell.atexit_operations)
    setattr(shell, _BUILT, True)
    return shell


def built() -> Any:
    """The shell :func:`build` built in this process (a forked kernel's copy), if any."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell._instance
    return shell if getattr(shell, _BUILT, False) else None


def drop() -> None:
    """Forget the built shell: the kernel builds its own."""
    shell = built()
    if shell is not None:
        type(shell).clear_instance()


def fits(app: Any, shell: Any) -> bool:
    """Whether the kernel application ``app`` (its configuration read) would build a shell
    like ``shell``: no user namespace given, the same profile folder, and a configuration
    that says nothing beyond the template's, but for the application's own section.

    >>> from types import SimpleNamespace as Thing
    >>> shell = Thing(config={"HistoryManager": {"enabled": False}},
    ...               profile_dir=Thing(location="/home/x/.ipython/profile_default"))
    >>> app = Thing(user_ns=None, profile_dir=shell.profile_dir,
    ...             config={"IPKernelApp": {"connection_file": "/k.json"},
    ...                     "HistoryManager": {"enabled": False}})
    >>> fits(app, shell)
    True
    >>> shell.config["ScriptMagics"] = {}  # a section read, not set
    >>> fits(app, shell)
    True
    >>> app.config["InteractiveShell"] = {"autocall": 2}  # from a profile's config file
    >>> fits(app, shell)
    False
    """
    def beyond_the_app(config: Any) -> dict[str, Any]:  # (reading a section adds it empty)
        return {section: value for section, value in config.items()
                if section != "IPKernelApp" and value}

    return (app.user_ns is None
            and beyond_the_app(app.config) == beyond_the_app(shell.config)
            and Path(app.profile_dir.location) == Path(shell.profile_dir.location))


def _make_own(shell: Any, kernel: Any) -> None:
    """What a kernel's own shell has that the template's could not: the kernel, the
    kernel's folder, and the environment variables the shell sets for its commands."""
    shell.kernel = kernel
    shell.parent = kernel
    shell.starting_dir = os.getcwd()
    shell.history_manager.dir_hist[:] = [Path.cwd()]  # also the user's _dh
    shell.init_environment()


def adopt_in(app: Any) -> None:
    """Make the kernel application ``app`` (not yet initialized) adopt the built shell when
    it :func:`fits`, and drop it otherwise; nothing when no shell was built."""
    shell = built()
    if shell is None:
        return
    plain_init_kernel = app.init_kernel

    def init_kernel() -> None:
        from ipykernel.ipkernel import IPythonKernel

        if app.kernel_class is not IPythonKernel or not fits(app, shell):
            drop()
            plain_init_kernel()
            return
        plain_init_kernel()  # the kernel takes the shell singleton as its shell
        if app.kernel.shell is shell:
            _make_own(shell, app.kernel)

    app.init_kernel = init_kernel
