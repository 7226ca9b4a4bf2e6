"""Dehyphenation (rules: assembly): a word a producer split at a line end is one word again,
and a word's own hyphen stays.

A page's text is read line by line. A soft hyphen (U+00AD) is never output: it marks where
a word *may* break, so at a line end the two parts join and elsewhere it is dropped. A
line that ends in a hyphen (``-`` or U+2010) after a letter, followed by a line that starts
with a lower-case letter, is a candidate: the producer either split one word there
(``mu-`` + ``nicipal``) or broke the line after a word's own hyphen (``twenty-`` +
``four``). Either way the word is one again: its second part comes up to the line of its
first, without the hyphen in the first case and with it in the second (a search for
``twenty-four`` finds it). Which one is decided from evidence, the nearest first:

1. **The page's own words.** The joined word written whole elsewhere on the page, or the
   hyphenated form written within a line: the more frequent wins.
2. **The page's own hyphens.** Producers that insert a hyphen character of their own
   (WeasyPrint's U+2010) while the text types another (``-``) show it: a line-end hyphen
   character that never stands inside a word within a line, on a page whose words do use
   another one, is the producer's (join); a ``-`` on a page whose split words end in such
   a producer's character is the word's own (keep).
3. **A word list** (:class:`WordList`, wordfreq's frequencies): join when the joined word
   is known and not much rarer than the rarer part (a compound's parts are words of their
   own, and ``twentyfour`` or ``carbonarc`` are far rarer than either part); keep when the
   joined word is unknown and both parts are words; join otherwise (``glaci`` + ``ologist``
   are no compound).

``mode``: ``"auto"`` as above, ``"all"`` joins every candidate (as pdftotext does, real
compounds too), ``"off"`` joins nothing (a line-end soft hyphen is then shown as the
hyphen the page draws).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from .wordcache import HashedList, PackedList, cached_hashed, cached_list, cached_table, hashed_native, zipf

SOFT_HYPHEN = "\u00ad"
HYPHENS = "-\u2010"
"""The hyphen characters a line may end in (hyphen-minus and U+2010 HYPHEN)."""

MODES = ("auto", "off", "all")

MARGIN = 1.0
"""On the word list's Zipf scale (log10 of occurrences per billion words): the joined word
wins when it is at most this much rarer than the rarer of the two parts. ``twenty`` and
``four`` are about 4.7 and 5.5, ``twentyfour`` 1.5 (keep); ``re`` and ``stored`` 5.2 and
4.2, ``restored`` 4.1 (join)."""

FIT = 0.8
"""The word list speaks for a page only when it knows at least this share of the page's words
of three letters or more (English prose and papers against the English list: 0.86 to 1.0;
German and French pages: 0.45 to 0.6, the list holding many of their words from the web).
On another language's page it would call ``Ge-`` + ``burt`` a compound of two English words,
so there the page's evidence decides alone."""

SHORT_HEAD = 2
"""A first part this short (``be-``, ``re-``: the fragment a hyphenation most often leaves,
rarely a compound's head) gives the joined word half a Zipf unit more."""

_HYPHEN_ENDS = tuple(HYPHENS)
_BREAK_ENDS = (*_HYPHEN_ENDS, SOFT_HYPHEN)
_START = re.compile(r"[^\W\d_]+")
_WORD = re.compile(r"[^\W\d_]+(?:[-\u2010][^\W\d_]+)*")
_LINE_END = re.compile(r"[-\u2010][^\S\n]*$", re.MULTILINE)
"""A hyphen that ends its line (white-space after it aside)."""

try:  # the compiled build: the same words, cut by a loop in C instead of the pattern's matcher
    from glyphweave.layout._ctext import words as _page_words
except ImportError:  # a pure install: the reference

    def _page_words(text: str) -> list[str]:
        """The words of ``text`` (lower-cased by the caller): the pattern's matches."""
        return _WORD.findall(text)

Frequency = Callable[[str], float]
"""A word's Zipf frequency (0.0: unknown), the word lower-cased."""



