"""Conservative, deterministic repair of OCR noise in the ``ocr_noisy`` regulation texts.

Only ``corpus/regulations/<id>/text.txt`` of documents whose metadata says ``"ocr_noisy": true`` is
changed, except by the ``split``, ``joined`` and ``unmarked`` rules (every text); ``source.md`` is never
touched.
Rules, each applied only when the evidence is unambiguous:

``word``
    A token that is not in the vocabulary of the *clean* corpus texts (documents without ``ocr_noisy``) is
    replaced when exactly one vocabulary word is reachable from it by OCR-confusion substitutions (at most
    two of rn/m, m/ru, r/u, l/i/1, 0/o, u/n, cl/d, li/h, t/l, 5/s, 2/z, e/c, h/b, q/a, i/j, ...; or one
    substitution plus one inserted or deleted letter) and that word occurs at least ``--floor`` times in
    the clean texts.  Case is kept (lower, Title, UPPER).  Short tokens (< 4 characters), short upper-case
    abbreviations and capitalised tokens whose candidate is never capitalised in the clean texts (proper
    names) are left alone.
``ayat``
    Ayat markers misread as ``(21``, ``(U``, ``(l)``, ``(a)``: an ayat heading is rewritten only when the
    previous marker of the same Pasal is n-1 (or the Pasal heading, for n = 1) and the next one is n+1 (or
    the end of the Pasal), a misread neighbour counting by what it may stand for; a heading OCR ran into the
    previous sentence (``... jangka waktu tertentu. {21 Tarif ...``) is also put onto its own line; a
    reference ``ayat (21`` / ``ayat (U`` becomes ``ayat (2)`` / ``ayat (1)`` only when the document has no
    ayat heading (21) / (11) that it could mean instead.
``pasal``
    ``Pasal 6O`` / ``Pasal L7`` / ``Pasal 2l``: letters read for digits (O/o -> 0, L/l/I -> 1) in a Pasal
    number that contains a digit (Roman ``Pasal II`` is never touched), when the corrected Pasal is a heading
    of this document or of a clean document.
``columns``
    A line that starts with a run of ayat markers OCR read apart from their text (the markers stood in a
    column beside the ayat): ``(3) (3a) (41 (s) (6) (7t Keberatan harus diajukan ... . Dalam hal ... .``.  The
    run is rewritten as one marker before each sentence (``(3) Keberatan ... (3a) Dalam hal ...``) only when
    the markers, read with OCR confusions, are consecutive ayat numbers and the text after them has exactly
    as many sentences as there are markers; the line stays one line.
``unmarked``
    A Pasal whose ayat markers the text layer printed apart from their text (at a page's foot, above the
    Pasal heading) and none before its ayat: one marker before each sentence when the sentences are exactly
    as many as its ayat (named by its elucidation, printed apart, or proved by its citations of its own ayat)
    and every "pada ayat (n)" then stands in a later ayat. Every regulation text, OCR'd or not.
``digits``
    A number with the letter O read for a zero (``2O tahun``, ``3OO``, ``2oo7``): a digit first, then only
    digits and O/o, not inside a word, an amount or a decimal.
``amount``
    A Rupiah amount or percentage followed by its spelled-out words (``(empat miliar delapan ratus juta
    rupiah)``, ``(nol koma lima persen)``): the numeral is mapped (O/o -> 0, l/I/i/L -> 1, a -> 4, S/s -> 5,
    B -> 8, Z/z -> 2) and rewritten in the standard form (``Rp4.800.000.000,00``) only if its value equals
    the value of the words.

``split``
    A word the PDF text layer split in two (``s ebesar``, ``be rupa``, ``Men teri``), in *every* regulation
    text, not only the OCR'd ones (the born-digital PMK 51/2025 and 54/2025 hold over a hundred each). The
    pieces are joined when the joined word is a word of the clean texts, occurs at least ``SPLIT_FLOOR``
    times in at least ``SPLIT_DOCS`` documents and ``SPLIT_RATIO`` times as often as the pair written apart
    ("di luar" is two words), the first piece has at most four letters, one of the pieces is hardly a word
    of its own (fewer than ``SPLIT_FLOOR`` occurrences outside such pairs), and the pair is not one the acts
    write apart (``APART``: "batu bara", "olah raga"). A compound whose hyphen was spaced from its first part
    ("perundang -undangan", "barang -barang") is closed up in a text that does so at least
    ``SPACED_HYPHEN_FLOOR`` times.

``joined``
    Two words the PDF text layer ran together (``biayajabatan``, ``ratusjuta``), in every regulation text:
    written apart when the token occurs at most ``JOINED_MAX`` times in the corpus and exactly one split
    gives two common words the corpus writes apart (with a space or a hyphen, as it writes them) far more
    often.
``header``
    The page header ``PRESIDEN REPUBLIK INDONESIA -29-`` an OCR'd act's text layer ran into a sentence
    (``FRES IDEN REPUBLIK INDONESIA -29-``, ``REPUEUK INDONESIA``): removed when it carries a page number or
    its words are misread; the act's own "PRESIDEN REPUBLIK INDONESIA," stays.

Every change is logged in ``corpus/regulations/<id>/ocr_repairs.tsv`` (line, before, after, rule) and
counted in ``metadata.json`` (``normalisation.steps`` / ``normalisation.counts`` / ``sizes.text_chars``).
The passes are repeated until nothing changes, so a second run changes nothing.

Usage::

    .venv/bin/python scripts/ocr_repair.py --dry-run            # counts per document and sample changes
    .venv/bin/python scripts/ocr_repair.py --doc pp-55-2022     # repair one document
    .venv/bin/python scripts/ocr_repair.py                      # repair all ocr_noisy documents
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REGULATIONS = ROOT / "corpus" / "regulations"
STEP = (
    "OCR repair (scripts/ocr_repair.py, only where ocr_noisy): words with exactly one clean-corpus "
    "vocabulary candidate under OCR confusions, ayat markers confirmed by their sequence, Pasal numbers "
    "with letters read for digits, Rp/percent numerals confirmed by their spelled-out words; every change "
    "in ocr_repairs.tsv"
)
RULES = ("word", "ayat", "pasal", "amount", "columns", "split", "unmarked", "joined", "header", "digits")
UNMARKED_STEP = (
    "ayat markers printed apart (scripts/ocr_repair.py rule unmarked): a Pasal whose ayat markers the text "
    "layer printed apart from their text gets one before each sentence when its sentences are exactly as "
    "many as its ayat (named by its elucidation, printed apart, or proved by its citations of its own ayat); "
    "every change in ocr_repairs.tsv"
)
SPLIT_STEP = (
    "split-word repair (scripts/ocr_repair.py rule split): a word the PDF text layer split in two joined "
    "when the joined word is a corpus word and the pieces are not; every change in ocr_repairs.tsv"
)
JOINED_STEP = (
    "joined-word repair (scripts/ocr_repair.py rule joined): two words the PDF text layer ran together "
    '("biayajabatan") written apart as the corpus writes them; every change in ocr_repairs.tsv'
)
HEADER_STEP = (
    "page-header repair (scripts/ocr_repair.py rule header): the OCR'd page header \"PRESIDEN REPUBLIK "
    'INDONESIA -29-" the text layer ran into a sentence removed; every change in ocr_repairs.tsv'
)
#: the joined word must occur this often, in this many documents; a second piece this frequent alone is a word
SPLIT_FLOOR = 5
SPLIT_DOCS = 3
#: ... and be written whole at least this many times as often as apart
SPLIT_RATIO = 3
#: pairs the acts write apart although the joined form is a word too (read from the corpus texts)
APART = frozenset(
    {
        ("batu", "bara"),
        ("olah", "raga"),
        ("non", "migas"),
        ("di", "mana"),
        ("mana", "pun"),
        ("apa", "pun"),
        ("di", "sini"),
        ("di", "samping"),
        ("bea", "siswa"),
    }
)
#: a first piece of one to four letters, a space, a lower-case rest (not after a letter, hyphen or slash)
#: (the rest is looked ahead, not consumed: in "atas ke giatan" the pair "atas ke" must not hide "ke giatan")
SPLIT_PAIR_RE = re.compile(r"(?<![A-Za-z\-/])([A-Za-z]{1,4}) (?=([a-z]{2,})(?![A-Za-z]))")
#: a compound whose hyphen the PDF text layer spaced from its first part ("perundang -undangan")
SPACED_HYPHEN_RE = re.compile(r"(?<![A-Za-z])([A-Za-z]{2,}) -([A-Za-z]{2,})(?![A-Za-z])")
#: ... closed up only in a text where that is the layer's habit: a lone " -" in an OCR'd act is a stray mark
#: ("dikurangi -dengan"), which closing up would make a word of
SPACED_HYPHEN_FLOOR = 5
TSV_HEADER = "line\tbefore\tafter\trule\n"

WORD_RE = re.compile(r"[A-Za-z]+")
# a candidate noisy token: starts with a letter (or the backslash read for "u"), may hold letters/digits/\
TOKEN_RE = re.compile(r"(?<![\w\\€])[A-Za-z\\][A-Za-z0-9\\]*(?![\w\\€])")

SENTENCE_START_RE = re.compile(r"(?:^|[.:;!?]|^\(\d+\)|^[a-z0-9]{1,3}\.)\s*[\"“(]?$")
# OCR confusions on the lower-cased token: (what was read, what it probably was)
SUBSTITUTIONS: tuple[tuple[str, str], ...] = (
    ("rn", "m"),
    ("m", "rn"),
    ("m", "ru"),
    ("nr", "ru"),
    ("rr", "n"),
    ("rr", "u"),
    ("l", "i"),
    ("i", "l"),
    ("1", "l"),
    ("1", "i"),
    ("0", "o"),
    ("u", "n"),
    ("n", "u"),
    ("cl", "d"),
    ("d", "cl"),
    ("li", "h"),
    ("h", "li"),
    ("t", "l"),
    ("5", "s"),
    ("2", "z"),
    ("e", "c"),
    ("c", "e"),
    ("h", "b"),
    ("b", "h"),
    ("\\", "u"),
    ("\\r", "u"),
    ("l", "u"),
    ("4", "a"),
    ("q", "a"),
    ("q", "u"),
    ("i", "j"),
    ("j", "i"),
    ("r", "i"),
    ("5r", "y"),
    ("sr", "y"),
    ("jr", "y"),
    ("lr", "u"),
    ("ll", "u"),
    ("r", "u"),
)
JUNK_TAIL = "l1"
TRIGRAM_FLOOR = 2  # a trigram seen in fewer clean words than this marks a token as misread
MIN_WORD_LEN = 4
MAX_ABBREV_LEN = 5  # an all-capitals token this short may be an abbreviation (CPO, BPIH, PPAT)


@dataclass(frozen=True)
class Change:
    line: int  # 1-based
    before: str
    after: str
    rule: str


@dataclass
class Vocabulary:
    """Lower-cased word frequencies of the clean texts, plus the words seen capitalised."""

    freq: Counter[str] = field(default_factory=Counter)
    capitalised: set[str] = field(default_factory=set)
    pasal: set[str] = field(default_factory=set)  # Pasal numbers that are headings of some clean text
    trigrams: Counter[str] = field(default_factory=Counter)  # in how many distinct words each trigram occurs

    def finish(self) -> None:
        self.trigrams = Counter(t for w in self.freq for t in set(trigrams(w)))

    def looks_misread(self, token: str) -> bool:
        """Evidence that an unknown token is OCR noise rather than a real word missing from the clean texts:
        a digit, a backslash, a capital I inside a lower-case word, or a letter trigram (with word
        boundaries) that hardly any clean word has."""
        if any(c.isdigit() or c == "\\" for c in token):
            return True
        if "I" in token[1:] and any(c.islower() for c in token):
            return True
        return any(self.trigrams[t] < TRIGRAM_FLOOR for t in trigrams(token.lower()))

    def add_text(self, text: str) -> None:
        for w in WORD_RE.findall(text):
            low = w.lower()
            self.freq[low] += 1
            if w[0].isupper():
                self.capitalised.add(low)
        self.pasal.update(m.group(1) for m in PASAL_HEADING_RE.finditer(text))


# ------------------------------------------------------------------------------------------------ words


def trigrams(word: str) -> list[str]:
    padded = f"^{word}$"
    return [padded[i : i + 3] for i in range(len(padded) - 2)]


def _substitutions(word: str) -> Iterable[str]:
    for src, dst in SUBSTITUTIONS:
        start = word.find(src)
        while start >= 0:
            yield word[:start] + dst + word[start + len(src) :]
            start = word.find(src, start + 1)


def _deletions(word: str) -> Iterable[str]:
    """Junk read at a word's edge: a trailing bracket read as l/1, a leading bullet read as o."""
    if word[-1] in JUNK_TAIL and word[-2] not in "aiueo":
        yield word[:-1]
    if word[0] == "o" and len(word) > 5:
        yield word[1:]


