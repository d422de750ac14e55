"""Text from clients before it is stored: no control characters (NUL among them: PostgreSQL refuses
it), surrogates or Unicode non-characters, on either database."""

from __future__ import annotations

import re

_NONCHARACTERS = "".join(f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000))
FAULT = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef{_NONCHARACTERS}]")


def text_fault(text: str) -> str | None:
    """Why ``text`` cannot be stored, or None."""
    m = FAULT.search(text)
    if m is None:
        return None
    code = ord(m.group())
    what = "a surrogate" if 0xD800 <= code <= 0xDFFF else "a control character" if code <= 0x9F else "a non-character"
    return f"must not contain {what} (U+{code:04X} at position {m.start()})"


def checked_text(text: str) -> str:
    """``text``, or ValueError saying which character is refused (pydantic's AfterValidator)."""
    fault = text_fault(text)
    if fault is not None:
        raise ValueError(fault)
    return text


def clean_text(text: str) -> str:
    """``text`` without the characters no text field may store."""
    return FAULT.sub("", text)