def dehyphenate(text: str, mode: str = "auto", frequency: Frequency | None = None) -> str:
    """``text`` (a page's lines) with soft hyphens gone and line-end hyphens resolved as the
    module docstring says. ``frequency`` is the word list (None: the page's evidence only;
    a candidate it says nothing about joins)."""
    if SOFT_HYPHEN not in text and ("-\n" not in text and "\u2010\n" not in text or mode == "off"):
        return text
    lines = text.split("\n")
    evidence = _Evidence(text) if mode == "auto" else None
    if evidence is not None and frequency is not None:
        frequency = _Fitting(frequency, evidence)
    # Only a line that ends in a hyphen can change (the rest lose their soft hyphens, all at
    # once at the end): the walk goes from one to the next and copies the lines between.
    # Joining never changes how a line ends (what is left of the next line ends as it did),
    # and a line taken whole into the one before is passed over, so the ends found first
    # stay true. (A loop over every line cost a book page a fifth of its dehyphenation.)
    out: list[str] = []
    count = len(lines)
    i = 0
    for k in [k for k, line in enumerate(lines) if line.endswith(_BREAK_ENDS)]:
        if k < i:
            continue  # taken into the line before
        out += lines[i:k]
        line = lines[k]
        j = k + 1  # the next line not yet taken
        while mode != "off" and line.endswith(_BREAK_ENDS) and j < count and lines[j].strip():
            nxt = lines[j]
            verdict = True if line.endswith(SOFT_HYPHEN) else _candidate(line, nxt, mode, evidence, frequency)
            if verdict is None:
                break
            # Joined, the producer's hyphen goes; kept, it is the word's own and the word is
            # still one (``round-the-`` + ``clock``): its second part comes up all the same.
            line, rest = _join(line[:-1] if verdict else line, nxt)
            if rest:
                lines[j] = rest
                break
            j += 1  # the line was that one word: the next may continue it
        if line.endswith(SOFT_HYPHEN):
            line = line[:-1] + "-"  # not joined: the hyphen the page draws
        out.append(line)
        i = j
    out += lines[i:]
    joined = "\n".join(out)
    return joined.replace(SOFT_HYPHEN, "") if SOFT_HYPHEN in joined else joined


def _candidate(line: str, nxt: str, mode: str, evidence: _Evidence | None,
               frequency: Frequency | None) -> bool | None:
    """Whether ``line`` ends in a hyphen that the producer put into a word continued by
    ``nxt`` (True), in a word's own hyphen at a line break (False), or in neither (None)."""
    head = _last_word(line)
    if not head:
        return None
    start = _START.match(nxt.lstrip())
    if start is None or not start.group()[0].islower():
        return None
    return mode == "all" or _joins(head, line[-1], start.group(), evidence, frequency)


def _last_word(line: str) -> str:
    """The letters right before the hyphen ``line`` ends with ("" when none, or no hyphen).
    Read backwards: a regex anchored at the end tries every start in the line (a book page
    paid 0.2 ms for it)."""
    if not line.endswith(_HYPHEN_ENDS):
        return ""
    start = end = len(line) - 1
    while start and line[start - 1].isalpha():
        start -= 1
    return line[start:end]


def _join(head: str, nxt: str) -> tuple[str, str]:
    """``head`` (the line without its hyphen) with the first word of ``nxt`` (up to the next
    space, its punctuation with it) moved up, and what is left of ``nxt``."""
    word, _space, rest = nxt.lstrip().partition(" ")
    return head + word, rest.lstrip()


