"""Find the figures in a text and decide whether one text backs the figures of another.

A wrong number is the most damaging hallucination in a tax answer (a rate, a threshold, a deadline),
and the easiest to check mechanically, so every figure of a claim must appear in its quote.  The
same value is written many ways in Indonesian regulations and in model output, so figures are
compared by *meaning*, not by surface:

* **percent** ``11%``, ``11 %``, ``11 persen``, ``11 (sebelas) persen``, ``sebelas persen``, ``0,5%``
* **amount** ``Rp60.000.000,00``, ``Rp 60 juta``, ``60 juta rupiah``, ``IDR 60 million``,
  ``enam puluh juta rupiah``
* **date** ``1 April 2022``, ``April 1, 2022``, ``2022-04-01``, ``01/04/2022`` (day/month/year, the
  Indonesian convention; the US month/day reading is *not* tried), Indonesian and English month names
  and abbreviations; ``April 2022`` is a **month**
* **duration** ``30 hari``, ``30 (tiga puluh) hari``, ``tiga puluh hari``, ``30 days``, ``3 bulan``,
  ``5 tahun``
* **pasal** ``Pasal 23``, ``Pasal 4A``, ``Article 23``
* **ayat / index** ``ayat (1)``, ``(3)``: Indonesian legislation writes an ayat as a parenthesised number
  at the start of the ayat, so ``ayat (3)`` and a bare ``(3)`` are the same marker and back each other
* **number** any other digits: years, counts, plain amounts (``60.000.000``)

Number formats: Indonesian writes ``1.234.567,89`` and English ``1,234,567.89``.  When both
separators occur the last one is the decimal mark.  A single separator followed by exactly three
digits (``1.500``, ``1,500``) is genuinely ambiguous, so the figure carries *both* readings and
matches if any reading matches; other single separators are decimal marks (``0,5``, ``2.75``).

Backing rule: a claim figure is backed when one of its keys is among the keys *provided* by the
quote's figures.  Every figure provides its own key plus the weaker keys it implies: an amount or a
percent also provides the bare number, a date provides its month and year, an ayat provides the
index and vice versa.  So a bare ``2022`` in a claim is backed by ``1 April 2022`` in the quote, but
``11%`` is not backed by a bare ``11`` and ``30 hari`` is not backed by ``30 bulan``.

Not figures (documented exemptions):

* regulation identifiers (``UU 7/2021``, ``Undang-Undang Nomor 7 Tahun 2021``, ``PMK-168/PMK.010/2023``):
  they name a source, which the citation gate checks, not a fact stated by the source;
* spelled-out numbers that are not attached to a unit (``salah satu``, ``one of``): too many false
  positives; spelled-out numbers *are* read when followed by persen/percent, rupiah or a scale word
  (ribu/juta/miliar/...), or a duration unit;
* ``huruf a`` and other letter enumerators (not numbers).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

FigureKey = tuple[object, ...]

# --------------------------------------------------------------------------------------------- words
_ID_UNITS = {
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
_EN_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SE_WORDS = {"sepuluh": 10, "sebelas": 11, "seratus": 100}
_GROUP_MULT = {"belas": None, "puluh": 10, "ratus": 100, "hundred": 100}
_SCALES = {
    "ribu": 10**3,
    "seribu": 10**3,
    "juta": 10**6,
    "sejuta": 10**6,
    "miliar": 10**9,
    "milyar": 10**9,
    "triliun": 10**12,
    "rb": 10**3,
    "jt": 10**6,
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
}
_DECIMAL_WORDS = ("koma", "point")  # "nol koma lima" = 0.5, "two point five" = 2.5
_NUM_WORDS = sorted(
    [*_ID_UNITS, *_EN_UNITS, *_SE_WORDS, *_GROUP_MULT, *_SCALES, *_DECIMAL_WORDS],
    key=lambda w: (-len(w), w),
)
_WORD = "(?:" + "|".join(_NUM_WORDS) + r")\b"
# A run of number words; "and" may join English groups ("two hundred and fifty").
_WORDS = rf"{_WORD}(?:[\s-]+(?:and\s+)?{_WORD})*"


def words_to_number(text: str) -> Decimal | None:
    """Value of a spelled-out Indonesian or English number (``dua ratus lima puluh juta`` -> 250000000).

    Decimals are read digit by digit after ``koma``/``point`` (``nol koma lima`` -> 0.5).
    Returns None when the text contains anything but number words.
    """
    words = re.split(r"[\s-]+", text.lower().strip())
    for mark in _DECIMAL_WORDS:
        if mark in words:
            i = words.index(mark)
            whole = words_to_number(" ".join(words[:i])) if i else Decimal(0)
            digits = [_ID_UNITS.get(w, _EN_UNITS.get(w)) for w in words[i + 1 :]]
            if whole is None or not digits or any(d is None or d > 9 for d in digits):
                return None
            return whole + Decimal("0." + "".join(str(d) for d in digits))
    total = 0
    group = 0  # value of the current group (below the next scale word)
    unit = 0  # digits read since the last multiplier
    seen = False
    for w in words:
        if not w or w == "and":
            continue
        seen = True
        if w in _ID_UNITS:
            unit += _ID_UNITS[w]
        elif w in _EN_UNITS:
            unit += _EN_UNITS[w]
        elif w in _SE_WORDS:  # sepuluh, sebelas, seratus
            group += _SE_WORDS[w]
        elif w == "belas":  # dua belas = 2 + 10
            group += unit + 10
            unit = 0
        elif w == "puluh":  # dua puluh = 2 * 10
            group += unit * 10
            unit = 0
        elif w in ("ratus", "hundred"):  # dua ratus = 2 * 100; "hundred" alone = 100
            group += (unit or 1) * 100
            unit = 0
        elif w in _SCALES:  # seribu / sejuta = 1 * scale; enam puluh juta = 60 * scale
            total += ((group + unit) or 1) * _SCALES[w]
            group = unit = 0
        else:
            return None
    if not seen:
        return None
    return Decimal(total + group + unit)


# ------------------------------------------------------------------------------------------- digits
# A digit group: Indonesian or English thousands separators, optional decimals; or plain digits.
_NUM = r"\d{1,3}(?:[.,]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"


def parse_number(s: str) -> frozenset[Decimal]:
    """All plausible values of a written number (see the module docstring for the rules).

    Args:
        s: Digits with optional ``.``/``,`` separators, e.g. ``"60.000.000,00"``.

    Returns:
        One value, or two when a single separator before three digits is ambiguous; empty if unparsable.
    """
    s = s.strip()
    seps = [c for c in s if c in ".,"]
    try:
        if not seps:
            return frozenset({Decimal(s)})
        if "." in seps and "," in seps:
            dec = s[max(s.rfind("."), s.rfind(","))]
            thou = "," if dec == "." else "."
            return frozenset({Decimal(s.replace(thou, "").replace(dec, "."))})
        sep = seps[0]
        if len(seps) > 1:  # 60.000.000 / 60,000,000: thousands
            return frozenset({Decimal(s.replace(sep, ""))})
        head, tail = s.split(sep)
        as_decimal = Decimal(f"{head}.{tail}")
        if len(tail) == 3 and head != "0":
            return frozenset({as_decimal, Decimal(head + tail)})
        return frozenset({as_decimal})
    except InvalidOperation:
        return frozenset()


# ------------------------------------------------------------------------------------------ months
_MONTHS: dict[str, int] = {}
for _i, _names in enumerate(
    (
        ("januari", "january", "jan"),
        ("februari", "pebruari", "february", "feb", "peb"),
        ("maret", "march", "mar"),
        ("april", "apr"),
        ("mei", "may"),
        ("juni", "june", "jun"),
        ("juli", "july", "jul"),
        ("agustus", "august", "aug", "agu", "agt", "ags"),
        ("september", "sept", "sep"),
        ("oktober", "october", "okt", "oct"),
        ("november", "nopember", "nov", "nop"),
        ("desember", "december", "des", "dec"),
    ),
    start=1,
):
    for _n in _names:
        _MONTHS[_n] = _i
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=lambda w: (-len(w), w))) + r")\.?"

_UNITS = {
    "hari": "day",
    "day": "day",
    "days": "day",
    "minggu": "week",
    "pekan": "week",
    "week": "week",
    "weeks": "week",
    "bulan": "month",
    "month": "month",
    "months": "month",
    "tahun": "year",
    "year": "year",
    "years": "year",
    "jam": "hour",
    "hour": "hour",
    "hours": "hour",
}
_UNIT = "(?:" + "|".join(sorted(_UNITS, key=lambda w: (-len(w), w))) + ")"


# ----------------------------------------------------------------------------------------- records
@dataclass(frozen=True)
class Figure:
    """One figure found in a text.

    Attributes:
        surface: The text as written (for messages), e.g. ``"Rp 60 juta"``.
        kind: percent / amount / date / month / duration / pasal / ayat / index / number.
        keys: Canonical keys this figure asserts (two for an ambiguous number).
        start: Offset of the figure in the searched text.
        end: Offset just past the figure.
    """

    surface: str
    kind: str
    keys: frozenset[FigureKey]
    start: int
    end: int

    def provides(self) -> frozenset[FigureKey]:
        """Keys this figure backs when it occurs in a quote (its own plus the weaker implied ones)."""
        out: set[FigureKey] = set(self.keys)
        for key in self.keys:
            kind = key[0]
            if kind in ("amount", "percent", "duration"):
                out.add(("number", key[1]))
            if kind in ("amount", "number"):
                out.add(("amount", key[1]))
                out.add(("number", key[1]))
            if kind == "date":
                _, y, m, _d = key
                out.add(("month", y, m))
                out.add(("number", Decimal(str(y))))
            if kind == "month":
                out.add(("number", Decimal(str(key[1]))))
            if kind in ("ayat", "index"):
                out.add(("ayat", key[1]))
                out.add(("index", key[1]))
                if str(key[1]).isdigit():
                    out.add(("number", Decimal(str(key[1]))))
            if kind == "pasal" and str(key[1]).isdigit():
                out.add(("number", Decimal(str(key[1]))))
        return frozenset(out)


# ------------------------------------------------------------------------------------------ regexes
_I = re.IGNORECASE
# Regulation identifiers: masked, never figures (see module docstring).
_REG_LONG = re.compile(
    r"\b(?:undang[\s-]*undang|peraturan\s+pemerintah(?:\s+pengganti\s+undang[\s-]*undang)?|"
    r"peraturan\s+menteri\s+keuangan|peraturan\s+direktur\s+jenderal\s+pajak|surat\s+edaran|"
    r"keputusan\s+(?:menteri\s+keuangan|direktur\s+jenderal\s+pajak)|law|regulation)"
    r"(?:\s+(?:republik\s+indonesia|ri))?\s+(?:nomor|no\.?|number)\s*[\w./-]*?\d[\w./-]*?"
    r"(?:\s+(?:tahun|of|year)\s+\d{4}|/\d{4})\b",
    _I,
)
_REG_SHORT = re.compile(
    r"\b(?:UU|PP|PMK|PER|PERPU|PERPPU|Perpu|Perppu|SE|KMK|KEP)(?i:\s+(?:nomor|no\.?))?[\s.-]*\d{1,4}[A-Z]?"
    r"(?:/[A-Z][A-Z.\d]*)*(?:/\s*(?:19|20)\d\d|(?i:\s+tahun\s+)(?:19|20)\d\d)\b"
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DMY_NUM = re.compile(r"\b(\d{1,2})[/-](\d{1,2})[/-](\d{4})\b")
_DMY_WORD = re.compile(rf"\b(\d{{1,2}})\s+({_MONTH})\s+(\d{{4}})\b", _I)
_MDY_WORD = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", _I)
_MY_WORD = re.compile(rf"\b({_MONTH})\s+(\d{{4}})\b", _I)
_PASAL = re.compile(r"\b(?:pasal|article)\s+(\d+)([A-Za-z]?)\b", _I)
_AYAT = re.compile(r"\b(?:ayat|paragraph|paragraf)\s*\((\d{1,3}[a-z]?)\)", _I)
_INDEX = re.compile(r"\((\d{1,3}[a-z]?)\)")
_SCALE = r"(?:ribu|rb|juta|jt|miliar|milyar|triliun|thousand|million|billion|trillion)"
_AMOUNT_DIGITS = re.compile(
    rf"(?:\b(?:Rp|IDR|USD|US\$)\.?\s*|\$\s*)(?P<num>{_NUM})(?:\s*(?P<scale>{_SCALE})\b)?"
    rf"|(?<![\w.,])(?P<num2>{_NUM})\s*(?:(?P<scale2>{_SCALE})\b(?:\s*(?:rupiah|dollars?)\b)?"
    r"|(?:rupiah|dollars?)\b)",
    _I,
)
# Spelled-out amounts count only with a currency word or a scale word (see module docstring).
_AMOUNT_WORDS = re.compile(rf"\b(?P<w>{_WORDS})(?:\s+(?P<cur>rupiah|dollars?))?\b", _I)
_PERCENT_DIGITS = re.compile(
    rf"(?<![\w.,])(?P<num>{_NUM})\s*(?:\((?P<spelled>[a-z\s-]+)\)\s*)?(?:%|persen\b|percent\b|per\s+cent\b)",
    _I,
)
_PERCENT_WORDS = re.compile(rf"\b(?P<w>{_WORDS})\s+(?:persen|percent|per\s+cent)\b", _I)
_DURATION_DIGITS = re.compile(
    rf"(?<![\w.,])(?P<num>{_NUM})\s*(?:\((?P<spelled>[a-z\s-]+)\)\s*)?(?P<unit>{_UNIT})\b", _I
)
_DURATION_WORDS = re.compile(rf"\b(?P<w>{_WORDS})\s+(?P<unit>{_UNIT})\b", _I)
_PLAIN = re.compile(rf"(?<![\w.,])({_NUM})(?![\w])")


def _date_key(y: int, m: int, d: int) -> FigureKey | None:
    try:
        dt.date(y, m, d)
    except ValueError:
        return None
    return ("date", y, m, d)


def _month(s: str) -> int:
    return _MONTHS[s.lower().rstrip(".")]


class _Scanner:
    """Claims spans left to right by extractor priority, so one piece of text is one figure."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.taken: list[tuple[int, int]] = []
        self.figures: list[Figure] = []

    def free(self, start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in self.taken)

    def take(self, m: re.Match[str], kind: str | None, keys: set[FigureKey] | frozenset[FigureKey]) -> None:
        self.taken.append((m.start(), m.end()))
        if kind is not None and keys:
            self.figures.append(Figure(m.group(0).strip(), kind, frozenset(keys), m.start(), m.end()))

    def run(self, pattern: re.Pattern[str], fn: Callable[[re.Match[str]], None]) -> None:
        for m in pattern.finditer(self.text):
            if self.free(m.start(), m.end()):
                fn(m)


