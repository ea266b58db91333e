"""A page's Python side in the browser: widgets' comms and the cells' displays, with no kernel.

In Voila a kernel runs the page's cells and carries its widgets' messages to the browser. On the
static site Python runs in the page itself (Pyodide): :func:`start` gives ipywidgets a comm whose
messages go to a function of the page (its widget manager), makes an IPython shell whose
displays go there too, and :meth:`Runtime.receive` hands the manager's messages to the widgets.

Nothing here needs Pyodide: ``send`` is any function, so the same code runs in CPython.

>>> sent = []
>>> runtime = start(lambda kind, payload, buffers: sent.append((kind, json.loads(payload))))
>>> import ipywidgets as w
>>> box = w.IntText(value=3)
>>> kind, message = sent[-1]
>>> kind, message["msg_type"], message["data"]["state"]["value"]
('comm', 'comm_open', 3)
>>> runtime.receive(box.model_id, json.dumps({"method": "update", "state": {"value": 7}}), [])
>>> box.value
7
>>> runtime.run("print('n =', 4)")
True
>>> "".join(m["data"]["text/plain"] for kind, m in sent if m["metadata"].get("stream"))
'n = 4\\n'
>>> runtime.stop()
"""

from __future__ import annotations

import contextlib
import io
import json
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import comm
from comm.base_comm import BaseComm
from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell

__all__ = ["BrowserComm", "Runtime", "start"]

#: ``send(kind, payload, buffers)``: ``kind`` is "comm" (a comm message, as JSON) or
#: "display" (a cell's output as a MIME bundle, as JSON).
Send = Callable[[str, str, list[Any]], None]

_send: Send | None = None
_kept_create_comm = comm.create_comm


def _post(kind: str, payload: dict[str, Any], buffers: Sequence[Any] = ()) -> None:
    if _send is None:
        raise RuntimeError("mathgames.site.browser.start() has not been called")
    _send(kind, json.dumps(payload), [bytes(buffer) for buffer in buffers])


class BrowserComm(BaseComm):
    """A comm whose messages go to the page's widget manager (through ``send``)."""

    def publish_msg(self, msg_type: str, data: dict[str, Any] | None = None,
                    metadata: dict[str, Any] | None = None,
                    buffers: Sequence[Any] | None = None, **keys: Any) -> None:
        """Send one message of this comm to the page."""
        _post("comm", {"msg_type": msg_type, "comm_id": self.comm_id,
                       "target_name": self.target_name, "data": data or {},
                       "metadata": metadata or {}}, buffers or ())


class _PagePublisher(DisplayPublisher):
    """``display(...)`` in a cell: the MIME bundle goes to the page."""

    def publish(self, data: dict[str, Any], metadata: dict[str, Any] | None = None,
                *args: Any, **kwargs: Any) -> None:
        _post("display", {"data": data, "metadata": metadata or {}})

    def clear_output(self, wait: bool = False) -> None:
        """The page keeps what it showed (a cell of a page never clears)."""


class _PageDisplayHook(DisplayHook):
    """A cell's last value: shown on the page, as a notebook shows it."""

    def write_output_prompt(self) -> None:
        """No ``Out[n]`` on a page."""

    def write_format_data(self, format_dict: dict[str, Any],
                          md_dict: dict[str, Any] | None = None) -> None:
        _post("display", {"data": format_dict, "metadata": md_dict or {}})


class _PageStream(io.TextIOBase):
    """``print`` in a cell: the text goes to the page, as a notebook's output shows it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            _post("display", {"data": {"text/plain": text}, "metadata": {"stream": self.name}})
        return len(text)


class Runtime:
    """Runs a page's cells and hands the page's widget messages to the widgets."""

    def __init__(self) -> None:
        self.shell = InteractiveShell.instance(display_pub_class=_PagePublisher,
                                               displayhook_class=_PageDisplayHook)

    def run(self, code: str) -> bool:
        """Run one cell; ``False`` (with the traceback shown on the page) when it failed."""
        with contextlib.redirect_stdout(_PageStream("stdout")):
            result = self.shell.run_cell(code, store_history=False)
        error = result.error_before_exec or result.error_in_exec
        if error is not None:
            text = "".join(traceback.format_exception(error))
            _post("display", {"data": {"text/plain": text}, "metadata": {"error": True}})
        return error is None

    def receive(self, comm_id: str, payload: str, buffers: Sequence[Any]) -> None:
        """A message from the page's widget manager to the widget of ``comm_id``."""
        target = comm.get_comm_manager().get_comm(comm_id)
        if target is None:
            return  # the widget was closed while the message was on its way
        message = {"content": {"comm_id": comm_id, "data": json.loads(payload)},
                   "buffers": [memoryview(bytes(b)) for b in buffers], "metadata": {}}
        try:
            target.handle_msg(message)
        except Exception:
            traceback.print_exc()

    def stop(self) -> None:
        """Give the comms and the shell back (for tests that start a runtime in CPython)."""
        global _send
        _send = None
        comm.create_comm = _kept_create_comm
        InteractiveShell.clear_instance()


def start(send: Send) -> Runtime:
    """Route every widget's comm and every display to ``send``; return the page's runtime."""
    global _send
    _send = send
    comm.create_comm = BrowserComm
    return Runtime()
