"""Text that came from a person or a file, made safe to show (no Textual: every layer uses it).

A name, a note, a campaign name, an item's text, a session id or a path may hold anything a file
can: ESC, BEL, a whole escape sequence that retitles the terminal (``ESC ] 0 ; … BEL``), clears it
(``ESC [ 2 J``) or writes the clipboard (OSC 52). Shown raw, the terminal obeys them. So nothing
that came from outside reaches a terminal or a Markdown file as it is: :func:`inert` renders every
control character visibly and leaves the rest alone. The stored value never changes; only what is
shown does.

What is rendered visibly, and how:

- C0 controls (U+0000–U+001F) and DEL as their Unicode *control pictures*: ESC is ``␛``, BEL is
  ``␇``, so ``ESC ] 0 ; x BEL`` reads ``␛]0;x␇``. ``inert`` keeps the line feed (our own
  messages use it to break lines); :func:`inert_line`, for one-line fields, shows it as ``␊`` too.
- C1 controls (U+0080–U+009F: U+009B is a one-byte CSI, U+009D an OSC for terminals that take
  8-bit controls) as ``\\x9b``.
- Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the implicit marks
  (U+200E, U+200F, U+061C) as ``\\u202e``: in a terminal that reorders right-to-left text they
  make the rest of the line (a madness figure, the next column) read in another order, the
  "Trojan Source" trick. Right-to-left *letters* (Arabic, Hebrew) are left as they are.
- The line and paragraph separators (U+2028, U+2029), which some programs take as line breaks,
  and lone surrogates (a JSON journal may hold ``"\\ud800"``; writing one to a UTF-8 terminal
  raises) as ``\\u2028``, ``\\udc80``.

Zero-width joiners and spaces (U+200B–U+200D) are kept: they are part of emoji sequences and of
some scripts, and they drive nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

_C0_PICTURE_BASE = 0x2400  # U+2400 SYMBOL FOR NULL ... U+241F SYMBOL FOR UNIT SEPARATOR
_DEL_PICTURE = "\u2421"  # SYMBOL FOR DELETE

# Every character that must not reach a terminal as it is, but the line feed (regex ranges).
_C0 = "\x00-\x09\x0b-\x1f"
_DEL_C1 = "\x7f-\x9f"
_BIDI_SEPARATORS_SURROGATES = (
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
)
_UNSAFE = _C0 + _DEL_C1 + _BIDI_SEPARATORS_SURROGATES
_UNSAFE_TEXT = re.compile(f"[{_UNSAFE}]")
_UNSAFE_LINE = re.compile(f"[\n{_UNSAFE}]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(_C0_PICTURE_BASE + code)
    if code == 0x7F:
        return _DEL_PICTURE
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def inert(text: str) -> str:
    """``text`` with every control character visible (line feeds kept); see the module's doc."""
    # str.isprintable() is False for every character rendered here (and for some that are not,
    # such as a no-break space): a fast C check that lets the common case through untouched.
    if text.isprintable():
        return text
    return _UNSAFE_TEXT.sub(_visible, text)


def inert_line(text: str) -> str:
    """``text`` for a one-line place (a name, an id, a path): line feeds visible too (``␊``)."""
    if text.isprintable():
        return text
    return _UNSAFE_LINE.sub(_visible, text)


# What JSON (RFC 8259) leaves unescaped with ensure_ascii=False and a terminal may still obey:
# DEL, the C1 controls, the bidi controls, the separators and lone surrogates. JSON's own
# ``\\uXXXX`` keeps the value exact for a program reading the output.
_UNSAFE_IN_JSON = re.compile(f"[{_DEL_C1}{_BIDI_SEPARATORS_SURROGATES}]")


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``json.dumps(value)`` that a terminal can be shown: readable letters of any script, and
    every control character escaped as JSON itself escapes them (``\\u001b``), so the value read
    back is the value stored."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def counted(n: int, noun: str) -> str:
    """``n`` and an English ``noun`` it counts ("1 event", "3 events"): for the few English-only
    notices of the campaign layer; words the GM reads on screen come from the catalog
    (:func:`gmscreen.i18n.plural`)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (``…`` at the end) for quoting in a one-line message:
    a 5,000-digit value is named, not printed whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
