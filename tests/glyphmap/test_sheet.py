"""The contact sheet: one self-contained, escaped HTML page, checked as text and in a
headless Chromium (a screenshot that is not blank and shows the red unresolved cards;
decisions typed into the cards, exported, downloaded and imported into the registry)."""

from __future__ import annotations

import contextlib
import fcntl
import html
import json
import os
import re
import select
import shutil
import struct
import subprocess
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from glyphweave.cli import main
from glyphweave.glyphmap.registry import Entry, Registry, read_registry, write_registry
from glyphweave.glyphmap.sheet import path_bounds, render_sheet, unresolved_count

HOSTILE = '<script>alert("x")</script><img src=http://evil.example/x.png onerror=alert(1)>'
HOSTILE_ESCAPED = (
    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=http://evil.example/x.png onerror=alert(1)&gt;")
SQUARE = "M0 0L500 0L500 700L0 700Z"
# A diameter sign as fontTools' SVGPathPen writes one (H and V lines, quadratic curves).
RING = ("M300 -20Q450 -20 530 80Q610 180 610 340Q610 500 530 600Q450 700 300 700Q150 700 70 600Q-10 500 "
        "-10 340Q-10 180 70 80Q150 -20 300 -20ZM300 60Q190 60 135 140Q80 220 80 340Q80 460 135 540Q190 620 "
        "300 620Q410 620 465 540Q520 460 520 340Q520 220 465 140Q410 60 300 60ZM40 -60L600 760L560 790L0 -30Z")
SNAP = Path("/work/snap")  # where a person looks at the screenshot, when it exists


def make_registry() -> Registry:
    entries = [
        Entry(key="Wingdings/o:9f3a", status="unresolved", family="Wingdings", code="f06c", count=12, files=3,
              context="Item ⟦?⟧ " + HOSTILE, svg=SQUARE),
        Entry(key="Symbol/c:f0c6", status="unresolved", family="Symbol", code="f0c6", count=1, files=1,
              context="no outline here ⟦?⟧", svg=""),
        Entry(key="TimesNewRoman/o:77aa", status="proposed", mapping="⌀", source="lookalike-rules",
              family="TimesNewRoman", code="00d8", count=40, files=7, context="a ⟦?⟧6 mm bore", svg=RING),
        Entry(key="TimesNewRoman/c:e000", status="validated", mapping="µ", source="person",
              family="TimesNewRoman", code="e000", count=5, files=2, context="2 ⟦?⟧m thick", svg=SQUARE),
        Entry(key='Evil"><b>/c:41', status="proposed", mapping="<&>", source="encoding",
              family='Evil"><b>', code="41", count=2, files=1, context="x", svg="M0 0L10 10<script>"),
    ]
    return Registry({entry.key: entry for entry in entries})


# --- the page as text -------------------------------------------------------------------------------------


def test_unresolved_count() -> None:
    assert unresolved_count(make_registry()) == 2
    assert unresolved_count(Registry()) == 0


def test_one_card_per_entry_most_text_first() -> None:
    page = render_sheet(make_registry())
    keys = re.findall(r'<code class="key field">([^<]*)</code>', page)
    by_impact = sorted(make_registry(), key=lambda e: (-e.count * max(e.files, 1), e.family, e.key))
    assert keys == [html.escape(e.key) for e in by_impact]
    assert len(keys) == len(make_registry())
    assert page.count('<span class="badge">unresolved</span>') == 2
    assert "<dt>count</dt><dd>12</dd><dt>files</dt><dd>3</dd>" in page


def test_fetches_nothing() -> None:
    page = render_sheet(make_registry())
    assert "http://" not in page.replace(HOSTILE_ESCAPED, "")
    assert "https://" not in page
    assert not re.search(r"\s(src|href)\s*=", page.replace(HOSTILE_ESCAPED, ""), re.I)
    assert not re.search(r"@import|url\(|@font-face", page)
    assert "default-src 'none'" in page  # and the CSP forbids anything that slipped in


def test_hostile_text_is_escaped() -> None:
    page = render_sheet(make_registry(), title="<i>mine</i>")
    assert HOSTILE_ESCAPED in page
    assert page.count("<script>") == 1  # the page's own
    assert "<img" not in page and "<b>/c" not in page and "<i>" not in page
    assert "&lt;i&gt;mine&lt;/i&gt;" in page
    assert 'data-family="f:Evil&quot;&gt;&lt;b&gt;"' in page
    assert "&lt;&amp;&gt;" in page  # the mapping "<&>"
    # A path with anything but path data is not drawn at all.
    assert "unreadable outline" in page and "L10 10&lt;script" not in page


def test_glyphs_are_drawn_upright_from_their_path() -> None:
    page = render_sheet(make_registry())
    # the square: 500 x 700 font units, margin 8 % of 700 = 56, flipped (y up) by the group
    assert '<svg viewBox="-56 -756 612 812" role="img" aria-label="glyph outline">' in page
    assert '<g transform="scale(1 -1)"><line x1="-56" y1="0" x2="556" y2="0"' in page
    assert f'<path d="{SQUARE}"/>' in page
    assert page.count("no outline<br>") == 1
    assert '<span class="big field">⌀</span><span class="cps">U+2300</span>' in page
    assert "no character yet" in page  # the unresolved ones


def test_filters_and_counts() -> None:
    page = render_sheet(make_registry())
    for status, n in (("unresolved", 2), ("proposed", 2), ("validated", 1)):
        assert f'value="{status}" checked>{status} <b>{n}</b>' in page
    assert '<select id="family">' in page
    assert '<option value="f:TimesNewRoman">TimesNewRoman (2)</option>' in page
    assert 'classList.toggle("hidden"' in page
    assert '<span id="shown">5</span> of 5 glyphs shown' in page


def test_empty_registry() -> None:
    page = render_sheet(Registry())
    assert "The registry is empty" in page
    assert "<article" not in page


@pytest.mark.parametrize(
    ("path", "bounds"),
    [
        (SQUARE, (0, 0, 500, 700)),
        ("M10 10V0H-5Q3 4 5 6Z", (-5, 0, 10, 10)),
        ("m10 10l5 5 5 5z m1 1 h3", (10, 10, 20, 20)),  # relative, implicit lines, after a close
        ("M0 0A5 5 0 0 1 20 -3", (0, -3, 20, 0)),
        ("M0 0L1", None),
        ("", None),
        ("Z", None),
    ],
)
def test_path_bounds(path: str, bounds: tuple[float, ...] | None) -> None:
    assert path_bounds(path) == bounds


# --- the page in a browser --------------------------------------------------------------------------------


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("no Chromium installed: the contact sheet's browser test needs Debian's `chromium` "
                    "(.ci/run installs it; `apt-get install chromium` by hand)")
    return found


def run_chromium(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    command = [chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--hide-scrollbars", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}", *args, url]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_screenshot_shows_the_cards_in_colour(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.html"
    sheet.write_text(render_sheet(make_registry()), encoding="utf-8")
    shot = tmp_path / "sheet.png"
    done = run_chromium(tmp_path, sheet.as_uri(), f"--screenshot={shot}", "--window-size=1200,900")
    assert shot.exists(), f"Chromium made no screenshot (exit {done.returncode}): {done.stderr[-2000:]}"
    if SNAP.is_dir():
        shutil.copyfile(shot, SNAP / "sheet.png")

    width, height, pixels = read_png(shot.read_bytes())
    assert (width, height) == (1200, 900)
    colours = Counter(pixels)
    white = sum(n for (r, g, b), n in colours.items() if min(r, g, b) >= 240)
    assert len(colours) > 100, "the screenshot is nearly blank"
    assert white < 0.9 * len(pixels), "the screenshot is nearly all white"
    red = sum(n for (r, g, b), n in colours.items() if r > 180 and g < 80 and b < 80)
    green = sum(n for (r, g, b), n in colours.items() if g > 100 and r < 80 and b < 80)
    amber = sum(n for (r, g, b), n in colours.items() if r > 200 and 120 < g < 180 and b < 40)
    assert red > 2000, f"no red unresolved cards ({red} red pixels)"
    assert green > 500 and amber > 500, (green, amber)
    # The two square outlines are drawn solid, about 60 x 80 pixels: text never has such a run of
    # dark pixels. Counted per run, since the two may share a row of cards.
    solid_runs = sum(dark_runs(pixels[y * width:(y + 1) * width], 40) for y in range(height))
    assert solid_runs >= 2 * 60, f"the glyph outlines are not drawn ({solid_runs} solid runs)"


def dark_runs(row: list[tuple[int, int, int]], length: int) -> int:
    """Runs of at least ``length`` dark pixels in ``row``."""
    runs = run = 0
    for r, g, b in row:
        if max(r, g, b) < 60:
            run += 1
            if run == length:
                runs += 1
        else:
            run = 0
    return runs


def test_the_address_filters_the_cards(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.html"
    sheet.write_text(render_sheet(make_registry()), encoding="utf-8")
    done = run_chromium(tmp_path, sheet.as_uri() + "#status=unresolved,validated&family=TimesNewRoman",
                        "--dump-dom")
    cards = re.findall(r'<article class="card ([^"]*)" data-status="(\w+)" data-family="([^"]*)"', done.stdout)
    assert len(cards) == 5, done.stderr[-2000:]
    shown = [(status, family) for classes, status, family in cards if "hidden" not in classes.split()]
    assert shown == [("validated", "f:TimesNewRoman")]
    assert '<span id="shown">1</span>' in done.stdout


# --- a minimal PNG reader (8-bit RGB or RGBA, not interlaced: what Chromium writes) ------------------------


def read_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "only 8-bit RGB(A), non-interlaced PNGs"
    channels = 4 if colour == 6 else 3
    stride = width * channels
    raw = zlib.decompress(idat)
    previous = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        unfilter(kind, row, previous, channels)
        pixels.extend(zip(row[0::channels], row[1::channels], row[2::channels], strict=True))
        previous = row
    return width, height, pixels


def unfilter(kind: int, row: bytearray, up: bytearray, bpp: int) -> None:
    if kind == 1:
        for i in range(bpp, len(row)):
            row[i] = (row[i] + row[i - bpp]) & 0xFF
    elif kind == 2:
        for i in range(len(row)):
            row[i] = (row[i] + up[i]) & 0xFF
    elif kind == 3:
        for i in range(len(row)):
            row[i] = (row[i] + ((row[i - bpp] if i >= bpp else 0) + up[i]) // 2) & 0xFF
    elif kind == 4:
        for i in range(len(row)):
            a, b, c = (row[i - bpp], up[i], up[i - bpp]) if i >= bpp else (0, up[i], 0)
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    else:
        assert kind == 0, f"bad PNG filter {kind}"


def test_shape_proposals_show_their_confidence() -> None:
    registry = Registry({"F/o:1": Entry(key="F/o:1", status="proposed", mapping="e", source="shape",
                                        confidence=0.757, family="F", code="41", count=3, files=1)})
    assert 'shape <span class="confidence" title="the shape matcher\'s confidence">0.76</span>' in (
        render_sheet(registry))


def test_a_card_with_no_outline_says_why() -> None:
    registry = Registry({
        "F/c:02": Entry(key="F/c:02", status="proposed", mapping=" ", source="shape", confidence=1.0, family="F",
                        code="02", count=9, files=1),
        "T/c:41": Entry(key="T/c:41", status="unresolved", family="T", code="41", count=1, files=1,
                        undrawn="not embedded"),
        "U/c:42": Entry(key="U/c:42", status="unresolved", family="U", code="42", count=1, files=1,
                        undrawn="unreadable program"),
        "V/c:43": Entry(key="V/c:43", status="unresolved", family="V", code="43", count=1, files=1),
    })
    page = render_sheet(registry)
    assert "draws nothing<br>(a space)" in page
    assert "no outline<br>(the font is not embedded)" in page
    assert "no outline<br>(the font program cannot be read)" in page
    assert "no outline<br>(reason unknown: scan again)" in page  # written before the column


def test_glyphs_are_drawn_at_their_size_in_the_em() -> None:
    """A large square and a small one of the same font get the same view (the em), so the small
    one is drawn small; a drawing whose em is unknown is fitted to its card."""
    big, small = "M50 0L650 0L650 600L50 600Z", "M200 150L400 150L400 350L200 350Z"
    registry = Registry({
        "F/o:1": Entry(key="F/o:1", status="unresolved", family="F", code="6e", count=2, files=1, em=1000, svg=big),
        "F/o:2": Entry(key="F/o:2", status="unresolved", family="F", code="a7", count=1, files=1, em=1000, svg=small),
        "F/o:3": Entry(key="F/o:3", status="unresolved", family="F", code="a8", count=1, files=1, svg=small),
    })
    boxes = [tuple(float(v) for v in box.split()) for box in re.findall(r'viewBox="([^"]+)"', render_sheet(registry))]
    assert len(boxes) == 3
    (big_box, small_box, fitted) = boxes
    assert big_box[2:] == small_box[2:] and big_box[3] == pytest.approx(1.25 * 1000 * 1.16)  # the em, with margins
    assert small_box[0] == pytest.approx(300 - 625 - 100)  # centred on the ink across
    assert fitted[2:] == pytest.approx((200 * 1.16, 200 * 1.16))  # fitted to the 200-unit square


def test_every_card_has_a_box_to_decide_in() -> None:
    page = render_sheet(make_registry())
    assert page.count('<input class="answer"') == 5
    assert page.count('class="take"') == 2  # the proposed entries, with their character
    assert 'data-char="&lt;&amp;&gt;">take “&lt;&amp;&gt;”</button>' in page
    assert 'data-key="Evil&quot;&gt;&lt;b&gt;/c:41"' in page


class DevTools:
    """A headless Chromium driven through the DevTools protocol over a pipe
    (``--remote-debugging-pipe``: JSON messages ended by NUL, on the child's fds 3 and 4),
    so a test types into a page and clicks as a person would, with no network port."""

    def __init__(self, tmp_path: Path) -> None:
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()
        # the child's fds 3 and 4 must be these pipes: move them above any fd the dup2 overwrites
        high_read = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
        high_write = fcntl.fcntl(replies_write, fcntl.F_DUPFD, 10)

        def wire() -> None:
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}", "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        for fd in (commands_read, replies_write, high_read, high_write):
            os.close(fd)
        self._buffer = b""
        self._id = 0
        self.session = ""

    def send(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 60
        while True:
            while b"\0" not in self._buffer:
                ready, _, _ = select.select([self._replies], [], [], max(deadline - time.monotonic(), 0))
                if not ready:
                    raise TimeoutError(f"Chromium did not answer {method}")
                chunk = os.read(self._replies, 1 << 16)
                if not chunk:
                    raise EOFError(f"Chromium closed the pipe during {method}")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._id:
                assert "error" not in reply, reply["error"]
                return reply["result"]

    def open(self, url: str, downloads: Path) -> None:
        target = self.send("Target.createTarget", {"url": url})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        # The new target may still show about:blank (loaded, too) when attached: wait for the page itself.
        deadline = time.monotonic() + 30
        while not self.run(f"location.href === {json.dumps(url)} && document.readyState === 'complete'"):
            assert time.monotonic() < deadline, f"Chromium did not load {url}"
            time.sleep(0.05)

    def run(self, expression: str) -> Any:
        """The value of ``expression`` in the page (DevTools evaluates it whatever the page's CSP)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, self.session)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def type(self, selector: str, text: str) -> None:
        """Focus ``selector`` and type ``text`` into it as a keyboard would insert it."""
        self.run(f"document.querySelector({json.dumps(selector)}).focus()")
        self.send("Input.insertText", {"text": text}, self.session)

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)
        for fd in (self._commands, self._replies):
            with contextlib.suppress(OSError):
                os.close(fd)


@contextlib.contextmanager
def devtools(tmp_path: Path) -> Iterator[DevTools]:
    browser = DevTools(tmp_path)
    try:
        yield browser
    finally:
        browser.close()


def wait_for_file(folder: Path, name: str) -> Path:
    path = folder / name
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if path.exists() and not list(folder.glob("*.crdownload")):
            return path
        time.sleep(0.05)
    raise AssertionError(f"no {name} downloaded into {folder}: {sorted(p.name for p in folder.glob('*'))}")


def test_decisions_typed_on_the_sheet_are_exported_and_imported(tmp_path: Path) -> None:
    """A person types a character into one card, takes a proposal on another, exports: the
    page downloads a decisions file (under its strict CSP) that ``registry import`` applies."""
    reg = tmp_path / "reg.tsv"
    write_registry(reg, make_registry())
    sheet = tmp_path / "sheet.html"
    assert main(["sheet", str(reg), "-o", str(sheet)]) == 3  # two entries unresolved
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    with devtools(tmp_path) as browser:
        browser.open(sheet.as_uri(), downloads)
        browser.type('.card[data-key="Wingdings/o:9f3a"] input.answer', "☛")
        browser.type('.card[data-key="Symbol/c:f0c6"] input.answer', "\uf0c6")  # a PUA character: refused
        browser.run("""document.querySelector('.card[data-key="TimesNewRoman/o:77aa"] button.take').click()""")
        assert browser.run("document.getElementById('decided').textContent") == "2"
        assert browser.run("document.querySelector('.card[data-key=\"Symbol/c:f0c6\"] input.answer')"
                           ".classList.contains('bad')")
        browser.run("document.getElementById('export').click()")
        shown = browser.run("document.getElementById('decisions').value")
        exported = wait_for_file(downloads, "glyph-decisions.tsv")
    assert exported.read_text(encoding="utf-8") == shown == (
        "# glyphweave glyph decisions v1\nkey\tmapping\nTimesNewRoman/o:77aa\t⌀\nWingdings/o:9f3a\t☛\n")
    assert main(["registry", "import", str(exported), "-r", str(reg)]) == 0
    entries = read_registry(reg).entries
    assert (entries["Wingdings/o:9f3a"].status, entries["Wingdings/o:9f3a"].mapping) == ("validated", "☛")
    assert (entries["TimesNewRoman/o:77aa"].status, entries["TimesNewRoman/o:77aa"].source) == ("validated", "person")
    assert entries["Symbol/c:f0c6"].status == "unresolved"


def test_take_the_shown_proposals_takes_only_what_the_filters_show(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.html"
    sheet.write_text(render_sheet(make_registry()), encoding="utf-8")
    with devtools(tmp_path) as browser:
        browser.open(sheet.as_uri() + "#status=proposed&family=TimesNewRoman", tmp_path)
        browser.run("document.getElementById('take-shown').click()")
        taken = browser.run("Array.from(document.querySelectorAll('input.answer')).filter((a) => a.value)"
                            ".map((a) => [a.closest('.card').dataset.key, a.value])")
    assert taken == [["TimesNewRoman/o:77aa", "⌀"]]  # not the hidden proposal of the other font
