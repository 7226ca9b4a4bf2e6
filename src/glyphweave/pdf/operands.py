"""Operand types the tokenizer hands to the interpreter.

They live apart from :mod:`glyphweave.pdf.tokenizer` because that module may be compiled
(see :mod:`glyphweave.accelerated`), and mypyc cannot compile a subclass of ``bytes``.
"""

from __future__ import annotations

__all__ = ["RawTJ"]


class RawTJ(bytes):
    """A TJ operand straight from the fast path, not yet read: the array's source between
    the brackets. Equal sources denote equal operands, so the interpreter can recognise
    one it has measured before; :func:`glyphweave.pdf.lexer.read_tj` reads it when it
    has not."""

    __slots__ = ()
