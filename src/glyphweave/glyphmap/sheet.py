"""The contact sheet (rules: the glyph registry): the whole glyph registry on one self-contained HTML page,
each glyph drawn from its own outline beside its identification and the character chosen
for it, so that a person can check the registry at a glance and validate it.

* One card per entry, the entries that would resolve the most text first (occurrences ×
  files), then by font family and key: the outline drawn as inline SVG
  from the entry's path (font units, y up, flipped upright) at its size in the font's em
  (so a small square and a large one differ), or why there is none; the chosen
  character drawn large in a system font, with its code points; then the key, font
  family, code, status, source (with the shape matcher's confidence), count, files and
  one context.
* Unresolved entries are red, proposed ones amber, validated ones green.
* A header counts the entries per status and filters them by status (checkboxes) and by
  font family (a select); a little inline script toggles a class on the cards. The
  filter can also be given in the address: ``sheet.html#status=unresolved&family=Symbol``.
* The page fetches nothing: no external font, script, style or image, and a
  Content-Security-Policy that allows only its own inline style and script (by hash),
  so nothing a hostile PDF put in a key or a context can load or run anything.
* Every text field is HTML-escaped: keys, families and contexts come from PDFs.
* Decisions are made on the page: each card has a box for the character(s) the glyph
  stands for and, for a proposal, a button that takes it ("take the shown proposals" takes
  every proposal the filters show). "export" writes the decisions as a file
  (:mod:`.decisions`, downloaded and shown on the page) that ``glyphweave registry
  import`` applies; the page warns before it is closed with decisions not exported.

:func:`unresolved_count` is what ``glyphweave sheet`` exits on, so a batch job can alert
while any key is unresolved.
"""

from __future__ import annotations

import base64
import hashlib
import html
import math
import re
from collections import Counter

from glyphweave.glyphmap.registry import STATUSES, Entry, Registry

_CSS = """
:root { color-scheme: light; --red: #d32f2f; --amber: #e69500; --green: #2e7d32; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Noto Sans", sans-serif;
       color: #1d1d1f; background: #f4f4f6; }
header { position: sticky; top: 0; z-index: 1; padding: 10px 16px; background: #fff;
         border-bottom: 1px solid #ccc; display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; }
h1 { margin: 0; font-size: 18px; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.chip { display: inline-flex; gap: 5px; align-items: center; padding: 2px 9px; border-radius: 12px;
        border: 2px solid; background: #fff; cursor: pointer; user-select: none; }
.chip.status-unresolved { border-color: var(--red); color: var(--red); }
.chip.status-proposed { border-color: var(--amber); color: #8a5a00; }
.chip.status-validated { border-color: var(--green); color: var(--green); }
.total { color: #555; }
main { display: grid; grid-template-columns: repeat(auto-fill, minmax(370px, 1fr)); gap: 12px; padding: 14px 16px; }
.card { display: grid; grid-template-columns: 100px 100px 1fr; gap: 8px 10px; padding: 10px; border-radius: 8px;
        border: 2px solid #bbb; background: #fff; align-content: start; }
.top { grid-column: 1 / -1; display: flex; gap: 8px; align-items: baseline; min-width: 0; }
.card.hidden { display: none; }
.card.status-unresolved { border: 3px solid var(--red); background: #fdecea; }
.card.status-proposed { border-color: var(--amber); background: #fff6e0; }
.card.status-validated { border-color: var(--green); background: #eaf5ea; }
.glyph, .char { height: 100px; overflow: hidden; border: 1px solid #ccc; border-radius: 4px; background: #fff;
                display: flex; flex-direction: column; align-items: center; justify-content: center; }
.glyph svg { width: 96px; height: 96px; }
.glyph path { fill: #111; }
.glyph line { stroke: #6aa0e8; stroke-width: 1; }
.none { color: #888; font-size: 12px; text-align: center; }
.big { font: 56px/1 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Noto Sans", sans-serif; }
.big.missing { color: #bbb; }
.big.many { font-size: 28px; max-width: 96px; overflow-wrap: anywhere; text-align: center; }
.cps { font: 11px ui-monospace, "DejaVu Sans Mono", monospace; color: #555; margin-top: 4px; padding: 0 3px;
       text-align: center; }
.badge { flex: none; padding: 0 7px; border-radius: 9px; color: #fff; font-size: 12px; font-weight: 600; }
.status-unresolved .badge { background: var(--red); }
.status-proposed .badge { background: var(--amber); }
.status-validated .badge { background: var(--green); }
.key { min-width: 0; font: 12px ui-monospace, "DejaVu Sans Mono", monospace; word-break: break-all; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0 8px; margin: 0; font-size: 13px; min-width: 0; }
dt { color: #666; } dd { margin: 0; overflow-wrap: anywhere; }
.field { unicode-bidi: isolate; }
.context { grid-column: 1 / -1; margin: 0; padding: 4px 6px; background: #ffffffb0; border-radius: 4px;
           font-size: 13px; overflow-wrap: anywhere; white-space: pre-wrap; unicode-bidi: isolate; }
.context mark { background: #ffd54f; }
.empty { margin: 40px 16px; font-size: 18px; color: #555; }
.decide { grid-column: 1 / -1; display: flex; gap: 8px; align-items: center; font-size: 13px; }
.decide input { width: 9em; font: 18px system-ui, sans-serif; padding: 1px 6px; border: 1px solid #999;
                border-radius: 4px; }
.decide input.bad { border: 2px solid var(--red); background: #fdecea; }
.card.decided { outline: 3px solid #1565c0; }
button { font: inherit; padding: 2px 10px; border-radius: 4px; border: 1px solid #888; background: #fff;
         cursor: pointer; }
#export { border-color: #1565c0; color: #1565c0; font-weight: 600; }
#decisions { width: 100%; height: 8em; font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
.exportbox { flex-basis: 100%; }
"""

