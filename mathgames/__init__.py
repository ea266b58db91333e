"""mathgames: four classic maths games for the classroom, as Jupyter widgets.

The rules of every game live in plain-Python cores (``mathgames.<game>``) that
know nothing about Jupyter; widgets draw them on one shared board widget
(:class:`mathgames.core.board_widget.BoardWidget`).

>>> import mathgames
>>> mathgames.__version__
'0.1.0'
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__"]
