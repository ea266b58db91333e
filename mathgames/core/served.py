"""What the app's server tells its pages' kernels: that they run a page it serves.

The app's server (``mathgames serve``, ``make app``) runs each page's cells in the page's
kernel before the page's browser connects; the browser then asks the kernel for every
widget's state at once. Such a kernel need not announce each widget as it is made
(see :mod:`mathgames.core.widget_looks`). JupyterLab, Notebook, Voila on its own and the
static site do not set the variable: there, every widget is announced as usual.

>>> served_page({SERVED_PAGE_VARIABLE: "1"}), served_page({})
(True, False)
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["SERVED_PAGE_VARIABLE", "served_page"]

#: Set to ``1`` by the app's server for its pages' kernels (they inherit its environment).
SERVED_PAGE_VARIABLE = "MATHGAMES_SERVED_PAGE"


def served_page(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this kernel runs a page of the app's server."""
    return (os.environ if environ is None else environ).get(SERVED_PAGE_VARIABLE) == "1"