_JS = r"""
(() => {
  "use strict";
  const boxes = Array.from(document.querySelectorAll("input[name=status]"));
  const family = document.getElementById("family");
  const cards = Array.from(document.querySelectorAll(".card"));
  const shown = document.getElementById("shown");
  const apply = () => {
    const on = {};
    boxes.forEach((b) => { on[b.value] = b.checked; });
    const fam = family ? family.value : "";
    let n = 0;
    cards.forEach((c) => {
      const hide = on[c.dataset.status] === false || (fam !== "" && c.dataset.family !== fam);
      c.classList.toggle("hidden", hide);
      if (!hide) n += 1;
    });
    if (shown) shown.textContent = String(n);
  };
  const fromHash = () => {
    const params = new URLSearchParams(location.hash.slice(1));
    const status = params.get("status");
    if (status !== null) {
      const want = status.split(",");
      boxes.forEach((b) => { b.checked = want.includes(b.value); });
    }
    const fam = params.get("family");
    if (fam !== null && family) {
      family.value = "f:" + fam;
      if (family.value !== "f:" + fam) family.value = "";
    }
  };
  const toHash = () => {
    const params = new URLSearchParams();
    params.set("status", boxes.filter((b) => b.checked).map((b) => b.value).join(","));
    if (family && family.value) params.set("family", family.value.slice(2));
    try { history.replaceState(null, "", "#" + params.toString()); } catch (e) { /* file: may refuse */ }
  };
  boxes.forEach((b) => b.addEventListener("change", () => { apply(); toHash(); }));
  if (family) family.addEventListener("change", () => { apply(); toHash(); });
  window.addEventListener("hashchange", () => { fromHash(); apply(); });
  fromHash();
  apply();

  // Decisions: characters typed into the cards, exported as a file `registry import` reads.
  const answers = Array.from(document.querySelectorAll("input.answer"));
  const count = document.getElementById("decided");
  const output = document.getElementById("decisions");
  const weak = /[\u0000-\u001f\u007f-\u009f\ue000-\uf8ff\ufffd\u{f0000}-\u{10ffff}]/u;
  const escape = (t) => t.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
  let exported = 0;
  const chosen = () => answers.filter((a) => a.value !== "" && !weak.test(a.value));
  const refresh = () => {
    answers.forEach((a) => {
      a.classList.toggle("bad", weak.test(a.value));
      a.closest(".card").classList.toggle("decided", a.value !== "" && !weak.test(a.value));
    });
    if (count) count.textContent = String(chosen().length);
  };
  answers.forEach((a) => a.addEventListener("input", refresh));
  document.querySelectorAll("button.take").forEach((b) => b.addEventListener("click", () => {
    const answer = b.parentElement.querySelector("input.answer");
    answer.value = b.dataset.char;
    refresh();
  }));
  const takeShown = document.getElementById("take-shown");
  if (takeShown) takeShown.addEventListener("click", () => {
    answers.forEach((a) => {
      const card = a.closest(".card");
      const take = card.querySelector("button.take");
      if (take && a.value === "" && !card.classList.contains("hidden") && card.dataset.status === "proposed") {
        a.value = take.dataset.char;
      }
    });
    refresh();
  });
  const exportButton = document.getElementById("export");
  if (exportButton) exportButton.addEventListener("click", () => {
    const rows = chosen().map((a) => escape(a.closest(".card").dataset.key) + "\t" + escape(a.value));
    const text = "# glyphweave glyph decisions v1\nkey\tmapping\n" + rows.map((r) => r + "\n").join("");
    output.value = text;
    output.parentElement.hidden = false;
    const url = URL.createObjectURL(new Blob([text], { type: "text/tab-separated-values;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "glyph-decisions.tsv";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    exported = rows.length;
  });
  window.addEventListener("beforeunload", (event) => {
    if (chosen().length > exported) { event.preventDefault(); event.returnValue = ""; }
  });
  refresh();
})();
"""