def candidates(token: str, vocab: Vocabulary) -> set[str]:
    """Vocabulary words reachable from ``token`` by <= 2 confusion substitutions or one edge deletion."""
    low = token.lower()
    one = set(_substitutions(low))
    two = {v for w in one for v in _substitutions(w)}
    reach = one | two
    if len(low) >= 5:
        reach.update(_deletions(low))
    reach.discard(low)
    return {w for w in reach if w in vocab.freq}


def _case_like(token: str, word: str) -> str:
    letters = [c for c in token if c.isalpha()]
    if not letters:
        return word
    upper = sum(c.isupper() for c in letters[1:])
    if letters[0].isupper() and len(letters) > 1 and upper * 2 > len(letters) - 1:
        return word.upper()
    if letters[0].isupper() or (token[0] == "\\" and len(letters) > 0 and letters[0].isupper()):
        return word[0].upper() + word[1:]
    return word


def repair_word(token: str, vocab: Vocabulary, floor: int, sentence_start: bool = True) -> str | None:
    """The repaired token, or None to leave it as it is.  ``sentence_start``: whether a capital is expected
    (a capital I read for a lower-case l is lowered inside a sentence)."""
    low = token.lower()
    if low in vocab.freq or len(token) < MIN_WORD_LEN:
        return None
    if sum(c.isdigit() for c in token) > 1 or not any(c.isalpha() for c in token):
        return None
    letters = [c for c in token if c.isalpha()]
    if all(c.isupper() or c in "li" for c in letters) and len(token) <= MAX_ABBREV_LEN:
        return None
    if not vocab.looks_misread(token):
        return None
    found = {w for w in candidates(token, vocab) if vocab.freq[w] >= floor}
    if len(found) != 1:
        return None
    (word,) = found
    out = _case_like(token, word)
    if token[0] == "I" and word[0] == "l" and not out.isupper() and not sentence_start:
        return word
    if out[0].isupper() and not out.isupper() and word not in vocab.capitalised:
        return None  # a capitalised unknown word is probably a name unless the candidate is capitalised too
    if out.isupper() and len(out) > 1 and word not in vocab.capitalised:
        return None
    return out


