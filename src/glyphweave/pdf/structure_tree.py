"""The structure tree of a tagged PDF (§14.7), walked once per document.

:func:`read_structure` visits ``/StructTreeRoot`` in the author's order and sorts the
content its elements reference by page: each marked-content reference becomes a
:class:`~glyphweave.core.structure.StructItem` on its page, with the block, table row and
cell around it and the element's replacement text. The walk is iterative (a tree 10,000
levels deep does not touch Python's recursion limit), stops at ``structure_depth`` levels
and after ``structure_elements`` elements, and visits each element once (a cycle, or an
element shared by two parents, is cut with a warning). Nothing here raises on a bad tree.

What a kid of ``/K`` may be (§14.7.2): an integer (an MCID on the element's page), a
marked-content reference (``/MCR``: ``/MCID``, optional ``/Pg`` and ``/Stm`` when the
content is in a form XObject), an object reference (``/OBJR``: an annotation, not page
text, skipped) or another element; or an array of those. ``/Pg`` is inherited from the
nearest ancestor that has it; where no ancestor has one, the page comes from the
``/ParentTree``, which maps each page's marked content back to its elements.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, NamedTuple

import pikepdf

from glyphweave.core.structure import ContentKey, PageStructure, StructItem
from glyphweave.guard.limits import LIMIT, Limits
from glyphweave.guard.report import WarningRecord

from .interpreter import _text_string

# Standard structure types (§14.8.4) that are blocks: where one ends, a line ends. Lbl and
# LBody belong to their list item's block, so a bullet and its text share a line. A Formula
# is an illustration element, inline unless its layout says otherwise (§14.8.5.4.2, Placement
# defaults to Inline): typst tags every `$...$` inside a sentence so, and a displayed formula
# sits on lines of its own, which the reading rules break anyway.
BLOCKS = frozenset({
    "Document", "DocumentFragment", "Part", "Art", "Sect", "Div", "BlockQuote", "Caption", "TOC", "TOCI",
    "Index", "P", "H", "H1", "H2", "H3", "H4", "H5", "H6", "Title", "L", "LI", "Table", "THead", "TBody",
    "TFoot", "TR", "TH", "TD", "Figure", "Form", "Aside", "FENote", "Note",
})
_IN_ITEM = frozenset({"Lbl", "LBody"})
_CELLS = frozenset({"TD", "TH"})
_NOTES = frozenset({"Note", "FENote"})  # footnotes and endnotes (PDF 1.7 and 2.0 names)

_ROLE_HOPS = 32  # role map chains longer than this are a loop
_HEADS = frozenset({"THead"})  # a table's header rows


class _Around(NamedTuple):
    """What surrounds content beyond its block, row and cell: carried down the walk and
    written on each item (``_asdict()``: the fields of :class:`StructItem` of the same names)."""

    note: int | None = None
    block_kind: str = "Document"
    table: int | None = None
    header: bool = False
    lists: int = 0
    link: str | None = None


class DocumentStructure:
    """The structure of a whole document, by page (see :func:`read_structure`)."""

    def __init__(self, pages: dict[int, list[StructItem]], in_tree: set[int], warnings: list[WarningRecord],
                 elements: int, row_cells: dict[int, list[int]] | None = None) -> None:
        self._pages = pages
        self._row_cells = row_cells or {}
        self._in_tree = in_tree
        self.warnings = warnings
        """What was wrong with the tree (each ``structure tree: ...``), in the order met."""
        self.elements = elements
        """Structure elements visited."""

    def page(self, index: int) -> PageStructure:
        items = self._pages.get(index, [])
        rows = {item.row for item in items if item.row is not None}
        return PageStructure(tuple(items), bool(items) or index in self._in_tree,
                             tuple(warning.message for warning in self.warnings),
                             {row: tuple(self._row_cells.get(row, ())) for row in rows})


def read_structure(pdf: pikepdf.Pdf, limits: Limits) -> DocumentStructure | None:
    """The document's structure, or None when it has no structure tree."""
    try:
        root = pdf.Root.get("/StructTreeRoot")
    except Exception:  # a damaged catalog: treat the document as untagged
        return None
    if not isinstance(root, pikepdf.Dictionary):
        return None
    return _Walk(pdf, root, limits).run()