# What an SVG path may contain: a path with anything else is not drawn (the card says the
# outline is unreadable).
_PATH_CHARS = re.compile(r"[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]*")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_CONTEXT_MARK = "⟦?⟧"


def unresolved_count(registry: Registry) -> int:
    """How many entries of ``registry`` have no character yet (the sheet command's exit test)."""
    return sum(1 for entry in registry.entries.values() if entry.status == "unresolved")


def render_sheet(registry: Registry, *, title: str = "glyphweave contact sheet") -> str:
    """The contact sheet of ``registry``: one self-contained HTML page (see the module docstring)."""
    entries = sorted(registry, key=lambda e: (-e.count * max(e.files, 1), e.family, e.key))
    if entries:
        body = '<main id="cards">\n' + "\n".join(_card(entry) for entry in entries) + "\n</main>"
    else:
        body = '<p class="empty">The registry is empty: no glyph to show.</p>'
    csp = (f"default-src 'none'; style-src '{_sha256(_CSS)}'; script-src '{_sha256(_JS)}'; "
           "img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{_esc(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        _header(title, entries),
        body,
        f"<script>{_JS}</script>",
        "</body>",
        "</html>",
        "",
    ])


def _header(title: str, entries: list[Entry]) -> str:
    statuses = Counter(entry.status for entry in entries)
    families = Counter(entry.family for entry in entries)
    chips = "".join(
        f'<label class="chip status-{status}" title="show {status} entries">'
        f'<input type="checkbox" name="status" value="{status}" checked>{status} <b>{statuses[status]}</b></label>'
        for status in STATUSES)
    options = "".join(
        f'<option value="f:{_esc(name)}">{_esc(name) if name else "(no family)"} ({count})</option>'
        for name, count in sorted(families.items()))
    return (
        f"<header><h1>{_esc(title)}</h1>"
        f'<span class="total"><span id="shown">{len(entries)}</span> of {len(entries)} glyphs shown</span>'
        f'<div class="filters" id="filters">{chips}'
        f'<label>font <select id="family"><option value="">all fonts ({len(families)})</option>{options}'
        "</select></label></div>"
        '<div class="filters" title="type characters into the cards, then export them for '
        "'glyphweave registry import'\">"
        '<button type="button" id="take-shown">take the shown proposals</button>'
        '<button type="button" id="export">export <span id="decided">0</span> decisions</button></div>'
        '<div class="exportbox" hidden><label>the exported file (also downloaded as glyph-decisions.tsv; '
        'apply it with <code>glyphweave registry import glyph-decisions.tsv</code>)<br>'
        '<textarea id="decisions" readonly></textarea></label></div></header>')