class _Evidence:
    """What a page says about its own words and hyphens, read from the page's text when a
    candidate first asks (most pages with a line-end hyphen have no candidate)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._words: Counter[str] | None = None
        self.inner: set[str] = set()
        self.producer: set[str] = set()
        """Line-end hyphen characters never seen inside a word, on a page that has others."""

    @property
    def words(self) -> Counter[str]:
        """The page's words, lower-cased, and the parts of its hyphenated words, counted."""
        if self._words is None:
            self._words = self._read()
        return self._words

    def _read(self) -> Counter[str]:
        body, ends = _without_split_heads(self._text)
        # Neither a word nor an inner hyphen spans a line break: the page is searched at once.
        found = _page_words(body.lower())
        words = Counter(found)
        # A hyphen between two letters is inside one of the words found. (Looked for among
        # the distinct words, each compound's parts counted as often as it occurs: a page's
        # words repeat, and a test of each occurrence cost as much as counting them.)
        compounds = [word for word in words if "-" in word or "\u2010" in word]
        inner = {hyphen for hyphen in _HYPHEN_ENDS if any(hyphen in word for word in compounds)}
        if "\u2010" in inner:
            found = [word.replace("\u2010", "-") for word in found]
            words = Counter(found)
            words.update([part for word in found if "-" in word for part in word.split("-")])
        else:
            for word in compounds:
                times = words[word]
                for part in word.split("-"):
                    words[part] += times
        self.inner = inner
        self.producer = {h for h in ends if h not in inner} if inner else set()
        return words

    def says(self, head: str, hyphen: str, tail: str) -> bool | None:
        """True: join; False: keep; None: the page does not say."""
        words = self.words
        joined = words[(head + tail).lower()]
        kept = words[f"{head}-{tail}".lower()]
        if joined != kept:
            return joined > kept
        if hyphen in self.producer:
            return True
        if hyphen == "-" and self.producer and "-" in self.inner:
            return False
        return None


def _without_split_heads(page: str) -> tuple[str, set[str]]:
    """``page`` without the first parts of words split at line ends (no words: each goes
    with its hyphen and what follows it on its line), and the hyphen characters those
    lines end in. The line ends are found by their hyphen: a search from every letter, or a
    loop over the lines, costs a book page far more."""
    ends: set[str] = set()
    kept: list[str] = []
    done = 0
    for m in _LINE_END.finditer(page):
        end = start = m.start()
        while start and page[start - 1].isalpha():
            start -= 1
        if start < end:
            ends.add(page[end])
            kept.append(page[done:start])
            done = m.end()
    kept.append(page[done:])
    return "".join(kept), ends


class _Fitting:
    """The word list, asked first whether it knows the page's language (:data:`FIT`): only
    when a candidate needs it, so a page without one never loads the list. The test is
    made on the list's frequent words first (``frequent``): a page that most of them
    already cover fits, whatever the rest of the list holds."""

    def __init__(self, frequency: Frequency, evidence: _Evidence) -> None:
        self.frequency = frequency
        self.evidence = evidence
        self.fits: bool | None = None
        self._frequent: Frequency | None = getattr(frequency, "frequent", None)
        self.floor: float = getattr(frequency, "floor", 0.0) if self._frequent is not None else 0.0

    def _fitting(self) -> bool:
        if self.fits is None:
            words = [w for w in self.evidence.words if len(w) >= 3 and "-" not in w]
            need = FIT * len(words)
            count = getattr(self.frequency, "count_frequent", None)
            if count is not None:
                frequent_enough = count(words) >= need
            else:
                frequent_enough = self._frequent is not None and _enough(words, self._frequent, need)
            self.fits = bool(words) and (frequent_enough or _enough(words, self.frequency, need))
        return self.fits

    def __call__(self, word: str) -> float:
        return self.frequency(word) if self._fitting() else 0.0

    def frequent(self, word: str) -> float:
        if self._frequent is None:
            return self(word)  # a list of one size: its answers are exact (floor 0)
        return self._frequent(word) if self._fitting() else 0.0


def _enough(words: list[str], known: Frequency, need: float) -> bool:
    """Whether ``known`` knows at least ``need`` of ``words``, asking only until that is
    certain either way."""
    count = 0
    left = len(words)
    for word in words:
        if count >= need or count + left < need:
            break
        left -= 1
        if known(word):
            count += 1
    return count >= need