def repair_words(lines: list[str], vocab: Vocabulary, floor: int) -> list[Change]:
    changes: list[Change] = []
    cache: dict[tuple[str, bool], str | None] = {}
    for i, line in enumerate(lines):

        def sub(m: re.Match[str], i: int = i, line: str = line) -> str:
            tok = m.group(0)
            start = SENTENCE_START_RE.search(line[: m.start()]) is not None
            if (tok, start) not in cache:
                cache[tok, start] = repair_word(tok, vocab, floor, start)
            new = cache[tok, start]
            if new is None or new == tok:
                return tok
            head = line[: m.start()]
            if new.lower() == tok[:-1].lower() and head.count("(") > head.count(")"):
                new += ")"  # the junk letter was the bracket closing "(tax haven country)"
            changes.append(Change(i + 1, tok, new, "word"))
            return new

        lines[i] = TOKEN_RE.sub(sub, line)
    return changes


# ------------------------------------------------------------------------------------------ Pasal numbers

PASAL_HEADING_RE = re.compile(r"^Pasal (\d+[A-Z]?)\s*$", re.M)
PASAL_NUM_RE = re.compile(r"\b(Pasal )([0-9OoLlI]*[0-9][0-9OoLlI]*|[Ll][0-9OoLlI]+)(?![A-Za-z0-9])")
PASAL_DIGITS = str.maketrans({"O": "0", "o": "0", "L": "1", "l": "1", "I": "1"})


def repair_pasal(lines: list[str], vocab: Vocabulary) -> list[Change]:
    own = {m.group(1) for m in PASAL_HEADING_RE.finditer("\n".join(lines))}
    known = own | vocab.pasal
    changes: list[Change] = []
    for i, line in enumerate(lines):

        def sub(m: re.Match[str], i: int = i) -> str:
            num = m.group(2)
            if num.isdigit():
                return m.group(0)
            fixed = num.translate(PASAL_DIGITS)
            if not fixed.isdigit() or fixed.startswith("0") or fixed not in known:
                return m.group(0)
            changes.append(Change(i + 1, m.group(0), m.group(1) + fixed, "pasal"))
            return m.group(1) + fixed

        lines[i] = PASAL_NUM_RE.sub(sub, line)
    return changes


# ------------------------------------------------------------------------------------------- ayat markers

# a marker at a heading position: line start, right after a Pasal heading, or after a sentence end
HEAD_PREFIX = (
    r"(?:^|(?<=[.;:] )|(?<=\bPasal \d) |(?<=\bPasal \d\d) |(?<=\bPasal \d\d\d) |(?<=\bPasal \d[A-Z]) )"
)
# "l2l": both brackets read as "l" (PP 44/2022 Pasal 26 "... serta Pasal 24. l2l Faktur Pajak yang ...")
MARKER = (
    r"(?:[\(\{]|(?<![\w(])l(?=[1-9]l ))"
    r"(?P<inner>\d{1,2}\)|[1-9][1lI]|U\)?|[lI]\)?|a\))(?= [A-Z])"
)
HEAD_MARKER_RE = re.compile(HEAD_PREFIX + MARKER)
INLINE_PASAL_RE = re.compile(
    r"(?:^|(?<=[.;:] ))Pasal (\d+[A-Z]?)(?=\s*$| [\(\{])"
    r"|\bPasal (\d+[A-Z]?)(?= [\(\{](?:1\)|U\)?|[lI]\)) [A-Z])"
)
REF_MARKER_RE = re.compile(r"(?<=\b[Aa]yat )[\(\{](?P<inner>[1-9][1lI]|U)(?=[\s,.;:])")


def _marker_values(inner: str) -> tuple[int, ...]:
    """Numbers a (possibly misread) ayat marker may stand for; a well-formed one has exactly one."""
    if inner.endswith(")") and inner[:-1].isdigit():
        return (int(inner[:-1]),)
    if inner[0] in "UlI":
        return (1,)
    if inner == "a)":
        return (4,)
    return (int(inner[0]),)  # "21" read for "2)"


def repair_ayat(lines: list[str]) -> list[Change]:
    # events in text order: ("pasal", None) or ("ayat", marker)
    events: list[tuple[str, int, int, int, str]] = []  # kind, line, start, end, inner
    for i, line in enumerate(lines):
        spots: list[tuple[int, str, int, str]] = []
        for m in INLINE_PASAL_RE.finditer(line):
            spots.append((m.start(), "pasal", m.end(), ""))
        for m in HEAD_MARKER_RE.finditer(line):
            start = m.start("inner") - 1
            spots.append((start, "ayat", start + 1 + len(m.group("inner")), m.group("inner")))
        if re.match(r"^(BAB|Bagian|Paragraf) ", line):
            spots.append((0, "pasal", 0, ""))
        for start, kind, end, inner in sorted(spots):
            events.append((kind, i, start, end, inner))

    full = "\n".join(lines)
    changes: list[Change] = []
    edits: list[tuple[int, int, int, str]] = []  # line, start, end, replacement
    for k, (kind, i, start, end, inner) in enumerate(events):
        if kind != "ayat":
            continue
        text = lines[i][start:end]
        values = _marker_values(inner)
        well_formed = text.startswith("(") and inner.endswith(")") and inner[:-1].isdigit()
        if well_formed:
            continue
        # mid-line (after a sentence end, not after its Pasal heading) the heading OCR ran into the previous
        # sentence goes onto its own line: PP 55/2022 Pasal 56 "... jangka waktu tertentu. {21 Tarif ... 0,5%"
        # was quoted as ayat (1), which states no rate
        mid_line = start > 0 and not re.search(r"\bPasal \d+[A-Z]? $", lines[i][:start])
        prev = events[k - 1] if k > 0 else None
        nxt = events[k + 1] if k + 1 < len(events) else None

        def could_be(ev: tuple[str, int, int, int, str] | None) -> tuple[int, ...]:
            """The numbers a neighbouring marker may stand for: its own for a well-formed one, its readings
            for a misread one (two misread neighbours confirm each other: "Pasal 22 (l) . {21 ... (3)")."""
            if ev is None or ev[0] != "ayat":
                return ()
            return _marker_values(ev[4])

        for n in values:
            prev_ok = (n == 1 and prev is not None and prev[0] == "pasal") or n - 1 in could_be(prev)
            ends_pasal = nxt is None or nxt[0] == "pasal"
            next_ok = n + 1 in could_be(nxt) or (ends_pasal and n > 1)  # a lone "(1)" needs a (2) after it
            if prev_ok and next_ok:
                if mid_line:
                    edits.append((i, start - 1, end, f"\n({n})"))
                else:
                    edits.append((i, start, end, f"({n})"))
                break
    for i, start, end, rep in sorted(edits, reverse=True):
        before = lines[i][start:end]
        lines[i] = lines[i][:start] + rep + lines[i][end:]
        changes.append(Change(i + 1, before, rep, "ayat"))

    headings = {int(m.group(1)) for m in re.finditer(r"^\((\d{1,2})\) ", full, re.M)}
    for i, line in enumerate(lines):

        def sub(m: re.Match[str], i: int = i) -> str:
            inner = m.group("inner")
            n = 1 if inner == "U" else int(inner[0])
            if inner != "U" and n * 10 + 1 in headings:
                return m.group(0)  # "(21" could be a real ayat (21) missing its bracket
            if inner == "U" and 11 in headings:
                return m.group(0)
            changes.append(Change(i + 1, m.group(0), f"({n})", "ayat"))
            return f"({n})"

        lines[i] = REF_MARKER_RE.sub(sub, line)
    changes.sort(key=lambda c: c.line)
    return changes


# ------------------------------------------------------------------------------------------------ amounts

UNITS = {
    "nol": 0,
    "satu": 1,
    "dua": 2,
    "tiga": 3,
    "empat": 4,
    "lima": 5,
    "enam": 6,
    "tujuh": 7,
    "delapan": 8,
    "sembilan": 9,
}
SCALES = {"ribu": 10**3, "juta": 10**6, "miliar": 10**9, "milyar": 10**9, "triliun": 10**12}