def _card(entry: Entry) -> str:
    status = _esc(entry.status)
    context = _esc(entry.context).replace(_CONTEXT_MARK, f"<mark>{_CONTEXT_MARK}</mark>")
    return (
        f'<article class="card status-{status}" data-status="{status}" data-family="f:{_esc(entry.family)}" '
        f'data-key="{_esc(entry.key)}">'
        f'<div class="top"><span class="badge">{status}</span><code class="key field">{_esc(entry.key)}</code></div>'
        f'<div class="glyph" title="{_drawn_how(entry)}">{_outline(entry.svg, entry.em, blank=entry.source == "shape" and entry.mapping == " ", undrawn=entry.undrawn)}</div>'
        f'<div class="char" title="the chosen character, in a system font">{_chosen(entry.mapping)}</div>'
        "<dl>"
        f'<dt>font</dt><dd class="field">{_esc(entry.family) or "(no family)"}</dd>'
        f'<dt>code</dt><dd class="field"><code>{_esc(entry.code) or "?"}</code></dd>'
        f'<dt>source</dt><dd class="field">{_source(entry)}</dd>'
        f"<dt>count</dt><dd>{entry.count}</dd><dt>files</dt><dd>{entry.files}</dd>"
        f'</dl><p class="context" title="one context (the glyph is {_CONTEXT_MARK})">{context}</p>'
        f"{_decide(entry)}</article>")


def _decide(entry: Entry) -> str:
    """The card's answer box (what a person decides the glyph is), with a button that takes
    the proposal when there is one."""
    take = ""
    if entry.status == "proposed" and entry.mapping:
        shown = entry.mapping if entry.mapping.strip() else "a space"
        take = (f'<button type="button" class="take" data-char="{_esc(entry.mapping)}">'
                f'take “{_esc(shown)}”</button>')
    return ('<div class="decide"><label>decide <input class="answer" type="text" maxlength="32" '
            'autocomplete="off" spellcheck="false" aria-label="the character(s) this glyph stands for"></label>'
            f"{take}</div>")


def _drawn_how(entry: Entry) -> str:
    if entry.em:
        return "the glyph as its font draws it, at its size in the em (the line is the baseline)"
    return "the glyph as its font draws it, fitted to the box (its size in the em is unknown)"


def _source(entry: Entry) -> str:
    """Who proposed the character, with the shape matcher's confidence when it did."""
    source = _esc(entry.source) or "(none)"
    if entry.confidence is None:
        return source
    return f'{source} <span class="confidence" title="the shape matcher\'s confidence">{entry.confidence:.2f}</span>'


def _chosen(mapping: str) -> str:
    """The chosen character drawn large, with its code points (a space or a mark is invisible)."""
    if not mapping:
        return '<span class="big missing">?</span><span class="cps">no character yet</span>'
    points = " ".join(f"U+{ord(ch):04X}" for ch in mapping[:4]) + (" …" if len(mapping) > 4 else "")
    size = "big" if len(mapping) == 1 else "big many"
    return f'<span class="{size} field">{_esc(mapping)}</span><span class="cps">{points}</span>'


_UNDRAWN_SAYS = {
    "not embedded": "the font is not embedded",
    "unreadable program": "the font program cannot be read",
    "no such glyph": "the font has no glyph for the code",
    "unreadable glyph": "the glyph cannot be read",
    "draws nothing": "the glyph draws nothing",
}