def _scaled(values: frozenset[Decimal], scale: str | None) -> set[FigureKey]:
    mult = _SCALES[scale.lower()] if scale else 1
    return {("amount", v * mult) for v in values}


def extract_figures(text: str) -> list[Figure]:
    """All figures of ``text`` in order of appearance (see the module docstring for what counts).

    Args:
        text: A claim or a quote.

    Returns:
        Figures sorted by offset; regulation identifiers are skipped.
    """
    sc = _Scanner(text)
    sc.run(_REG_LONG, lambda m: sc.take(m, None, set()))
    sc.run(_REG_SHORT, lambda m: sc.take(m, None, set()))

    def iso(m: re.Match[str]) -> None:
        key = _date_key(int(m[1]), int(m[2]), int(m[3]))
        if key:
            sc.take(m, "date", {key})

    def dmy_num(m: re.Match[str]) -> None:
        key = _date_key(int(m[3]), int(m[2]), int(m[1]))
        if key:
            sc.take(m, "date", {key})

    def dmy_word(m: re.Match[str]) -> None:
        key = _date_key(int(m[3]), _month(m[2]), int(m[1]))
        if key:
            sc.take(m, "date", {key})

    def mdy_word(m: re.Match[str]) -> None:
        key = _date_key(int(m[3]), _month(m[1]), int(m[2]))
        if key:
            sc.take(m, "date", {key})

    def my_word(m: re.Match[str]) -> None:
        sc.take(m, "month", {("month", int(m[2]), _month(m[1]))})

    sc.run(_ISO_DATE, iso)
    sc.run(_DMY_NUM, dmy_num)
    sc.run(_DMY_WORD, dmy_word)
    sc.run(_MDY_WORD, mdy_word)
    sc.run(_MY_WORD, my_word)
    sc.run(_PASAL, lambda m: sc.take(m, "pasal", {("pasal", m[1].lstrip("0") + m[2].upper())}))
    sc.run(_AYAT, lambda m: sc.take(m, "ayat", {("ayat", m[1].lower().lstrip("0"))}))

    def percent_digits(m: re.Match[str]) -> None:
        sc.take(m, "percent", {("percent", v) for v in parse_number(m["num"])})

    def percent_words(m: re.Match[str]) -> None:
        v = words_to_number(m["w"])
        if v is not None:
            sc.take(m, "percent", {("percent", v)})

    sc.run(_PERCENT_DIGITS, percent_digits)
    sc.run(_PERCENT_WORDS, percent_words)

    def amount_digits(m: re.Match[str]) -> None:
        num = m["num"] or m["num2"]
        sc.take(m, "amount", _scaled(parse_number(num), m["scale"] or m["scale2"]))

    def amount_words(m: re.Match[str]) -> None:
        has_scale = any(w.lower() in _SCALES for w in re.split(r"[\s-]+", m["w"]))
        v = words_to_number(m["w"])
        if v is not None and (m["cur"] or has_scale):
            sc.take(m, "amount", {("amount", v)})

    sc.run(_AMOUNT_DIGITS, amount_digits)

    def duration_digits(m: re.Match[str]) -> None:
        unit = _UNITS[m["unit"].lower()]
        sc.take(m, "duration", {("duration", v, unit) for v in parse_number(m["num"])})

    def duration_words(m: re.Match[str]) -> None:
        v = words_to_number(m["w"])
        if v is not None:
            sc.take(m, "duration", {("duration", v, _UNITS[m["unit"].lower()])})

    sc.run(_DURATION_DIGITS, duration_digits)
    sc.run(_DURATION_WORDS, duration_words)
    sc.run(_AMOUNT_WORDS, amount_words)
    sc.run(_INDEX, lambda m: sc.take(m, "index", {("index", m[1].lower().lstrip("0"))}))
    sc.run(_PLAIN, lambda m: sc.take(m, "number", {("number", v) for v in parse_number(m[1])}))
    return sorted(sc.figures, key=lambda f: (f.start, f.surface))


def provided_keys(text: str) -> frozenset[FigureKey]:
    """Every key the figures of ``text`` back (see :meth:`Figure.provides`)."""
    out: set[FigureKey] = set()
    for f in extract_figures(text):
        out |= f.provides()
    return frozenset(out)


def unbacked_figures(claim: str, evidence: str) -> list[Figure]:
    """Figures of ``claim`` that no figure of ``evidence`` backs, in order of appearance."""
    provided = provided_keys(evidence)
    return [f for f in extract_figures(claim) if not (f.keys & provided)]