def words_value(words: str) -> Decimal | None:
    """The value of Indonesian number words (``empat miliar delapan ratus juta``, ``nol koma lima``).

    Stricter than ``guardrails.verify.numbers.words_to_number`` on purpose: that one reads "ratus" alone as
    100 and "dua tiga" as 5, which must not confirm a repaired numeral of a legal text; here a malformed or
    OCR-garbled word sequence gives None."""
    parts = words.lower().split()
    if not parts:
        return None
    decimals = ""
    if "koma" in parts:
        k = parts.index("koma")
        tail = parts[k + 1 :]
        if not tail or any(w not in UNITS for w in tail):
            return None
        decimals = "".join(str(UNITS[w]) for w in tail)
        parts = parts[:k]
    total = group = 0
    pending: int | None = None
    for w in parts:
        if w in UNITS:
            if pending is not None:
                return None
            pending = UNITS[w]
        elif w in ("belas", "puluh", "ratus"):
            if pending is None:
                return None
            group += pending * {"belas": 1, "puluh": 10, "ratus": 100}[w] + (10 if w == "belas" else 0)
            pending = None
        elif w in ("sepuluh", "sebelas", "seratus"):
            if pending is not None:
                return None
            group += {"sepuluh": 10, "sebelas": 11, "seratus": 100}[w]
        elif w == "seribu":
            if pending is not None or group:
                return None
            total += 1000
        elif w in SCALES:
            group += pending or 0
            pending = None
            if not group:
                return None
            total += group * SCALES[w]
            group = 0
        else:
            return None
    total += group + (pending or 0)
    return Decimal(f"{total}.{decimals}") if decimals else Decimal(total)


NUMERAL_MAP = str.maketrans(
    {"O": "0", "o": "0", "l": "1", "I": "1", "i": "1", "L": "1", "a": "4", "S": "5", "s": "5", "B": "8"}
    | {"Z": "2", "z": "2"}
)
NUMERAL_CHARS = "0-9OolIiLaSsBZz"
RUPIAH_RE = re.compile(
    rf"(?<![A-Za-z])Rp(?P<sep>\.? ?)(?P<num>[{NUMERAL_CHARS}][{NUMERAL_CHARS}.,]*?)"
    rf"(?P<dec>,[{NUMERAL_CHARS}]{{2}})?"
    r"(?P<rest> ?\((?P<words>[a-z ]+?) rupiah\))"
)
PERCENT_RE = re.compile(
    rf"(?<![A-Za-z0-9])(?P<num>[{NUMERAL_CHARS}][{NUMERAL_CHARS},]*?)"
    r"(?P<rest> ?% ?\((?P<words>[a-z ]+?) persen\))"
)


def _rupiah(value: int) -> str:
    return f"{value:,}".replace(",", ".")


def repair_amounts(lines: list[str]) -> list[Change]:
    changes: list[Change] = []
    for i, line in enumerate(lines):

        def rp(m: re.Match[str], i: int = i) -> str:
            value = words_value(m.group("words"))
            num, dec = m.group("num"), m.group("dec") or ""
            if value is None or value != int(value) or not any(c.isdigit() for c in num + dec):
                return m.group(0)
            digits = num.translate(NUMERAL_MAP).replace(".", "").replace(",", "")
            if not digits.isdigit() or int(digits) != value:
                return m.group(0)
            if dec and dec[1:].translate(NUMERAL_MAP) != "00":
                return m.group(0)
            new_num = _rupiah(int(value)) + (",00" if dec else "")
            if new_num == num + dec:
                return m.group(0)
            before = f"Rp{m.group('sep')}{num}{dec}"
            after = f"Rp{m.group('sep')}{new_num}"
            changes.append(Change(i + 1, before, after, "amount"))
            return after + m.group("rest")

        def pct(m: re.Match[str], i: int = i) -> str:
            value = words_value(m.group("words"))
            num = m.group("num")
            mapped = num.translate(NUMERAL_MAP)
            if value is None or mapped == num or not re.fullmatch(r"\d+(,\d+)?", mapped):
                return m.group(0)
            if Decimal(mapped.replace(",", ".")) != value:
                return m.group(0)
            changes.append(Change(i + 1, num + "%", mapped + "%", "amount"))
            return mapped + m.group("rest")

        line = RUPIAH_RE.sub(rp, line)
        lines[i] = PERCENT_RE.sub(pct, line)
    return changes


# ------------------------------------------------------------------------------------------------ columns

#: a line starting with two or more ayat markers before any text: "(3) (3a) (41 (s) (6) (7t Keberatan ..."
COLUMN_RUN_RE = re.compile(r"^(?P<run>(?:\([0-9OolISsT]{1,2}[a-z]?[\)\]1lt]?[ \t]+){2,})(?P<rest>[A-Z].*)$")
COLUMN_MARKER_RE = re.compile(r"\((?P<inner>[0-9OolISsT]{1,2}[a-z]?)(?P<close>[\)\]1lt]?)")
COLUMN_DIGITS = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "S": "5", "s": "5", "T": "7"})
SENTENCE_END_RE = re.compile(r"(?<=\.)[ \t]+(?=[A-Z])")
AYAT_VALUE_RE = re.compile(r"(\d{1,2})([a-z]?)")


def _ayat_readings(inner: str, close: str) -> list[tuple[int, str]]:
    """What a column marker can be: as read (letters for digits mapped), or with its last character taken
    for the closing bracket OCR misread ("(41" is "(4)", "(7t" is "(7)")."""
    texts = [inner]
    if not close and len(inner) > 1:
        texts.append(inner[:-1])
    out: list[tuple[int, str]] = []
    for t in texts:
        digits = len(t) - (1 if t[-1].isalpha() and t[-1].islower() and t[-1] not in "los" else 0)
        m = AYAT_VALUE_RE.fullmatch(t[:digits].translate(COLUMN_DIGITS) + t[digits:])
        if m:
            out.append((int(m.group(1)), m.group(2)))
    return out


def _next_ayat(cur: tuple[int, str]) -> set[tuple[int, str]]:
    n, letter = cur
    return {(n + 1, ""), (n, chr(ord(letter) + 1) if letter else "a")}


PREVIOUS_AYAT_RE = re.compile(r"(?:^|(?<=[.;:] ))\((\d{1,2}[a-z]?)\)[ \t]+(?=[A-Z])")
PASAL_LINE_RE = re.compile(r"^[ \t]*Pasal[ \t]+\d{1,3}[A-Z]?[ \t]*$")


def _previous_ayat(lines: list[str], i: int, look: int = 40) -> tuple[int, str] | None:
    """The last ayat marker before line ``i`` in its Pasal (None after its heading or when none is near)."""
    for j in range(i - 1, max(-1, i - 1 - look), -1):
        if PASAL_LINE_RE.match(lines[j]):
            return None
        found = PREVIOUS_AYAT_RE.findall(lines[j])
        if found:
            m = AYAT_VALUE_RE.fullmatch(found[-1])
            return (int(m.group(1)), m.group(2)) if m else None
    return None