def _outline(path: str, em: int = 0, blank: bool = False, undrawn: str = "") -> str:
    """An inline SVG of ``path`` (font units, y up), upright: at its size in the font's em
    when ``em`` (units per em) is known, so that ■ and ▪ differ (the view spans the em
    from a descender's depth to a capital's height, around the ink, grown where the ink goes
    beyond), otherwise fitted to its bounds. With no path: ``blank``, a glyph the font draws
    as nothing (the shape matcher proposed a space); otherwise why there is nothing to draw
    (``undrawn``, the registry's column), or "reason unknown" for an entry a scan before
    that column wrote."""
    if not path.strip():
        if blank or undrawn == "draws nothing":
            return '<span class="none">draws nothing<br>(a space)</span>'
        why = _UNDRAWN_SAYS.get(undrawn, "reason unknown: scan again")
        return f'<span class="none">no outline<br>({_esc(why)})</span>'
    bounds = path_bounds(path) if _PATH_CHARS.fullmatch(path) else None
    if bounds is None:
        return '<span class="none">unreadable outline</span>'
    x0, y0, x1, y1 = bounds
    if em > 0:  # the em's vertical span, centred on the ink across
        middle = (x0 + x1) / 2
        y0, y1 = min(y0, -0.25 * em), max(y1, 1.0 * em)
        half = max(x1 - x0, y1 - y0) / 2
        x0, x1 = middle - half, middle + half
    size = max(x1 - x0, y1 - y0, 1.0)
    margin = size * 0.08
    if not math.isfinite(size + margin + abs(x0) + abs(y1)):
        return '<span class="none">unreadable outline</span>'
    # scale(1 -1) turns y up into SVG's y down: the box spans -y1 .. -y0 on screen.
    box = " ".join(_num(v) for v in (x0 - margin, -y1 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin))
    baseline = ""
    if y0 <= 0 <= y1:
        baseline = (f'<line x1="{_num(x0 - margin)}" y1="0" x2="{_num(x1 + margin)}" y2="0" '
                    'vector-effect="non-scaling-stroke"/>')
    return (f'<svg viewBox="{box}" role="img" aria-label="glyph outline">'
            f'<g transform="scale(1 -1)">{baseline}<path d="{_esc(path)}"/></g></svg>')


def path_bounds(path: str) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) around every point of an SVG path, control points included
    (a little larger than the drawing at worst); None when the path has no point or a
    number that is not finite. Absolute and relative commands are followed; an arc counts
    by its end point."""
    tokens = _PATH_TOKEN.findall(path)
    xs: list[float] = []
    ys: list[float] = []
    cx = cy = sx = sy = 0.0
    command = ""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.isalpha():
            command, i = token, i + 1
            if command in "Zz":
                cx, cy = sx, sy
            continue
        arity = _ARITY.get(command.upper(), 0)
        if not arity or i + arity > len(tokens) or any(t.isalpha() for t in tokens[i:i + arity]):
            return None
        args = [float(t) for t in tokens[i:i + arity]]
        i += arity
        cx, cy = _follow(command, args, cx, cy, xs, ys)
        if command in "Mm":
            sx, sy = cx, cy
            command = "L" if command == "M" else "l"  # further pairs after a move are lines
    if not xs or not all(math.isfinite(v) for v in (*xs, *ys)):
        return None
    return min(xs), min(ys), max(xs), max(ys)


def _follow(command: str, args: list[float], cx: float, cy: float,
            xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Record the points of one command's arguments; the new current point."""
    relative = command.islower()
    upper = command.upper()
    if upper == "H":
        cx = cx + args[0] if relative else args[0]
        xs.append(cx)
        ys.append(cy)
        return cx, cy
    if upper == "V":
        cy = cy + args[0] if relative else args[0]
        xs.append(cx)
        ys.append(cy)
        return cx, cy
    pairs = [(args[5], args[6])] if upper == "A" else list(zip(args[0::2], args[1::2], strict=False))
    ox, oy = (cx, cy) if relative else (0.0, 0.0)
    for x, y in pairs:
        xs.append(ox + x)
        ys.append(oy + y)
    return ox + pairs[-1][0], oy + pairs[-1][1]


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