class _Walk:
    def __init__(self, pdf: pikepdf.Pdf, root: pikepdf.Dictionary, limits: Limits) -> None:
        self.root = root
        self.limits = limits
        self.warnings: list[WarningRecord] = []
        self.page_of: dict[Any, int] = {}
        self.in_tree: set[int] = set()
        self.struct_parents: dict[int, int] = {}  # a page's /StructParents -> the page
        for index, page in enumerate(pdf.pages):
            obj = page.obj
            self.page_of[obj.objgen] = index
            key = obj.get("/StructParents")
            if isinstance(key, int):
                self.in_tree.add(index)
                self.struct_parents.setdefault(int(key), index)
        self.roles = self._role_map()
        self.pages: dict[int, list[StructItem]] = defaultdict(list)
        self.row_cells: dict[int, list[int]] = defaultdict(list)
        """Each table row's cells (TD, TH) in the tree's order, empty ones too."""
        self.visited: set[Any] = set()
        self.elements = 0
        self.ids = 0
        self._parent_pages: dict[Any, int] | None = None
        self._warned: set[str] = set()

    def warn(self, message: str, limit: str | None = None) -> None:
        """Record what is wrong with the tree once; with ``limit``, the limit that cut it."""
        if message not in self._warned and len(self.warnings) < 20:
            self._warned.add(message)
            self.warnings.append(WarningRecord(kind="structure" if limit is None else "limit",
                                               message=f"structure tree: {message}", source="structure tree",
                                               limit=limit))

    def run(self) -> DocumentStructure:
        try:
            self._walk()
        except Exception as exc:  # a tree pikepdf cannot even read: keep what was found
            self.warn(f"structure tree damaged ({type(exc).__name__}); the rest of it is ignored")
        return DocumentStructure(dict(self.pages), self.in_tree, self.warnings, self.elements, dict(self.row_cells))

    # -- role map and pages -------------------------------------------------------------------------
    def _role_map(self) -> dict[str, str]:
        roles: dict[str, str] = {}
        rolemap = self.root.get("/RoleMap")
        if isinstance(rolemap, pikepdf.Dictionary):
            for key, value in rolemap.items():
                if isinstance(value, pikepdf.Name):
                    roles[str(key)[1:]] = str(value)[1:]
        return roles

    def standard(self, name: str) -> str:
        seen = 0
        while name in self.roles and name not in BLOCKS and seen < _ROLE_HOPS:
            name = self.roles[name]
            seen += 1
        return name

    def page_index(self, pg: Any) -> int | None:
        if isinstance(pg, pikepdf.Dictionary):
            index = self.page_of.get(pg.objgen)
            if index is None:
                self.warn("a structure element points to a page that is not in the document")
            return index
        return None

    def parent_page(self, elem: Any) -> int | None:
        """The page of ``elem`` from the /ParentTree (each page's marked content mapped back
        to its elements), for elements without /Pg: built once, on first need."""
        if self._parent_pages is None:
            self._parent_pages = {}
            for key, value in _number_tree(self.root.get("/ParentTree"), self.limits.structure_depth):
                page = self.struct_parents.get(key)
                if page is None or not isinstance(value, pikepdf.Array):
                    continue
                found = self._parent_pages
                # One entry per MCID, so elements repeat; entries may be null or direct.
                for objgen in {getattr(item, "objgen", (0, 0)) for item in value}:
                    if objgen not in found:
                        found[objgen] = page
                found.pop((0, 0), None)
        return self._parent_pages.get(getattr(elem, "objgen", None))

    def link_target(self, link: pikepdf.Dictionary) -> str | None:
        """The URI a Link element points to: its first object reference to a link annotation
        whose action is a URI action (§12.6.4.8), or None (an internal link, or none)."""
        kids = link.get("/K")
        for kid in (kids if isinstance(kids, pikepdf.Array) else [kids])[:64]:
            if isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == pikepdf.Name.OBJR:
                annot = kid.get("/Obj")
                action = annot.get("/A") if isinstance(annot, pikepdf.Dictionary) else None
                if isinstance(action, pikepdf.Dictionary) and action.get("/S") == pikepdf.Name.URI:
                    uri = action.get("/URI")
                    if isinstance(uri, pikepdf.String):
                        text = bytes(uri).decode("latin-1").strip()
                        return text[:2000] or None
        return None

    # -- the walk -----------------------------------------------------------------------------------
    def new_id(self) -> int:
        self.ids += 1
        return self.ids

    def first_visit(self, array: pikepdf.Array) -> bool:
        """False (with a warning) for an indirect array met before: a /K array that contains
        itself would otherwise be walked for ever (arrays count as no element)."""
        objgen = array.objgen
        if objgen == (0, 0):
            return True
        if objgen in self.visited:
            self.warn("the structure tree refers to an array of kids twice (a cycle or a shared array); "
                      "the second reference is skipped")
            return False
        self.visited.add(objgen)
        return True

    def _walk(self) -> None:
        budget = self.limits.structure_elements
        max_depth = self.limits.structure_depth
        # (object, depth, page, block, row, cell, kind, parent element, around); children are
        # pushed reversed so the stack pops them in the author's order.
        stack: list[tuple[Any, int, int | None, int, int | None, int | None, str, Any, _Around]] = [
            (self.root.get("/K"), 0, None, 0, None, None, "Document", None, _Around())]
        while stack:
            obj, depth, page, block, row, cell, kind, parent, around = stack.pop()
            if isinstance(obj, pikepdf.Array):
                if not self.first_visit(obj):
                    continue
                for kid in reversed(list(obj)):
                    stack.append((kid, depth, page, block, row, cell, kind, parent, around))
                continue
            if isinstance(obj, int) and not isinstance(obj, bool):
                self.elements += 1  # a content reference counts against the limit too
                if self.elements > budget:
                    self.warn(f"{LIMIT}structure tree larger than {budget} elements; the rest is ignored",
                              "structure_elements")
                    return
                if page is None:
                    page = self.parent_page(parent)
                self._content(page, (None, int(obj)), kind, block, row, cell, around)
                continue
            if not isinstance(obj, pikepdf.Dictionary):
                continue
            self.elements += 1
            if self.elements > budget:
                self.warn(f"{LIMIT}structure tree larger than {budget} elements; the rest is ignored",
                          "structure_elements")
                return
            # One call: asking pikepdf for a key the element lacks costs 2 µs.
            keys = obj.keys()  # keys-order: asked for membership only
            type_ = _type_name(obj, keys)
            if type_ == "/OBJR":
                continue  # an annotation or other object: not page text
            if type_ == "/MCR" or ("/MCID" in keys and "/S" not in keys):
                if page is None and "/Pg" not in keys:
                    page = self.parent_page(parent)
                self._reference(obj, keys, page, kind, block, row, cell, around)
                continue
            if depth >= max_depth:
                self.warn(f"{LIMIT}structure tree nested deeper than {max_depth}; deeper elements skipped",
                          "structure_depth")
                continue
            objgen = obj.objgen
            if objgen != (0, 0):
                if objgen in self.visited:
                    self.warn("the structure tree refers to an element twice (a cycle or a shared element); "
                              "the second reference is skipped")
                    continue
                self.visited.add(objgen)
            self._element(obj, keys, depth, page, block, row, cell, around, stack)

    def _element(self, elem: pikepdf.Dictionary, keys: set[str], depth: int, page: int | None, block: int,
                 row: int | None, cell: int | None, around: _Around, stack: list[Any]) -> None:
        name = _get(elem, keys, "/S")
        kind = self.standard(str(name)[1:]) if isinstance(name, pikepdf.Name) else "NonStruct"
        if "/Pg" in keys:
            page = self.page_index(elem.get("/Pg"))
        if kind in BLOCKS and kind not in _IN_ITEM:
            block = self.new_id()
            around = around._replace(block_kind=kind)
        if kind == "TR":
            row = self.new_id()
        if kind in _CELLS:
            cell = self.new_id()
            if row is not None:
                self.row_cells[row].append(cell)
            if kind == "TH":
                around = around._replace(header=True)
        if kind in _NOTES:
            around = around._replace(note=self.new_id())
        if kind == "Table":
            around = around._replace(table=self.new_id(), header=False)
        elif kind in _HEADS:
            around = around._replace(header=True)
        elif kind == "L":
            around = around._replace(lists=around.lists + 1)
        elif kind == "Link":
            around = around._replace(link=self.link_target(elem))
        alt = _get(elem, keys, "/Alt") if kind == "Figure" else None
        if alt is not None and page is None:
            page = self.parent_page(elem)
        if alt is not None and page is not None:
            text = _text_string(alt)
            if text:
                self.pages[page].append(StructItem((), kind, block, row, cell, alt=text, **around._asdict()))
        actual = _get(elem, keys, "/ActualText")
        if actual is not None:
            text = _text_string(actual)
            if text is not None:
                self._replaced(elem, depth, page, kind, block, row, cell, around, text)
                return
        stack.append((_get(elem, keys, "/K"), depth + 1, page, block, row, cell, kind, elem, around))

    def _reference(self, mcr: pikepdf.Dictionary, keys: set[str], page: int | None, kind: str, block: int,
                   row: int | None, cell: int | None, around: _Around) -> None:
        mcid = _get(mcr, keys, "/MCID")
        if not isinstance(mcid, int):
            self.warn("a marked-content reference without an MCID; skipped")
            return
        if "/Pg" in keys:
            page = self.page_index(mcr.get("/Pg"))
        stm = _get(mcr, keys, "/Stm")
        owner = stm.objgen if isinstance(stm, pikepdf.Stream) and stm.objgen != (0, 0) else None
        self._content(page, (owner, int(mcid)), kind, block, row, cell, around)

    def _content(self, page: int | None, key: ContentKey, kind: str, block: int, row: int | None,
                 cell: int | None, around: _Around) -> None:
        if page is None:
            self.warn("marked content referenced without a page (no /Pg, no /ParentTree entry); skipped")
            return
        self.pages[page].append(StructItem((key,), kind, block, row, cell, **around._asdict()))

    def _replaced(self, elem: pikepdf.Dictionary, depth: int, page: int | None, kind: str, block: int,
                  row: int | None, cell: int | None, around: _Around, text: str) -> None:
        """An element whose /ActualText replaces its content: its content keys are
        collected (bounded like the main walk) and stand behind one item per page, the
        text on the first."""
        keys: dict[int, list[ContentKey]] = defaultdict(list)
        order: list[int] = []
        stack: list[tuple[Any, int, int | None]] = [(elem.get("/K"), depth + 1, page)]
        while stack:
            obj, d, pg = stack.pop()
            if isinstance(obj, pikepdf.Array):
                if self.first_visit(obj):
                    stack.extend((kid, d, pg) for kid in reversed(list(obj)))
                continue
            key: ContentKey | None = None
            if isinstance(obj, int) and not isinstance(obj, bool):
                key = (None, int(obj))
            elif isinstance(obj, pikepdf.Dictionary):
                self.elements += 1
                if self.elements > self.limits.structure_elements or d >= self.limits.structure_depth:
                    continue
                names = obj.keys()  # keys-order: asked for membership only
                type_ = _type_name(obj, names)
                if type_ == "/OBJR":
                    continue
                if "/Pg" in names:
                    pg = self.page_index(obj.get("/Pg"))
                if type_ == "/MCR" or ("/MCID" in names and "/S" not in names):
                    mcid = _get(obj, names, "/MCID")
                    stm = _get(obj, names, "/Stm")
                    if isinstance(mcid, int):
                        owner = stm.objgen if isinstance(stm, pikepdf.Stream) else None
                        key = (owner, int(mcid))
                else:
                    if obj.objgen != (0, 0):
                        if obj.objgen in self.visited:
                            continue
                        self.visited.add(obj.objgen)
                    stack.append((_get(obj, names, "/K"), d + 1, pg))
                    continue
            if key is not None and pg is None:
                pg = self.parent_page(elem)
            if key is not None and pg is not None:
                if pg not in keys:
                    order.append(pg)
                keys[pg].append(key)
        for n, pg in enumerate(order):
            self.pages[pg].append(StructItem(tuple(keys[pg]), kind, block, row, cell, text=text if n == 0 else "",
                                             **around._asdict()))