def repair_columns(lines: list[str]) -> list[Change]:
    changes: list[Change] = []
    for i, line in enumerate(lines):
        m = COLUMN_RUN_RE.match(line)
        if m is None or m.group("rest").startswith("Pasal "):
            continue
        markers = [(c.group("inner"), c.group("close")) for c in COLUMN_MARKER_RE.finditer(m.group("run"))]
        first = [r for r in _ayat_readings(*markers[0]) if markers[0][1] == ")"]
        if len(first) != 1:
            continue
        before = _previous_ayat(lines, i)
        if first[0] not in (_next_ayat(before) if before else {(1, "")}):
            continue  # the run must continue the Pasal's ayat (an OCR'd "(6e)" for "(6g)" does not)
        values = [first[0]]
        for inner, close in markers[1:]:
            fits = [r for r in _ayat_readings(inner, close) if r in _next_ayat(values[-1])]
            if len(fits) != 1:
                break
            values.append(fits[0])
        sentences = SENTENCE_END_RE.split(m.group("rest").rstrip())
        if len(values) != len(markers) or len(sentences) != len(values):
            continue
        marked = zip(values, sentences, strict=True)
        after = " ".join(f"({n}{letter}) {sentence}" for (n, letter), sentence in marked)
        if after != line:
            changes.append(Change(i + 1, line, after, "columns"))
            lines[i] = after
    return changes


# ------------------------------------------------------------------------------------------------ unmarked

#: a Pasal heading on its own line and the number it gives (``Pasal 31A`` too; Roman ``Pasal I`` is no Pasal
#: of the act's own numbering)
UNMARKED_PASAL_RE = re.compile(r"^[ \t]*Pasal[ \t]+(\d{1,3})([A-Z]?)[ \t]*$")
#: the elucidation's title; the act's own Pasal end where it begins
ELUCIDATION_RE = re.compile(r"\bPENJELASAN\b")
#: an ayat heading the text already has (at a line start or after a sentence end), on any line of a Pasal
UNMARKED_HEAD_RE = re.compile(PREVIOUS_AYAT_RE.pattern, re.M)
#: a reference to an ayat of the same Pasal
OWN_REFERENCE_RE = re.compile(r"\bpada ayat \((\d{1,2})[a-z]?\)")
#: the elucidation's label of an ayat ("Ayat (3) Cukup jelas.")
ELUCIDATION_LABEL_RE = re.compile(r"\bAyat \((\d{1,2}[a-z]?)\)")
#: the Ministry of Finance's watermark on every page of a PP or PMK copy
WATERMARK_RE = re.compile(r"(?:www\.)?jdih\.kemenkeu\.go\.id")
#: one ayat marker printed apart from its text, as OCR may read it: "(2)", "(2t", "(2\\", "(s)", "(71"
LOOSE_MARKER = r"\([0-9OolISsT]{1,2}[a-z]?[\)\]\\1lt}]?"
#: what a page put between two ayat: the watermark and a run of ayat markers printed apart from their text
PAGE_MARKS = rf"(?:{WATERMARK_RE.pattern}[ \t]+|(?:{LOOSE_MARKER}[ \t]+)+)*"
#: where a sentence ends and the next begins with a word (the page's marks between them are kept apart); a
#: capital I read as "l" starts one too ("lmbalan bunga ...": no Indonesian word starts "lm" or "ln")
SENTENCE_START_AFTER_RE = re.compile(r"(?<=\.)(?P<gap>[ \t\n]+" + PAGE_MARKS + r")(?=[A-Z][a-z]|l[mn][a-z])")
#: a list label ends before that full stop ("a. Pemeriksaan", "2. Peraturan"), not a sentence
LIST_LABEL_RE = re.compile(r"(?:^|[\n:;]|\b(?:dan|atau))[ \t]*" + PAGE_MARKS + r"(?:[a-zA-Z]|\d{1,2})$")
#: a chapter, part or paragraph heading the text layer ran onto the Pasal's last line
TRAILING_HEADING_RE = re.compile(r"[ \t]+(?:BAB|Bagian|Paragraf)\b[^.]*$")
#: a run of ayat markers standing apart from any text ("(1) (2\ (3)", "(6) (7) (1) (2) (3)"), not a reference
LOOSE_MARKERS_RE = re.compile(
    r"(?<![\w)])(?<!\bayat )(?<!\bdan )(?<!\batau )(?<!, )" + rf"(?:{LOOSE_MARKER}(?:[ \t]+|$))+",
    re.M,
)
#: such a run ending a line (the next Pasal's markers printed at the foot of the page before it)
TRAILING_MARKERS_RE = re.compile(LOOSE_MARKERS_RE.pattern + r"\s*$")
#: ... and the number each marker of such a run stands for, read with OCR confusions (``COLUMN_DIGITS``)
LOOSE_MARKER_RE = re.compile(r"\(([0-9OolISsT]{1,2})")


def _elucidation_labels(lines: list[str], start: int) -> dict[str, list[str]]:
    """Pasal number -> the ayat labels its elucidation names, in order (first elucidation of that number)."""
    heads = [
        (i, m.group(1) + m.group(2))
        for i in range(start, len(lines))
        if (m := UNMARKED_PASAL_RE.match(lines[i]))
    ]
    labels: dict[str, list[str]] = {}
    for k, (i, number) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        found: list[str] = []
        for m in ELUCIDATION_LABEL_RE.finditer("\n".join(lines[i + 1 : end])):
            if m.group(1) not in found:
                found.append(m.group(1))
        if found:  # a heading OCR printed twice names its labels under the second copy
            labels.setdefault(number, found)
    return labels


def _sentence_gaps(body: str) -> list[re.Match[str]]:
    """The gaps between the body's sentences: a full stop, space and the page's marks before a capitalised
    word; a list label's full stop ("b. Pemeriksaan") is none."""
    return [
        m for m in SENTENCE_START_AFTER_RE.finditer(body) if not LIST_LABEL_RE.search(body[: m.start() - 1])
    ]


def _loose_marker_numbers(text: str) -> set[int]:
    """The numbers of the ayat markers the text prints apart from any ayat ("(1) (2\\ (3)" -> {1, 2, 3})."""
    numbers: set[int] = set()
    for run in LOOSE_MARKERS_RE.finditer(text):
        for m in LOOSE_MARKER_RE.finditer(run.group(0)):
            digits = m.group(1).translate(COLUMN_DIGITS)
            if digits.isdigit():
                numbers.add(int(digits))
    return numbers


def _printed_above(lines: list[str], i: int, heading: str) -> list[int]:
    """The lines above the heading at ``i`` that hold its markers printed apart: lines of nothing but markers,
    a copy of the heading OCR printed twice ("Pasal 7\\n(1) (2t\\nPasal 7"), and the run of markers ending the
    line before them ("(4) Ketentuan (1) (2) (3)\\nPasal 9")."""
    above: list[int] = []
    j = i - 1
    while j >= 0 and (lines[j].strip() == heading or LOOSE_MARKERS_RE.fullmatch(lines[j].strip() + " ")):
        above.append(j)
        j -= 1
    if j >= 0 and TRAILING_MARKERS_RE.search(lines[j]) and not UNMARKED_PASAL_RE.match(lines[j]):
        above.append(j)
    return above


def _references_fit(sentences: list[str]) -> bool:
    """Every "pada ayat (n)" stands in a later ayat than n (an ayat cites the ones before it)."""
    return all(int(n) < k for k, s in enumerate(sentences, 1) for n in OWN_REFERENCE_RE.findall(s))


