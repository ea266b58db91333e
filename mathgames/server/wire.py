"""The kernel websocket's frames, read and written in one place.

Binary messages come in two layouts: the v1 websocket protocol of JupyterLab's and Voila's
pages (``v1.kernel.websocket.jupyter.org``: a count and little-endian 8-byte offsets, then
the channel, header, parent header, metadata, content and buffers) and the older one
(big-endian 4-byte offsets, then the JSON message). Counts are bounded, so a malformed
frame costs nothing.

>>> frame = encode_v1({"channel": "shell", "header": {"msg_type": "kernel_info_request"},
...                    "parent_header": {}, "metadata": {}, "content": {}})
>>> decoded = decode_v1(frame)
>>> decoded["channel"], decoded["msg_type"], decoded["content"]
('shell', 'kernel_info_request', {})
>>> message_header(frame, v1=True)["msg_type"]
'kernel_info_request'
"""

from __future__ import annotations

import itertools
import json
from typing import Any

__all__ = ["V1_PROTOCOL", "decode_v1", "encode_v1", "message_header", "v1_parts"]

#: The kernel websocket protocol of JupyterLab's and Voila's pages.
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"

#: The most parts a frame may have (channel, four JSON parts, buffers).
MAX_PARTS = 64


def v1_parts(frame: bytes) -> list[bytes] | None:
    """A v1 frame's parts (channel, header, parent, metadata, content, buffers...), or
    ``None`` when it is not one.

    >>> v1_parts(bytes([255]) * 64) is None
    True
    """
    count = int.from_bytes(frame[:8], "little")
    if not 3 <= count <= MAX_PARTS or len(frame) < 8 * (count + 1):
        return None
    offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    if any(b < a for a, b in itertools.pairwise(offsets)) or offsets[-1] > len(frame):
        return None
    return [frame[offsets[i]:offsets[i + 1]] for i in range(count - 1)]


def encode_v1(msg: dict[str, Any]) -> bytes:
    """A message as a v1 websocket frame: offsets, channel, header, parent, metadata, content."""
    parts = [msg["channel"].encode()] + [
        json.dumps(msg[key]).encode()
        for key in ("header", "parent_header", "metadata", "content")]
    offsets = [8 * (len(parts) + 2)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return b"".join([len(offsets).to_bytes(8, "little"),
                     *(o.to_bytes(8, "little") for o in offsets), *parts])


def decode_v1(frame: bytes) -> dict[str, Any]:
    """A v1 websocket frame as a message dict (with ``msg_type`` at the top, as the JSON one);
    a ``ValueError`` for a frame that is not one."""
    parts = v1_parts(frame)
    if parts is None or len(parts) < 5:
        raise ValueError("not a v1 kernel websocket frame")
    msg: dict[str, Any] = {"channel": parts[0].decode()}
    for key, part in zip(("header", "parent_header", "metadata", "content"), parts[1:5],
                         strict=True):
        msg[key] = json.loads(part)
    msg["buffers"] = parts[5:]
    msg["msg_type"] = msg.get("header", {}).get("msg_type")
    return msg


def message_header(message: bytes | dict[str, Any] | str, v1: bool) -> dict[str, Any] | None:
    """The header of a message on its way to the browser, whatever its form, or ``None``.

    >>> import json
    >>> part = json.dumps({"header": {"msg_type": "comm_msg"}}).encode()
    >>> offsets = [(2).to_bytes(4, "big"), (12).to_bytes(4, "big"),
    ...            (12 + len(part)).to_bytes(4, "big")]
    >>> legacy = b"".join(offsets) + part + b"buffer"
    >>> message_header(legacy, v1=False)["msg_type"]
    'comm_msg'
    >>> message_header(bytes([255]) * 64, v1=True) is None
    True
    >>> message_header("[" * 100_000 + "]" * 100_000, v1=False) is None
    True
    >>> message_header('[{"header": {}}]', v1=False) is None  # not a message at all
    True
    """
    if isinstance(message, dict):
        return message.get("header")
    if isinstance(message, str):
        try:
            data = json.loads(message)
        except (ValueError, RecursionError):
            return None
        header = data.get("header") if isinstance(data, dict) else None
        return header if isinstance(header, dict) else None
    try:
        if v1:
            parts = v1_parts(message)
            if parts is None:
                return None
            header = json.loads(parts[1])
        else:
            count = int.from_bytes(message[:4], "big")
            if not 1 <= count <= MAX_PARTS:
                return None
            offsets = [int.from_bytes(message[4 * (i + 1):4 * (i + 2)], "big")
                       for i in range(count)]
            header = json.loads(message[offsets[0]:offsets[1] if count > 1 else None])
            header = header.get("header") if isinstance(header, dict) else None
    except (ValueError, IndexError, UnicodeDecodeError, RecursionError):
        return None
    return header if isinstance(header, dict) else None