def _get(obj: pikepdf.Dictionary, keys: set[str], name: str) -> Any:
    """``obj.get(name)``, asked only when ``name`` is among ``keys`` (``obj.keys()``, which
    leaves out keys whose value is null, as ``get`` reads them): pikepdf answers a missing
    key through an exception, at ten times the cost of one that is there."""
    return obj.get(name) if name in keys else None


def _type_name(obj: pikepdf.Dictionary, keys: set[str]) -> str | None:
    """The /Type of a structure tree node as a name's text (``/OBJR``, ``/MCR``), None when
    it has none or it is not a name."""
    type_ = _get(obj, keys, "/Type")
    return str(type_) if isinstance(type_, pikepdf.Name) else None


def _number_tree(node: Any, max_depth: int) -> list[tuple[int, Any]]:
    """The (key, value) pairs of a number tree (§7.9.7), iteratively, each node once."""
    out: list[tuple[int, Any]] = []
    stack = [(node, 0)]
    seen: set[Any] = set()
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, pikepdf.Dictionary) or depth > max_depth:
            continue
        if node.objgen != (0, 0):
            if node.objgen in seen:
                continue
            seen.add(node.objgen)
        nums = node.get("/Nums")
        if isinstance(nums, pikepdf.Array):
            items = list(nums)
            for i in range(0, len(items) - 1, 2):
                if isinstance(items[i], int):
                    out.append((int(items[i]), items[i + 1]))
        kids = node.get("/Kids")
        if isinstance(kids, pikepdf.Array):
            stack.extend((kid, depth + 1) for kid in kids)
    return out
