from collections.abc import Iterator

from glyphweave.pdf.tokenizer import Item

def operations(data: bytes, *, fuse: bool = False, dropped: list[str] | None = None) -> Iterator[Item]: ...
