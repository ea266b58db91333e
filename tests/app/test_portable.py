"""The package imports on a system without Unix's process calls, as on Windows.

Every module of ``mathgames`` is imported in a fresh interpreter in which ``resource``
and ``fcntl`` cannot be imported by the package and ``os.fork`` does not exist (the
libraries it uses import as they do here: on Windows they take their own paths). A
module that can only work on Unix says so with a line ``UNIX_ONLY = True`` and is left
out. Then the server's choices are those of Windows: plain kernels, memory from psutil.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

#: Run in a fresh interpreter: hide the Unix-only calls, import every module, report.
PROBE = r'''
import importlib, json, os, pkgutil, sys, traceback
import importlib.abc

HIDDEN = {"resource", "fcntl"}

class NoUnix(importlib.abc.MetaPathFinder):
    """Refuse the hidden modules to the package's own imports."""
    def find_spec(self, name, path=None, target=None):
        if name not in HIDDEN:
            return None
        frame = sys._getframe(1)
        while frame is not None:
            module = frame.f_globals.get("__name__", "")
            if not module.startswith(("importlib", "_frozen_importlib")):
                break
            frame = frame.f_back
        if frame is not None and frame.f_globals.get("__name__", "").startswith("mathgames"):
            raise ImportError(f"No module named {name!r} (hidden: as on Windows)")
        return None

for name in HIDDEN:
    sys.modules.pop(name, None)
sys.meta_path.insert(0, NoUnix())
del os.fork

import mathgames

failed, skipped, imported = {}, [], []
for info in pkgutil.walk_packages(mathgames.__path__, "mathgames."):
    name = info.name
    spec = importlib.util.find_spec(name)
    source = spec.origin if spec and spec.origin else ""
    if source.endswith(".py"):
        with open(source, encoding="utf-8") as text:
            if any(line.strip() == "UNIX_ONLY = True" for line in text):
                skipped.append(name)
                continue
    try:
        importlib.import_module(name)
        imported.append(name)
    except BaseException:
        failed[name] = traceback.format_exc(limit=-3)

import mathgames.server.admission as admission
from mathgames.server.admission import read_memory

admission.MEMINFO = "/no/such/meminfo"  # as on macOS and Windows
from mathgames.server.kernel_forks import fork_supported
from mathgames.server.serve import default_max_kernels

print(json.dumps({"failed": failed, "skipped": skipped, "imported": imported,
                  "fork": fork_supported(), "memory": sorted(read_memory()),
                  "cap_8g": default_max_kernels(8 * 2**30, fork_kernels=fork_supported())}))
'''


def test_every_module_imports_without_resource_fcntl_and_fork(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=600,
                          env={**{key: value for key, value in os.environ.items()
                                  if key != "MATHGAMES_MEMINFO"},
                               "HOME": str(tmp_path), "PYTHONPATH": str(ROOT),
                               "MATHGAMES_FORK": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["failed"] == {}, "\n".join(found["failed"].values())
    assert "mathgames.server.app" in found["imported"]
    assert "mathgames.server.serve" in found["imported"]
    assert "mathgames.cli" in found["imported"]
    assert found["fork"] is False  # no os.fork: plain kernels
    assert found["memory"] == ["MemAvailable", "MemTotal"]  # from psutil
    assert found["cap_8g"] < default_cap_8g_forked()


def default_cap_8g_forked() -> int:
    from mathgames.server.serve import default_max_kernels

    return default_max_kernels(8 * 2**30)