def repair_unmarked(lines: list[str]) -> list[Change]:
    """Ayat markers the text layer printed apart from their ayat: ``"Pasal 5\\nWajib Pajak ... . Pembetulan
    ... . jdih.kemenkeu.go.id (6) (7) (1) (2) (3) Dalam hal ..."`` (PP 50/2022: a page's markers at its foot)
    or ``"(1) (2\\ (3)\\nPasal 2\\nAtas penghasilan ..."`` (PP 23/2018: above the heading).

    The chunker saw a Pasal without ayat, so its ayat were cited and retrieved as the whole Pasal. A Pasal
    whose body has no ayat heading but cites its own ayat ("sebagaimana dimaksud pada ayat (1)") gets one
    marker before each sentence when it has as many sentences as there are ayat: as many as its elucidation
    names (``Ayat (1)`` .. ``Ayat (n)``), or, where the elucidation names none, a number among the markers
    printed apart, or one more than the highest ayat it cites (those citations prove that many ayat, and an
    ayat is at least a sentence). Every "pada ayat (n)" must then stand in a later ayat than n. The markers
    printed apart go."""
    end = next((i for i, line in enumerate(lines) if i > 10 and ELUCIDATION_RE.search(line)), len(lines))
    labels = _elucidation_labels(lines, end)
    heads = [(i, m) for i in range(end) if (m := UNMARKED_PASAL_RE.match(lines[i]))]
    plans: list[tuple[int, list[int], list[str]]] = []  # decided on the text as read, then written
    previous: int | None = None
    for k, (i, head) in enumerate(heads):
        number = int(head.group(1))
        # a heading the text layer lost skips one; "Pasal 31A" after Pasal 3 is a reference on its own line
        in_sequence = previous is None or previous <= number <= previous + 2
        previous = number if in_sequence else previous
        stop = heads[k + 1][0] if k + 1 < len(heads) else end
        body = "\n".join(lines[i + 1 : stop])
        if not in_sequence or UNMARKED_HEAD_RE.search(body) or not OWN_REFERENCE_RE.search(body):
            continue
        trailing = TRAILING_HEADING_RE.search(body)
        told = body[: trailing.start()] if trailing else body
        gaps = _sentence_gaps(told)
        starts = [0, *(g.end() for g in gaps)]
        stops = [*(g.start() for g in gaps), len(told)]
        segments = [told[a:b] for a, b in zip(starts, stops, strict=True)]
        named = labels.get(head.group(1) + head.group(2), [])
        above = _printed_above(lines, i, head.group(0).strip())
        cited = max((int(n) for n in OWN_REFERENCE_RE.findall(body)), default=0)
        if named:
            fits = named == [str(n) for n in range(1, len(named) + 1)] and len(named) == len(segments)
        else:
            printed = _loose_marker_numbers("\n".join(lines[j] for j in above) + "\n" + body)
            fits = len(segments) in printed or cited + 1 == len(segments)
        if not fits or len(segments) < 2 or not _references_fit(segments):
            continue
        marked = ""
        for n, (segment, gap) in enumerate(zip(segments, [None, *gaps], strict=True), 1):
            if gap is not None:  # the watermark stays with the page it marks (kb.pages removes it)
                watermark = WATERMARK_RE.search(gap.group("gap"))
                breaks = gap.group("gap").count("\n")
                marked += (" " + watermark.group(0) if watermark else "") + ("\n" * breaks or "\u0000")
            marked += f"({n}) " + LOOSE_MARKERS_RE.sub("", segment)
        if trailing:  # a chapter or part heading the layer ran onto the last ayat goes onto its own line
            marked += "\u0000" + LOOSE_MARKERS_RE.sub("", body[len(told) :]).lstrip()
        new_lines = [
            re.sub(r"[ \t]+\u0000", "\u0000", x).replace("\u0000", "\n").rstrip() for x in marked.split("\n")
        ]
        plans.append((i, above, new_lines))
    changes: list[Change] = []
    for i, above, new_lines in plans:
        for j in above:  # the markers printed above the heading go too (a copy of the heading with them)
            if lines[j].strip() == lines[i].strip():
                cleaned = ""
            else:
                cleaned = TRAILING_MARKERS_RE.sub("", lines[j]).rstrip()
            if cleaned != lines[j]:
                changes.append(Change(j + 1, lines[j], cleaned, "unmarked"))
                lines[j] = cleaned
        for j, new in enumerate(new_lines, i + 1):
            if new != lines[j]:
                changes.append(Change(j + 1, lines[j], new, "unmarked"))
                lines[j] = new
    return sorted(changes, key=lambda c: c.line)


# ------------------------------------------------------------------------------------------------ digits

#: a number OCR read with the letter O for a zero ("2O tahun", "3OO", "2oo7"): a digit first, then digits and
#: O/o only, standing alone (not inside a word, an amount "Rp2O.000" or a decimal)
#: (a Pasal number or an ayat marker is the pasal and ayat rules', which check it against the headings)
DIGITS_RE = re.compile(r"(?<![\w.,/(])(?<!Pasal )\d[0-9]*[Oo][0-9Oo]*(?![\w])")


def repair_digits(lines: list[str]) -> list[Change]:
    """A number with the letter O read for a zero: PP 55/2022's depreciation table says "Bangunan Permanen
    2O tahun", which no time limit matched, so the table never answered how long a building is depreciated."""
    changes: list[Change] = []
    for i, line in enumerate(lines):

        def sub(m: re.Match[str], i: int = i) -> str:
            fixed = m.group(0).replace("O", "0").replace("o", "0")
            changes.append(Change(i + 1, m.group(0), fixed, "digits"))
            return fixed

        lines[i] = DIGITS_RE.sub(sub, line)
    return changes


# ------------------------------------------------------------------------------------------- joined words

#: a token seen at most this often in all the texts may be two words run together ...
JOINED_MAX = 2
#: ... each piece at least this long, this frequent, in this many documents ...
JOINED_PIECE_LEN = 3
JOINED_PIECE_FLOOR = 20
JOINED_DOCS = 3
#: ... and the pair written apart (space or hyphen) at least this often, in two documents, and
#: ``JOINED_RATIO`` times as often as the token
JOINED_PAIR_FLOOR = 5
JOINED_RATIO = 3
JOINED_MIN_LEN = 8
WORD_PAIR_RE = re.compile(r"(?<![A-Za-z])([A-Za-z]+)([ -])(?=([A-Za-z]+)(?![A-Za-z]))")


def _count_words(text: str, freq: Counter[str], docs: Counter[str]) -> list[str]:
    """The text's lower-cased words, counted into ``freq`` (occurrences) and ``docs`` (one per text): the
    corpus counts the ``split`` and ``joined`` rules both decide on."""
    words = [w.lower() for w in WORD_RE.findall(text)]
    freq.update(words)
    docs.update(set(words))
    return words


@dataclass(frozen=True)
class JoinEvidence:
    """Corpus counts the ``joined`` rule decides on (every regulation text, lower-cased words)."""

    freq: Counter[str]
    docs: Counter[str]
    apart: Counter[tuple[str, str, str]]  # (first, separator, second) as written apart
    apart_docs: Counter[tuple[str, str]]  # in how many documents a pair is written apart

    @classmethod
    def of(cls, texts: Iterable[str]) -> JoinEvidence:
        freq: Counter[str] = Counter()
        docs: Counter[str] = Counter()
        apart: Counter[tuple[str, str, str]] = Counter()
        apart_docs: Counter[tuple[str, str]] = Counter()
        for text in texts:
            _count_words(text, freq, docs)
            pairs = [
                (m.group(1).lower(), m.group(2), m.group(3).lower()) for m in WORD_PAIR_RE.finditer(text)
            ]
            apart.update(pairs)
            apart_docs.update({(a, b) for a, _, b in pairs})
        return cls(freq, docs, apart, apart_docs)

    def split(self, token: str) -> str | None:
        """``token`` written apart ("biayajabatan" -> "biaya jabatan", "pihakpihak" -> "pihak-pihak") when
        exactly one split point has the evidence, else None."""
        low = token.lower()
        if len(low) < JOINED_MIN_LEN or self.freq[low] > JOINED_MAX:
            return None
        found: list[tuple[int, str]] = []
        for i in range(JOINED_PIECE_LEN, len(low) - JOINED_PIECE_LEN + 1):
            first, second = low[:i], low[i:]
            if min(self.freq[first], self.freq[second]) < JOINED_PIECE_FLOOR:
                continue
            if min(self.docs[first], self.docs[second]) < JOINED_DOCS or self.apart_docs[first, second] < 2:
                continue
            spaced, hyphened = self.apart[first, " ", second], self.apart[first, "-", second]
            written = spaced + hyphened
            if written >= JOINED_PAIR_FLOOR and written >= JOINED_RATIO * self.freq[low]:
                found.append((i, "-" if hyphened > spaced else " "))
        if len(found) != 1:
            return None
        ((i, separator),) = found
        return token[:i] + separator + token[i:]