def _joins(head: str, hyphen: str, tail: str, evidence: _Evidence | None, frequency: Frequency | None) -> bool:
    """Whether ``head`` + hyphen + line break + ``tail`` is one word split by the producer."""
    if evidence is not None:
        said = evidence.says(head, hyphen, tail)
        if said is not None:
            return said
    if frequency is None:
        return True
    joined, head, tail = (head + tail).lower(), head.lower(), tail.lower()
    frequent = getattr(frequency, "frequent", None)
    if frequent is not None:
        # The frequent words first (a tenth of the list, read in a tenth of the time): their
        # verdict stands wherever the rarer words could not change it.
        verdict = _verdict(frequent(joined), frequent(head), frequent(tail), len(head),
                           getattr(frequency, "floor", 0.0))
        if verdict is not None:
            return verdict
    verdict = _verdict(frequency(joined), frequency(head), frequency(tail), len(head), 0.0)
    return True if verdict is None else verdict


def _verdict(joined: float, za: float, zb: float, head_length: int, floor: float) -> bool | None:
    """The word list's verdict on a candidate from the Zipf values of the joined word and the
    two parts (0.0: not in the list), or None when a list that holds only the words of
    ``floor`` or more cannot tell (0.0 there means "rarer than ``floor``", not "unknown")."""
    margin = MARGIN + (0.5 if head_length <= SHORT_HEAD else 0.0)
    if joined:
        if not (za and zb):
            return True  # a part rarer than a joined word this common, or no word at all: join
        return joined >= min(za, zb) - margin
    if not floor:
        return not (za and zb)
    if za and zb and min(za, zb) - margin >= floor:
        return False  # a joined word rarer than the floor loses to two parts this common
    return None


class WordList:
    """Zipf word frequencies of one language from wordfreq, loaded on first use (a page with
    no candidate never loads it); a language wordfreq lacks, or wordfreq missing, is an
    empty list (the page's evidence still applies).

    wordfreq ships two lists per language: a small one (the words of Zipf 3 or more, about
    30,000 for English, read in 15 ms) and a large one (Zipf 1 or more, 320,000 words, read
    in a quarter of a second). :meth:`frequent` answers from the small one, a call from the
    large one; dehyphenation asks the small one first and the large one only when rarer
    words could change its verdict, so most documents never read the large list."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __call__(self, word: str) -> float:
        table = _frequencies(self.language)
        if table is None:
            return 0.0
        return table.get(word, 0.0)

    def frequent(self, word: str) -> float:
        """``word``'s Zipf value among the frequent words (0.0: rarer than :attr:`floor`)."""
        table = _frequencies(self.language, "small")
        if table is None:
            return self(word)
        return table.get(word, 0.0)

    def count_frequent(self, words: list[str]) -> int:
        """How many of ``words`` :meth:`frequent` knows (the page's fitness test asks this of
        every word of a page: counted at C speed where the list is a dictionary)."""
        table = _frequencies(self.language, "small")
        if isinstance(table, dict):
            return sum(map(table.__contains__, words))
        if isinstance(table, HashedList):
            return table.count(words)
        return sum(1 for word in words if self.frequent(word))

    @property
    def floor(self) -> float:
        """The Zipf value below which :meth:`frequent` knows no word (0.0 when it answers
        from the full list)."""
        return _floor(self.language)

    def available(self) -> bool:
        return _frequencies(self.language) is not None


