from collections.abc import Iterator
from typing import Any

from glyphweave.pdf.tokenizer import Item

def operations(data: bytes, *, fuse: bool = False, dropped: list[str] | None = None) -> Iterator[Item]: ...
def read_tj(operand: bytes | list[Any]) -> tuple[list[Any], list[tuple[int, float]] | None]: ...