def repair_joined(lines: list[str], evidence: JoinEvidence) -> list[Change]:
    """Two words the PDF text layer ran together (PMK 168/2023's "biayajabatan", PP 50/2022's "ratusjuta"):
    the passage never matched a question's "biaya jabatan". Written apart when the token is rare in the
    corpus and exactly one split gives two common words the corpus writes apart far more often."""
    changes: list[Change] = []
    for i, line in enumerate(lines):

        def sub(m: re.Match[str], i: int = i) -> str:
            apart = evidence.split(m.group(0))
            if apart is None:
                return m.group(0)
            changes.append(Change(i + 1, m.group(0), apart, "joined"))
            return apart

        lines[i] = WORD_RE.sub(sub, line)
    return changes


# ------------------------------------------------------------------------------------------- page headers

#: "INDONESIA" as OCR read it, and the page number the header carries ("-29-", "_15_", "-2t-", "-31 -")
HEADER_TAIL_RE = re.compile(r"INDONES[I\]]A(?P<page>[ ]?[-_][ ]?\d[0-9A-Za-z]{0,2}[ ]?[-_](?![\w-]))?")
HEADER_WORDS = "PRESIDENREPUBLIK"
HEADER_SIMILARITY = 0.75
REPUBLIK_SIMILARITY = 0.65
HEADER_TOKEN_RE = re.compile(r"\S{1,10}$")
HEADER_TOKENS = 4  # "PRES I DEN REPUBLIK"


def _header_start(head: str) -> int | None:
    """Where the mangled "PRESIDEN REPUBLIK" before "INDONESIA" begins in ``head`` (the text before it), or
    None: of the last one to four tokens, the run whose letters read most like those words, if alike enough
    (the shorter run on a tie: in "MAHA ESA PRESIDEN REPUBLIK" two words are the header's), else the last
    token if it reads like "REPUBLIK"."""
    rest = head.rstrip(" ")
    if len(rest) == len(head):
        return None  # "INDONESIA" inside a word
    best: tuple[float, int] | None = None
    alone: int | None = None  # "REPUEUK" alone
    for k in range(1, HEADER_TOKENS + 1):
        m = HEADER_TOKEN_RE.search(rest)
        if not m or (rest[: m.start()] and not rest[: m.start()].endswith(" ")):
            break
        read = head[m.start() :].replace(" ", "").upper()
        ratio = SequenceMatcher(None, read, HEADER_WORDS).ratio()
        if ratio >= HEADER_SIMILARITY and (best is None or ratio > best[0]):
            best = (ratio, m.start())
        if k == 1 and SequenceMatcher(None, read, "REPUBLIK").ratio() >= REPUBLIK_SIMILARITY:
            alone = m.start()
        rest = rest[: m.start()].rstrip(" ")
    return best[1] if best else alone


def repair_headers(lines: list[str]) -> list[Change]:
    """The page header "PRESIDEN REPUBLIK INDONESIA -29-" of an OCR'd act, which the text layer ran into the
    sentence crossing the page ("... tertentu. FRES IDEN REPUBLIK INDONESIA -29- (5) Apabila ..."): a quote
    held it, and its words matched questions. Removed when it carries a page number, or when its words are
    misread (an act's own "PRESIDEN REPUBLIK INDONESIA," or "Negara Republik Indonesia" stays: words read
    right and no page number)."""
    changes: list[Change] = []
    for i, line in enumerate(lines):
        out, pos = [], 0
        for m in HEADER_TAIL_RE.finditer(line):
            start = _header_start(line[: m.start()])
            words = line[start : m.start()].split() if start is not None else []
            misread = bool(words) and any(w not in ("PRESIDEN", "REPUBLIK") for w in words)
            if (
                not (m.group("page") and (start is not None or line[: m.start()].endswith(" ")))
                and not misread
            ):
                continue
            begin = start if start is not None else m.start()
            changes.append(Change(i + 1, line[begin : m.end()], "", "header"))
            out.append(line[pos:begin].rstrip(" "))
            pos = m.end()
        if pos:
            tail = line[pos:].lstrip(" ")
            kept = "".join(out)
            lines[i] = kept + (" " + tail if kept and tail else tail)
    return changes


# ------------------------------------------------------------------------------------------------ driver


@dataclass(frozen=True)
class SplitEvidence:
    """Corpus counts the ``split`` rule decides on (every regulation text, lower-cased words)."""

    freq: Counter[str]
    docs: Counter[str]  # in how many documents each word occurs
    pairs: Counter[tuple[str, str]]  # candidate pairs as written apart
    as_first: Counter[str]  # occurrences of a word as the first piece of a candidate pair
    as_rest: Counter[str]  # ... as the second piece
    clean: frozenset[str]  # words of the texts that are not ocr_noisy

    @classmethod
    def of(cls, texts: Iterable[tuple[str, bool]]) -> SplitEvidence:
        freq: Counter[str] = Counter()
        docs: Counter[str] = Counter()
        pairs: Counter[tuple[str, str]] = Counter()
        clean: set[str] = set()
        for text, noisy in texts:
            words = _count_words(text, freq, docs)
            if not noisy:
                clean.update(words)
            pairs.update((m.group(1).lower(), m.group(2)) for m in SPLIT_PAIR_RE.finditer(text))
        as_first: Counter[str] = Counter()
        as_rest: Counter[str] = Counter()
        for (first, rest), n in pairs.items():
            as_first[first] += n
            as_rest[rest] += n
        return cls(freq, docs, pairs, as_first, as_rest, frozenset(clean))

    def joins(self, first: str, rest: str) -> bool:
        low = first.lower()
        joined = low + rest
        if len(joined) < MIN_WORD_LEN + 1 or (low, rest) in APART or joined not in self.clean:
            return False
        if self.freq[joined] < SPLIT_FLOOR or self.docs[joined] < SPLIT_DOCS:
            return False
        # a split is an accident: the word is written whole far more often ("di luar" is written apart 245
        # times, "diluar" a dozen: two words, not a split)
        if self.freq[joined] < SPLIT_RATIO * self.pairs[(low, rest)]:
            return False
        # "ke giatan" (giatan is no word of its own), "kep ada" (kep is none); not two words
        return (
            self.freq[rest] - self.as_rest[rest] < SPLIT_FLOOR
            or self.freq[low] - self.as_first[low] < SPLIT_FLOOR
        )


def repair_splits(lines: list[str], evidence: SplitEvidence) -> list[Change]:
    changes: list[Change] = []
    spaced_hyphens = sum(len(SPACED_HYPHEN_RE.findall(line)) for line in lines) >= SPACED_HYPHEN_FLOOR
    for i, line in enumerate(lines):

        def sub(m: re.Match[str], i: int = i) -> str:
            if not evidence.joins(m.group(1), m.group(2)):
                return m.group(0)
            changes.append(Change(i + 1, f"{m.group(1)} {m.group(2)}", m.group(1) + m.group(2), "split"))
            return m.group(1)  # the space goes; the rest stays where it is

        def hyphen(m: re.Match[str], i: int = i) -> str:
            changes.append(Change(i + 1, m.group(0), f"{m.group(1)}-{m.group(2)}", "split"))
            return f"{m.group(1)}-{m.group(2)}"

        line = SPLIT_PAIR_RE.sub(sub, line)
        lines[i] = SPACED_HYPHEN_RE.sub(hyphen, line) if spaced_hyphens else line
    return changes  # in line order: the lines are read in order