@lru_cache(maxsize=8)
def _frequencies(language: str, size: str = "large") -> dict[str, float] | PackedList | HashedList | None:
    """Zipf frequencies of ``language`` from wordfreq's ``size`` list ("large", falling back
    to "small" where a language has no large one), or None.

    Read from wordfreq's data file itself where it can be: importing wordfreq costs half a
    second (its tokenizers pull in regex, langcodes and ftfy), reading the file a tenth of
    that, and a process extracting one paper would pay the difference on its first split word.
    Both lists come from the cache of :mod:`.wordcache` where they are there (the large one
    in a few milliseconds instead of a quarter of a second, the small one in half its
    time, or in the compiled build as a hash table mapped from the file in no time), and are
    put there when they are not.
    """
    if not language:
        return None
    path = _pack_path(language, size)
    if path is None:
        return _frequencies_from_api(language, size)
    name = f"wordfreq-{path.name.split('.')[0]}"
    if not path.name.startswith("large_"):
        if hashed_native():
            # The compiled build looks words up in C: a hash table mapped from the cache
            # answers as the dictionary does, without the 5 ms of making that dictionary.
            hashed = cached_hashed(name, path)
            if hashed is not None:
                return hashed
            small = _read_pack_file(path)
            if small is not None:
                return cached_hashed(name, path, small) or _buckets_table(small)
        return cached_table(name, path, lambda: _table(path, language, size))
    cached = cached_list(name, path)
    if cached is not None:
        return cached
    pack = _read_pack_file(path)
    if pack is None:
        return _frequencies_from_api(language, size)
    packed = cached_list(name, path, pack)
    if packed is not None:
        return packed
    return _buckets_table(pack)


def _table(path: Path, language: str, size: str) -> dict[str, float] | None:
    """The list of wordfreq's file ``path`` as a dictionary (through wordfreq's own reader
    when the file is not as expected)."""
    pack = _read_pack_file(path)
    return _frequencies_from_api(language, size) if pack is None else _buckets_table(pack)


def _buckets_table(pack: list[list[str]]) -> dict[str, float]:
    table: dict[str, float] = {}
    for index, bucket in enumerate(pack):
        if bucket:  # bucket i holds the words of frequency 10 ** (-i / 100), as wordfreq computes it
            table.update(dict.fromkeys(bucket, zipf(index)))
    return table


@lru_cache(maxsize=8)
def _floor(language: str) -> float:
    """The lowest Zipf value of ``language``'s small list (0.0 without one)."""
    table = _frequencies(language, "small")
    if isinstance(table, HashedList):
        return table.lowest()
    return min(table.values(), default=0.0) if isinstance(table, dict) else 0.0


def _pack_path(language: str, size: str = "large") -> Path | None:
    """wordfreq's data file of ``language``'s ``size`` list (a large list falls back to the
    small one), found without importing wordfreq; None when there is none."""
    import importlib.util

    spec = importlib.util.find_spec("wordfreq")  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        return None
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    for name in (size, "small") if size == "large" else (size,):
        path = data / f"{name}_{language}.msgpack.gz"
        if path.is_file():
            return path
    return None


def _read_pack(language: str, size: str = "large") -> list[list[str]] | None:
    """wordfreq's ``size`` word list of ``language`` as stored (see :func:`_read_pack_file`),
    or None."""
    path = _pack_path(language, size)
    return None if path is None else _read_pack_file(path)


def _read_pack_file(path: Path) -> list[list[str]] | None:
    """A wordfreq data file's buckets: a gzipped msgpack list whose first item is a
    ``{"format": "cB", "version": 1}`` header and whose item ``i + 1`` holds the words of -i
    centibels. None when it cannot be read so."""
    import gzip

    try:
        import msgpack

        with gzip.open(path, "rb") as file:
            pack = msgpack.load(file, raw=False)
    except Exception:  # another layout or format: wordfreq's own reader answers
        return None
    header = pack[0] if isinstance(pack, list) and pack else None
    if not isinstance(header, dict) or header.get("format") != "cB" or header.get("version") != 1:
        return None
    return pack[1:]


def _frequencies_from_api(language: str, size: str = "large") -> dict[str, float] | None:
    """:func:`_frequencies` through wordfreq's own functions (slower to import)."""
    try:
        import wordfreq
    except ImportError:
        return None
    if language not in wordfreq.available_languages():
        return None
    wordlist = "best" if size == "large" else size  # "best": the large list where there is one
    return {word: math.log10(f) + 9.0 for word, f in wordfreq.get_frequency_dict(language, wordlist).items() if f}