def repair_text(
    text: str, vocab: Vocabulary, floor: int = 3, max_rounds: int = 5
) -> tuple[str, list[Change]]:
    """The repaired text and its changes; the passes repeat until a fixpoint (so a rerun changes nothing)."""
    lines = text.split("\n")
    changes: list[Change] = []
    for _ in range(max_rounds):
        round_changes = repair_words(lines, vocab, floor)
        round_changes += repair_pasal(lines, vocab)
        round_changes += repair_ayat(lines)
        lines[:] = "\n".join(lines).split("\n")  # an ayat heading moved onto its own line
        round_changes += repair_columns(lines)
        round_changes += repair_amounts(lines)
        round_changes += repair_digits(lines)
        if not round_changes:
            break
        changes += round_changes
    return "\n".join(lines), changes


def is_noisy(folder: Path) -> bool:
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    return bool(meta.get("quality", {}).get("ocr_noisy"))


@dataclass(frozen=True)
class RegulationText:
    """One regulation folder's text and OCR flag, read once per run (every rule and both vocabularies use
    them)."""

    folder: Path
    text: str
    noisy: bool


def read_texts(regulations: Path = REGULATIONS) -> list[RegulationText]:
    folders = sorted(p for p in regulations.iterdir() if (p / "text.txt").is_file())
    return [RegulationText(p, (p / "text.txt").read_text(encoding="utf-8"), is_noisy(p)) for p in folders]


def build_vocabulary(texts: Iterable[RegulationText]) -> Vocabulary:
    """The vocabulary of the clean (not OCR'd) texts."""
    vocab = Vocabulary()
    for reg in texts:
        if not reg.noisy:
            vocab.add_text(reg.text)
    vocab.finish()
    return vocab


def unknown_tokens(text: str, vocab: Vocabulary) -> int:
    return sum(1 for w in WORD_RE.findall(text) if w.lower() not in vocab.freq)


def _tsv_cell(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def write_outputs(folder: Path, text: str, changes: list[Change]) -> None:
    (folder / "text.txt").write_text(text, encoding="utf-8")
    tsv = folder / "ocr_repairs.tsv"
    rows = "".join(f"{c.line}\t{_tsv_cell(c.before)}\t{_tsv_cell(c.after)}\t{c.rule}\n" for c in changes)
    if tsv.is_file():
        with tsv.open("a", encoding="utf-8") as fh:
            fh.write(rows)
    else:
        tsv.write_text(TSV_HEADER + rows, encoding="utf-8")
    meta_path = folder / "metadata.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    norm = meta.setdefault("normalisation", {})
    steps = norm.setdefault("steps", [])
    rules = {c.rule for c in changes}
    steps_applied = (
        (STEP, bool(rules - {"split", "unmarked", "joined", "header"})),
        (SPLIT_STEP, "split" in rules),
        (JOINED_STEP, "joined" in rules),
        (HEADER_STEP, "header" in rules),
        (UNMARKED_STEP, "unmarked" in rules),
    )
    for step, applies in steps_applied:
        if applies and step not in steps:
            steps.append(step)
    counts = norm.setdefault("counts", {})
    by_rule = Counter(c.rule for c in changes)
    for rule in RULES:
        key = f"ocr_repair_{rule}"
        if by_rule[rule] or key in counts:
            counts[key] = counts.get(key, 0) + by_rule[rule]
    meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    refresh_sizes(folder)


def refresh_sizes(folder: Path) -> None:
    """Bring ``sizes.text_chars`` and ``sizes.distinct_pasal_headings_in_text`` up to date with text.txt (a
    repaired "Pasal 6O" heading is no longer counted as a Pasal of its own); writes only when they differ."""
    text = (folder / "text.txt").read_text(encoding="utf-8")
    meta_path = folder / "metadata.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    sizes = meta.setdefault("sizes", {})
    want = {"text_chars": len(text)}
    if "distinct_pasal_headings_in_text" in sizes:
        want["distinct_pasal_headings_in_text"] = len(set(PASAL_HEADING_RE.findall(text)))
    if all(sizes.get(k) == v for k, v in want.items()):
        return
    sizes.update(want)
    meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def refresh_index(regulations: Path, text_chars: Mapping[str, int]) -> None:
    """Bring ``text_chars`` of ``index.json`` (the corpus's list of regulations) up to date with each
    text.txt's length (``text_chars``: document id -> characters, as this run leaves the texts); writes only
    when an entry differs."""
    path = regulations / "index.json"
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    changed = False
    for entry in index:
        chars = text_chars.get(entry["id"])
        if chars is not None and entry.get("text_chars") != chars:
            entry["text_chars"] = chars
            changed = True
    if changed:
        path.write_text(json.dumps(index, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dry-run", action="store_true", help="print counts and sample changes, write nothing")
    ap.add_argument("--doc", action="append", help="repair only this document id (repeatable)")
    ap.add_argument("--floor", type=int, default=3, help="minimum clean-corpus frequency of a word candidate")
    ap.add_argument("--sample", type=int, default=10, help="changes to print per document with --dry-run")
    ap.add_argument("--regulations", type=Path, default=REGULATIONS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    texts = read_texts(args.regulations)
    text_chars = {reg.folder.name: len(reg.text) for reg in texts}  # as this run leaves them
    vocab = build_vocabulary(texts)
    evidence = SplitEvidence.of((reg.text, reg.noisy) for reg in texts)
    joins = JoinEvidence.of(reg.text for reg in texts)
    if args.doc:
        unknown = set(args.doc) - {reg.folder.name for reg in texts}
        if unknown:
            ap.error(f"no regulation text for: {', '.join(sorted(unknown))}")
        texts = [reg for reg in texts if reg.folder.name in args.doc]
    for reg in texts:
        folder, text = reg.folder, reg.text
        # the OCR rules only where the text was OCR'd
        new, changes = repair_text(text, vocab, args.floor) if reg.noisy else (text, [])
        lines = new.split("\n")
        # words the text layer split or ran together, and an OCR'd act's page header run into its text
        layer = repair_splits(lines, evidence) + repair_joined(lines, joins)
        if reg.noisy:
            layer += repair_headers(lines)
        if layer:
            new, changes = "\n".join(lines), sorted([*changes, *layer], key=lambda c: c.line)
        unmarked = repair_unmarked(lines)  # last: it adds lines, so the others' line numbers stay as logged
        if unmarked:
            new, changes = "\n".join(lines), [*changes, *unmarked]
        if not changes and not reg.noisy:
            continue
        by_rule = Counter(c.rule for c in changes)
        counts = " ".join(f"{r}={by_rule[r]}" for r in RULES)
        print(
            f"{folder.name}: {len(changes)} changes ({counts}); unknown tokens "
            f"{unknown_tokens(text, vocab)} -> {unknown_tokens(new, vocab)}"
        )
        if args.dry_run:
            step = max(1, len(changes) // max(1, args.sample))  # an even spread over the document
            for c in changes[::step][: args.sample]:
                print(f"  {c.line}\t{c.before!r} -> {c.after!r}\t{c.rule}")
        elif changes:
            write_outputs(folder, new, changes)
            text_chars[folder.name] = len(new)
        else:
            refresh_sizes(folder)
    if not args.dry_run:
        refresh_index(args.regulations, text_chars)
    return 0


if __name__ == "__main__":
    sys.exit(main())
