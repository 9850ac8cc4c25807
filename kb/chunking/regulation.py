"""Structure-aware chunker for Indonesian regulations (UU, PP, PMK, PER, SE, KEP).

A regulation is cut into regions, each chunked by its own rules::

    pembukaan  title block, Menimbang, Mengingat, Menetapkan      -> kind "preamble"
    batang     BAB / Bagian / Paragraf headings (heading_path only), Pasal -> ayat -> huruf
    penutup    "Agar setiap orang mengetahuinya ..." + signatures  -> kind "closing"
    penjelasan "PENJELASAN ATAS ...": Umum, then Pasal / Ayat      -> kind "penjelasan"
    lampiran   "LAMPIRAN ..."                                      -> kind "lampiran" / "table"

Why structure rather than fixed windows: an answer must cite "Pasal 7 ayat (1)", and a quote
must be an exact slice of the text.  The chunker therefore only ever moves offsets; every
``ParsedChunk.text`` is ``doc_text[start:end]``.

Amending acts ("Beberapa ketentuan dalam Undang-Undang Nomor 8 Tahun 1983 ... diubah sebagai
berikut: 1. Ketentuan Pasal 7 diubah ...") are recognised per amending Pasal: each numbered
item is a node ``pasal-I/angka-3`` and the restated Pasal below it carries
``AmendTarget(law="UU 8/1983", pasal="7", ...)``.

Headings are accepted only when they continue a numbering sequence (Pasal numbers grow, ayat
(1) comes first, a nested "a." is not a new top-level item): that is what makes the parser
tolerant of OCR noise and of cross-references that happen to start a line.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from kb.brackets import bracket_rows
from kb.chunking.lists import HEADING_RESIDUE, ayat_value, find_ayat, find_items
from kb.chunking.textspan import (
    PACK_TARGET,
    AnnexSections,
    annex_headings,
    looks_like_example,
    pack,
    squash,
    trim,
)
from kb.dates import MONTHS
from kb.model import AmendTarget, DocumentMeta, ParsedChunk, Reference
from kb.refs import canonical_key, find_doc_refs, find_provision_refs, key_from_doc_id

logger = logging.getLogger(__name__)

#: A Pasal up to this size stays one chunk (also when it has ayat: cutting every short Pasal into its ayat
#: was measured in session 28 and lost answers on the fresh and check sets, the ayat alone lacking the
#: Pasal's context).
PASAL_MAX = 1200
#: An ayat up to this size stays one chunk; longer ones split into huruf.
AYAT_MAX = 1500
#: A leaf above this size is packed into parts.
LEAF_MAX = 2000

_NUM = r"(?:[IVX]{1,5}|[0-9OlI]{1,3}(?:[ ][0-9][A-Z]?)?[A-Z]?)"
_PASAL_STANDALONE = re.compile(rf"^[ \t]*Pasal[ \t]+({_NUM})[ \t]*[-.]?[ \t]*$", re.MULTILINE)
# "(1)" as OCR reads it: "(l)", "(I)", or "(U" with the bracket swallowed
_AYAT_ONE = r"\((?:[1lI]\)|U(?=[ \t]))"
_PASAL_LEAD_AYAT = re.compile(rf"^[ \t]*Pasal[ \t]+({_NUM})[ \t]+(?={_AYAT_ONE}[ \t])", re.MULTILINE)
_PASAL_INLINE_AYAT = re.compile(rf"(?<=[^\s] )Pasal[ \t]+({_NUM})[ \t]+(?={_AYAT_ONE}[ \t]+[A-Z])")
# "BAB I KETENTUAN UMUM PASAL 1 Dalam undang-undang ini ..." (UU 8/1983): a heading in capitals like its title
_PASAL_AFTER_CAPS = re.compile(rf"(?<=[A-Z]{{2}} )(?:Pasal|PASAL)[ \t]+({_NUM})[ \t]+(?=[A-Z][a-z])")
_REF_WORDS = re.compile(r"(?:dalam|pada|dan|atau|dengan|ketentuan|bahwa|sesuai|,)\s*$", re.IGNORECASE)
# Headings the rules above miss, read only when the Pasal sequence confirms them (``_Heading.confirm``: the
# number must be exactly the next one expected, see ``RegulationChunker._body``). OCR runs a heading into the
# previous sentence and misreads the word "Pasal":
#   "... dari luar Daerah Pabean. Pasal 21 Dalam hal transaksi atas:"   (PP 44/2022: after a sentence)
#   "... jasa: ... d. psikolog; dan Pasal 12 (1) Jasa pelayanan sosial"  (PP 49/2022: after a list's "; dan")
#   "(1) (21 Pasal 8 Pejabat yang berwenang ..."                          (PP 34/2016: behind ayat markers)
#   "BAB I KETENTUAN UMUM Pasa1 1 Pajak Penghasilan dikenakan ..."       (UU 7/1983: "1" read for "l")
#   "... dapat dilaksanakan. Pasa157 (1) Dalam hal ..."                   (PP 50/2022: "Pasal 57", space lost)
#   "... dikreditkan. PasaT 27 (1) Faktur Pajak ..."                      (PP 44/2022)
# A misread word ("Pasa1", "PasaT", "Pasa]") is never a cross-reference, but a correct "Pasal 12" after
# "; dan" could be one: the sequence and the text that follows (a capital word or ayat (1), never the name of
# an act) decide.
_PASAL_OCR_WORD = r"(?:Pasal|Pasa[1lIT\]])"
_PASAL_SEQ = re.compile(
    r"(?:(?<=[.:;] )|(?<=; dan )|(?<=; atau )|(?<=[A-Z]{2} )|^[ \t]*(?:\([0-9lIU]{1,2}\)?[ \t]+)*)"
    rf"(?P<word>{_PASAL_OCR_WORD})[ \t]*(?P<num>{_NUM})"
    r"(?:[ \t]*[-.]?[ \t]*$|[ \t]+(?!Undang|Peraturan|Keputusan|Perppu|Ayat\b|Huruf\b|Angka\b)"
    rf"(?=[A-Z][a-z]|{_AYAT_ONE}[ \t]))",
    re.MULTILINE,
)
# "; dan" / "; atau" closing the previous Pasal's list may stand before a confirmed heading (see above)
_LIST_END = re.compile(r";[ \t]+(?:dan|atau)[ \t]*$")
# A page break may put a chapter title and the next heading before the end of the Pasal they follow
# (PP 55/2022: "BAB IX ...\nPasal 55\nFRES IDEN REPUBLIK INDONESIA _52_ Pasal 54 (1) Dalam ... (2) ...
# diatur dalam Peraturan Menteri. (U Bantuan atau sumbangan termasuk: ..."): between the displaced heading
# and the heading of the Pasal it should follow stands only page furniture (capitals, page numbers), and the
# displaced Pasal's body starts at the first ayat (1) after that one's own.
_PAGE_FURNITURE = re.compile(r"[\sA-Z0-9_.,\-]*")
_AYAT_ONE_RESTART = re.compile(rf"(?:(?<=[.;:] )|(?<=\n)){_AYAT_ONE}(?=[ \t]+[A-Z])")
# letters OCR reads for digits in a Pasal number ("Pasal 2T" for Pasal 27 in PP 55/2022): a heading whose
# suffix letter would put it out of sequence is read with the digit when that digit gives the next number
_OCR_SUFFIX_DIGIT = {"T": "7", "S": "5", "B": "8", "Z": "2", "G": "6", "O": "0", "I": "1"}

_BAB = re.compile(r"^[ \t]*BAB[ \t]+([IVXL]+(?:[ ][IVXL]+)*)([A-Z]?)\b", re.MULTILINE)
_BAGIAN = re.compile(
    r"^[ \t]*(?:Bagian|Bagtan)[ \t]+(Ke[a-z]+)\b|(?<=[A-Z]{2} )Bagian[ \t]+(Ke[a-z]+)\b", re.MULTILINE
)
_PARAGRAF = re.compile(r"^[ \t]*Paragraf[ \t]+(\d{1,2})\b", re.MULTILINE)

_CLOSING = re.compile(r"\bAgar\s+(?:supaya\s+)?setiap\b")
_PENJELASAN = re.compile(r"\bPENJELASAN\s+ATAS\b|^[ \t]*PENJELASAN[ \t]*$", re.MULTILINE)
#: the annex's title opens a line, or follows the elucidation's last words inside one where OCR joined them
#: ("Pasal 38 Cukup jelas LAMPIRAN PERATURAN PEMERINTAH ... NOMOR 49 TAHUN 2022")
_LAMPIRAN = re.compile(
    r"^[ \t]*LAMPIRAN\b|(?<=[ \t])LAMPIRAN[ \t]+(?:[IVX]{1,4}[ \t]+)?(?:PERATURAN|UNDANG-UNDANG)\b",
    re.MULTILINE,
)
# the annex of a UU that enacts a Perppu ("LAMPIRAN UNDANG-UNDANG ... NOMOR 6 TAHUN 2023 ... PERATURAN
# PEMERINTAH PENGGANTI UNDANG-UNDANG ... NOMOR 2 TAHUN 2022"): the Perppu's own body, Pasal by Pasal
_ANNEXED_PERPU = re.compile(r"PERATURAN\s+PEMERINTAH\s+PENGGANT\w*\s+UNDANG", re.IGNORECASE)
_PASAL_DEMI_PASAL = re.compile(r"P\s?A\s?S\s?A\s?L\s+D\s?E\s?M\s?I\s+P\s?A\s?S\s?A\s?L", re.IGNORECASE)

_AMEND_START = re.compile(
    r"\s*(?:Beberapa\s+ketentuan|Ketentuan|Di\s*antara|Mengubah|Undang-[Uu]ndang\s+Nomor|Peraturan\s+[A-Z][a-z]+)\b"
)
# "Beberapa ketentuan dalam Undang-Undang Nomor 7 Tahun 1983 ...": the law an amending Pasal names first,
# tolerant of OCR inside the words ("Peraturan Men teri Keuangan Nomor 81", "Nomor T Tahun 1983")
_AMENDED_NUMBER = re.compile(
    r"\bNomor\s+(?P<num>[0-9OlIT]{1,4})(?:\s+Tahun\s+|\s*/\s*[A-Z][A-Z.\d]*\s*/\s*)(?P<year>[12][0-9Oo]{3})\b"
)
_AMENDED_TYPES: tuple[tuple[str, str], ...] = (
    ("peraturanpemerintahpenggantiundang", "PERPU"),
    ("undang-undang", "UU"),
    ("undangundang", "UU"),
    ("peraturanpemerintah", "PP"),
    ("peraturanmenterikeuangan", "PMK"),
    ("peraturandirekturjenderalpajak", "PER"),
)
_AMEND_FORMULA = re.compile(
    r"\b(?:diubah|disisipkan|ditambahkan|dihapus)\b[^:]{0,400}?berikut\s*:", re.DOTALL
)
_ITEM_AMEND = re.compile(
    r"(?:(?<=\n)|(?<=\S ))[ \t]*(\d{1,2}(?:[ ]\d)?)[ \t]?\.?[ \t]+"
    r"(?=(?:Ketentuan|Di\s*antara|Menambah|Pasal\s+\S+\s+dihapus|Penjelasan|Judul|Lampiran|BAB\s+\S+\s+dihapus)\b)"
)
# OCR also drops the number of a deletion item ("... Menteri Keuangan.\nPasal 13A dihapus.\nKetentuan ...")
_ITEM_UNNUMBERED = re.compile(
    r"(?:(?<=\n)|(?<=[.;:] ))(?=(?:Ketentuan|Di\s*antara)\b|Pasal[ \t]+[0-9][0-9A-Z]*[ \t]+dihapus\.)"
)
# a scraped text repeats an item's opening after an ellipsis ("8. Ketentuan… 8. Ketentuan Pasal 7 diubah",
# "8. Ketentuan...\n8. Ketentuan Pasal 9 diubah"): the item starts at the second copy, and the first copy
# belongs to neither item (it no longer trails the previous item's restated Pasal or deletion)
_REPEATED_OPENING = re.compile(r"^(\w+)(?:…|\.\.\.)\s+(?P<again>\d{1,2})\s?\.?\s+(?=\1\b)")
# the 1994 acts also write "Ketentuan Pasal 15 disempurnakan, sehingga ..." and "Menambah ketentuan baru ..."
_AMEND_VERB = re.compile(r"diubah|disisipkan|dihapus|ditambah|disempurnakan|Menambah")
_DELETED = re.compile(rf"Pasal\s+({_NUM})\s+dihapus")

_DEF_LEAD = re.compile(r"dimaksud\s+dengan\s*:?\s*$|yang\s+dimaksud\s+dengan\b", re.IGNORECASE)
#: the verb that joins a defined term to its definition ("Masa Pajak adalah ...")
DEFINES = r"(?:adalah|ialah|yaitu|merupakan)"
_DEF_TERM = re.compile(
    r"^(?P<term>[^\n]{1,200}?)(?:,?\s+yang\s+selanjutnya\s+(?:dapat\s+)?(?:disebut|disingkat)\s+(?:dengan\s+)?"
    rf"(?P<short>[^\n]{{1,80}}?))?,?\s+{DEFINES}"
)
_ITEM_PREFIX = re.compile(r"^\s*(?:\d{1,2}\s?\.|[a-z]{1,2}\.)\s*")

_EFFECTIVE = re.compile(
    r"mulai\s+berlaku\s+(?:pada\s+)?tanggal\s+(\d{1,2})\s+([A-Za-z]+)\s+((?:19|20)\d\d)", re.IGNORECASE
)
_AYAT_REF = re.compile(r"\bayat\s*\((\d{1,2}[a-z]?)\)(?:\s+huruf\s+([a-z]{1,2})\b)?")
_PEN_AYAT = re.compile(r"\bAyat\s*\((\d{1,2}[a-z]?)\)")
_PEN_ANGKA = re.compile(r"(?:(?<=\n)|(?<=[.:;] )|(?<=^))[ \t]*Angka[ \t]+(\d{1,2})\b")
_PEN_PASAL = re.compile(
    rf"(?:^|(?<=[.:;] ))[ \t]*Pasal[ \t]+({_NUM})"
    r"(?=[ \t]*,?[ \t]*(?:\n|$|Ayat\b|Huruf\b|Angka\b|Cukup\b|Yang\b|[A-Z][a-z]))",
    re.MULTILINE,
)
# Elucidations of omnibus acts run their boundaries inline:
# "... Cukup jelas Pasal 4 Angka 1 Pasal 4A, Ayat (1) ...".
# An amending Pasal followed by "Angka 1" opens its block wherever it stands ...
_PEN_TOP_INLINE = re.compile(rf"(?<![\w,])Pasal[ \t]+({_NUM})[ \t]*,?[ \t\n]+(?=Angka[ \t]+1\b)")
# ... a restated Pasal follows its "Angka n" marker on the same line ...
_PEN_PASAL_AFTER_ANGKA = re.compile(
    rf"Angka[ \t]+\d{{1,2}}[ \t]+(Pasal[ \t]+({_NUM}))"
    r"(?=[ \t]*,?[ \t]*(?:\n|$|Ayat\b|Huruf\b|Cukup\b|[A-Z][a-z]))"
)
# ... and an "Angka n" marker may follow "Cukup jelas" / "Dihapus" without a full stop, or precede a Pasal
# heading.
_PEN_ANGKA_INLINE = re.compile(
    r"(?:(?<=jelas )|(?<=jelas\. )|(?<=Dihapus )|(?<=Dihapus\. ))Angka[ \t]+(\d{1,2})\b"
    r"|Angka[ \t]+(\d{1,2})(?=[ \t]*\n?[ \t]*Pasal[ \t]+[0-9])"
)
# ... and OCR may lose the full stop before a heading ("Ayat (4) Cukup jelas, Pasal 27 Ayat (1) ...",
# "= Rp 26.200.000'0O Pasal 19 Ayat (1) ...", "Ayat (2) Cukup jelas Pasal 16B Ayat (1) ..."): a Pasal
# followed by its first Ayat or "Cukup jelas" is a heading where it stands when it is the next Pasal
# (:func:`_next_pasal`); a reference ("dalam Pasal 9 ayat (1)") writes "ayat" in lower case
_PEN_PASAL_LOOSE = re.compile(
    r"(?<![\w/])Pasal[ \t]+([0-9]{1,3}[A-Z]?)[ \t]+(?=Ayat[ \t]*\(1\)|Cukup[ \t]+jelas)"
)
#: the words that make a following "Pasal n" a reference, not a heading
_REFERS_BEFORE = re.compile(
    r"\b(?:dalam|dan|atau|pada|dengan|dimaksud|ketentuan|berdasarkan|menurut)[ \t]*$", re.I
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50}


def loose_elucidation_headings(text: str, start: int = 0, end: int | None = None) -> Iterator[re.Match[str]]:
    """Where ``text`` (between ``start`` and ``end``) holds what reads as an elucidation's Pasal heading
    inside a line ("... Cukup jelas Pasal 16B Ayat (1) ..."), group 1 the Pasal; a reference ("sebagaimana
    dimaksud dalam Pasal 9 Ayat (1)") is not one.  The chunker keeps those that continue the numbering;
    ``kb.check`` reports any that a passage still holds."""
    for m in _PEN_PASAL_LOOSE.finditer(text, start, len(text) if end is None else end):
        if not _REFERS_BEFORE.search(text, max(start, m.start() - 20), m.start()):
            yield m


def _next_pasal(prev: str, p: str) -> bool:
    """Whether Pasal ``p`` can follow Pasal ``prev`` in an elucidation: the next number or the one after it
    (a source may lack a heading), or the next letter of the same number ("16A" -> "16B", "16" -> "16A")."""
    a, b = re.fullmatch(r"(\d+)([A-Z]?)", prev), re.fullmatch(r"(\d+)([A-Z]?)", p)
    if a is None or b is None:
        return False
    na, nb = int(a.group(1)), int(b.group(1))
    if na == nb:
        return bool(b.group(2)) and (not a.group(2) or ord(b.group(2)) == ord(a.group(2)) + 1)
    return na < nb <= na + 2


def roman_to_int(s: str) -> int:
    total, prev = 0, 0
    for ch in reversed(s):
        v = _ROMAN.get(ch, 0)
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total


def parse_pasal_number(tok: str) -> str | None:
    """Normalise a Pasal heading token: "7", "4A", "I" (Roman kept), OCR "2OA" -> "20A", "1 1A" -> "11A"."""
    tok = tok.strip()
    if re.fullmatch(r"[IVX]{1,5}", tok):
        return tok
    t = tok.replace(" ", "")
    m = re.fullmatch(r"([0-9OlI]+)([A-Z]?)", t)
    if not m or not any(c.isdigit() for c in m.group(1)):
        return None
    digits = m.group(1).replace("O", "0").replace("l", "1").replace("I", "1")
    return f"{int(digits)}{m.group(2)}"


def _is_roman(p: str) -> bool:
    return bool(re.fullmatch(r"[IVX]+", p))


def _pval(p: str) -> tuple[int, str]:
    if _is_roman(p):
        return (roman_to_int(p), "")
    m = re.fullmatch(r"(\d+)([A-Z]?)", p)
    return (int(m.group(1)), m.group(2)) if m else (0, "")


def _sequence_resumes(
    later: list[_Heading], cur: tuple[int, str], jumped: tuple[int, str], look: int = 6
) -> bool:
    """Whether one of the next ``look`` Pasal headings continues from ``cur`` below ``jumped``.

    Original regulations number their Pasal consecutively, so a heading far ahead of the sequence that
    is followed by the expected next number is noise, not a real jump.
    """
    seen = 0
    for h in later:
        if h.kind != "pasal":
            continue
        seen += 1
        if seen > look:
            break
        w = _pval(h.value)  # Roman numerals compare by value, as in the main loop
        if cur < w < jumped and w[0] <= cur[0] + 2:
            return True
    return False


def _ocr_digit_reading(p: str) -> str | None:
    """A Pasal number read with the digit OCR may have misread as its suffix letter ("2T" -> "27")."""
    m = re.fullmatch(r"(\d{1,2})([A-Z])", p)
    if not m or m.group(2) not in _OCR_SUFFIX_DIGIT:
        return None
    return str(int(m.group(1) + _OCR_SUFFIX_DIGIT[m.group(2)]))


def _heading_follows(heads: list[_Heading], idx: int, p: str, look: int = 6) -> bool:
    """Whether one of the next ``look`` Pasal headings after ``heads[idx]`` is an ordinary (not ``confirm``)
    heading numbered ``p``: then that one is the heading, and ``heads[idx]`` a reference or noise."""
    seen = 0
    for h in heads[idx + 1 :]:
        if h.kind != "pasal":
            continue
        seen += 1
        if seen > look:
            return False
        if h.value == p and not h.confirm:
            return True
    return False


def effective_date(chunk_text: str) -> dt.date | None:
    """First "mulai berlaku pada tanggal 1 April 2022" date written in the provision, if any."""
    for m in _EFFECTIVE.finditer(chunk_text):
        month = MONTHS.get(m.group(2).lower())
        if month:
            try:
                return dt.date(int(m.group(3)), month, int(m.group(1)))
            except ValueError:
                continue
    return None


#: an ayat's number and its "Yang dimaksud dengan" before the term it defines ("(3) Subjek pajak dalam negeri
#: adalah: ...")
AYAT_OPENING = re.compile(r"^\s*\(\d{1,2}[a-z]?\)\s*(?:yang\s+dimaksud\s+dengan\s+)?", re.IGNORECASE)


def opening_terms(text: str) -> tuple[str, ...]:
    """The terms a passage defines at its head, an ayat ("(3) Subjek pajak dalam negeri adalah: ...") as much
    as a Pasal 1 item."""
    return defined_terms(AYAT_OPENING.sub("", text, count=1))


def defined_terms(item_text: str) -> tuple[str, ...]:
    """Terms a definition item defines: ``("Pegawai Negeri Sipil", "PNS")``."""
    body = _ITEM_PREFIX.sub("", item_text, count=1)
    m = _DEF_TERM.match(body)
    if not m:
        return ()
    out = [squash(m.group("term"), 200).strip(" ,")]
    if m.group("short"):
        out.append(squash(m.group("short"), 80).strip(" ,"))
    return tuple(t for t in out if t)


def amended_law(intro: str) -> str:
    """The law an amending Pasal changes: the first act its opening sentence names.

    "Beberapa ketentuan dalam Peraturan Menteri Keuangan Nomor 81 Tahun 2024 ... yang telah beberapa kali
    diubah dengan: a. Peraturan Menteri Keuangan Nomor 11 Tahun 2025 ..." amends PMK 81/2024, not the later
    acts it lists, even when OCR split a word of the first name ("Men teri").  ``"?"`` when no act is named.
    """
    m = _AMENDED_NUMBER.search(intro[:600])
    if m:
        before = re.sub(r"\s+", "", intro[max(0, m.start() - 90) : m.start()]).lower()
        kinds = [(before.rfind(word), code) for word, code in _AMENDED_TYPES if word in before]
        digits = m.group("num").translate(str.maketrans("OlIT", "0117"))
        year = m.group("year").translate(str.maketrans("Oo", "00"))
        if kinds and digits.isdigit():
            code = max(kinds)[1]
            if code == "UU" and "penggantiundang" in before[max(kinds)[0] - 30 : max(kinds)[0]]:
                code = "PERPU"
            return canonical_key(code, digits, year)
    refs = find_doc_refs(intro)
    return refs[0].key if refs else "?"


@dataclass(frozen=True)
class _Ctx:
    """Where a Pasal sits: key prefix, heading path, the amended law if it is a restatement."""

    key: str
    pasal: str
    heading_path: tuple[str, ...]
    parent_key: str | None = None
    law: str | None = None  # amended law of a restated Pasal
    via: str | None = None  # "Pasal I angka 3 UU 42/2009" for restated Pasal
    penjelasan: bool = False

    def location(self, sub: str = "") -> str:
        base = f"Pasal {self.pasal}{sub}"
        if self.law:
            base = f"{base} {self.law}" + (f" ({self.via})" if self.via else "")
        return f"Penjelasan {base}" if self.penjelasan else base


@dataclass
class _Builder:
    """Collects chunks; owns key uniqueness and per-chunk enrichment (refs, examples, amends)."""

    text: str
    chunks: list[ParsedChunk] = field(default_factory=list)
    keys: dict[str, int] = field(default_factory=dict)

    def add(
        self,
        key: str,
        kind: str,
        location: str,
        start: int,
        end: int,
        *,
        ctx: _Ctx | None = None,
        ayat: str | None = None,
        huruf: str | None = None,
        indexed: bool = True,
        parent_key: str | None = None,
        heading_path: tuple[str, ...] = (),
        defines: tuple[str, ...] = (),
        deleted: bool = False,
        amend_pasal: str | None = None,
        amend_law: str | None = None,
        example: bool | None = None,
    ) -> str | None:
        s, e = trim(self.text, start, end)
        if s >= e:
            return None
        n = self.keys.get(key, 0) + 1
        self.keys[key] = n
        if n > 1:
            key = f"{key}~{n}"
        t = self.text[s:e]
        pasal = ctx.pasal if ctx else None
        law = amend_law or (ctx.law if ctx else None)
        amends = None
        target_pasal = amend_pasal or pasal
        if law and target_pasal and not (ctx and ctx.penjelasan):
            amends = AmendTarget(
                law=law,
                pasal=target_pasal,
                effective_from=None if deleted else effective_date(t),
                deleted=deleted,
            )
        refs = _references(t, pasal, law, skip_heading=kind in ("pasal", "penjelasan")) if indexed else ()
        if example is None:
            example = looks_like_example(t) if kind not in ("preamble", "closing") else False
        self.chunks.append(
            ParsedChunk(
                key=key,
                kind=kind,
                location=location,
                text=t,
                start=s,
                end=e,
                parent_key=parent_key if parent_key is not None else (ctx.parent_key if ctx else None),
                pasal=amend_pasal if amend_pasal else pasal,
                ayat=ayat,
                huruf=huruf,
                heading_path=heading_path or (ctx.heading_path if ctx else ()),
                indexed=indexed,
                is_example=example,
                defines=defines,
                references=refs,
                amends=amends,
            )
        )
        return key

    def add_packed(self, key: str, kind: str, location: str, start: int, end: int, **kw: Any) -> str | None:
        """One chunk if small enough, else a structure node plus ``part-N`` children."""
        s, e = trim(self.text, start, end)
        if s >= e:
            return None
        # an annex part is an example by the lettered section it lies in, not by a "Contoh" in its title
        annex = AnnexSections.of(self.text, s, e) if kind == "lampiran" else None
        if annex is not None:
            kw["example"] = annex.is_example(s, e)
        if e - s <= LEAF_MAX and "table" not in kind:
            parts = pack(self.text, s, e, LEAF_MAX)
            if not any(tbl for _, _, tbl in parts):
                return self.add(key, kind, location, s, e, **kw)
        parts = pack(self.text, s, e)
        if len(parts) == 1:
            ps, pe, tbl = parts[0]
            return self.add(key, "table" if tbl else kind, location, ps, pe, **kw)
        node = self.add(key, kind, location, s, e, indexed=False, **kw)
        kw.pop("parent_key", None)
        example = False
        for i, (ps, pe, tbl) in enumerate(parts, 1):
            if annex is not None:
                kw["example"] = annex.is_example(ps, pe)
            k = self.add(
                f"{node}/part-{i}", "table" if tbl else kind, location, ps, pe, parent_key=node, **kw
            )
            example = example or looks_like_example(self.text[ps:pe])
            if k and example and not self.chunks[-1].is_example and kind == "penjelasan":
                # parts following "Contoh:" in an elucidation continue the example
                c = self.chunks[-1]
                self.chunks[-1] = ParsedChunk(**{**c.__dict__, "is_example": True})
        return node


# what may stand between a Pasal reference and the act it belongs to: more of the same citation
# ("Pasal 4 ayat (2) dan Pasal 15 Undang-Undang ...")
_REF_CHAIN = re.compile(
    r"(?:[ \t\n]*(?:,|dan|atau|serta|sampai[ \t\n]+dengan)?[ \t\n]*"
    r"(?:Pasal[ \t\n]+[0-9IVX]+[A-Z]?\b|ayat[ \t\n]*\(\w{1,3}\)|huruf[ \t\n]+[a-z]{1,2}\b"
    r"|angka[ \t\n]+\d{1,2}\b))*"
    r"[ \t\n]*,?[ \t\n]*",
    re.IGNORECASE,
)
# an act named by its kind, right after the citation: "Undang-Undang Pajak Penghasilan", "Peraturan Pemerintah
# ini", "Peraturan Menteri Keuangan Nomor ..." (never "Undang-Undang Dasar", handled on its own)
_ACT_NAMED = re.compile(
    r"(?:Undang[ \t]*-?[ \t\n]*Undang(?![ \t\n]+Dasar)|Peraturan[ \t\n]+(?:Pemerintah|Menteri|Direktur)"
    r"|Keputusan[ \t\n]+(?:Menteri|Direktur))\b"
)
_OWN_ACT = re.compile(r"(?:[ \t\n]+\w+){0,2}?[ \t\n]+ini\b")
#: prefix of a ``Reference.doc`` that is an act named without its number ("name:undang-undang pajak
#: penghasilan ..."): the corpus linker resolves it through the definitions of the acts' short names
ACT_NAME_PREFIX = "name:"


def _named_act(t: str, end: int, docs: list[Any]) -> str | None:
    """The act a Pasal citation ending at ``end`` names right after itself, when it names one.

    ``""`` for the chunk's own act ("... Pasal 5 Peraturan Pemerintah ini"), ``None`` when no act is named
    there or when the name carries its number (the numbered reference is read as before), else
    ``"name:<the words that follow>"``.
    """
    chain = _REF_CHAIN.match(t, end)
    at = chain.end() if chain else end
    m = _ACT_NAMED.match(t, at)
    if not m:
        return None
    if any(d.start == at for d in docs):
        return None
    if _OWN_ACT.match(t, m.end()):
        return ""
    words = re.split(r"[.;:,()]", t[at : at + 160], maxsplit=1)[0]
    return ACT_NAME_PREFIX + re.sub(r"\s+", " ", words).strip()


def _references(t: str, pasal: str | None, law: str | None, skip_heading: bool) -> tuple[Reference, ...]:
    """Cross-references written in a chunk: same-Pasal ayat, Pasal (maybe of another law), documents.

    A Pasal followed by the name of an act without its number ("Pasal 26 ayat (4) Undang-Undang Pajak
    Penghasilan") belongs to that act, never to the citing one: ``doc`` is then ``"name:..."``.
    """
    out: list[Reference] = []
    docs = find_doc_refs(t)
    provs = find_provision_refs(t)
    spans = []
    for pr in provs:
        spans.append((pr.start, pr.end))
        if (
            skip_heading
            and pr.start <= 1
            and re.match(r"\s*(?:\n|\(|$|Ayat|Cukup)", t[pr.end : pr.end + 6] or "\n")
        ):
            continue  # the chunk's own heading "Pasal 7"
        # an act named right after the Pasal ("" for "... Undang-Undang ini": the chunk's own act, the
        # restated law's inside an amending act), else the next act number within the sentence
        doc = _named_act(t, pr.end, docs)
        if doc is None:
            for d in docs:
                if (
                    d.start >= pr.end
                    and d.start - pr.end <= 250
                    and not re.search(r"[.;]\s", t[pr.end : d.start])
                ):
                    doc = d.key
                    break
                if d.start >= pr.end:
                    break
        if doc is None and re.match(r"\s*Undang-Undang\s+Dasar", t[pr.end : pr.end + 40]):
            doc = "UUD 1945"
        out.append(
            Reference(
                "pasal",
                pasal=pr.pasal,
                ayat=pr.ayat,
                huruf=pr.huruf,
                doc=doc or law,
                text=t[pr.start : pr.end],
            )
        )
    for m in _AYAT_REF.finditer(t):
        if any(s <= m.start() < e for s, e in spans):
            continue
        out.append(
            Reference("ayat", pasal=pasal, ayat=m.group(1), huruf=m.group(2), doc=law, text=m.group(0))
        )
    for d in docs:
        out.append(Reference("doc", doc=d.key, text=d.text))
    seen: set[tuple[str, str | None, str | None, str | None, str | None]] = set()
    uniq = []
    for r in out:
        k = (r.kind, r.pasal, r.ayat, r.huruf, r.doc)
        if k not in seen:
            seen.add(k)
            uniq.append(r)
    return tuple(uniq)


@dataclass(frozen=True)
class _Heading:
    pos: int
    end: int  # end of the heading token
    kind: str  # "bab" | "bagian" | "paragraf" | "pasal"
    value: str
    label: str
    standalone: bool = False
    suffix: str = ""
    #: read by ``_PASAL_SEQ`` only: a heading only when it is exactly the next Pasal number expected
    confirm: bool = False


def _row_free_cuts(text: str, start: int, end: int) -> list[int]:
    """Where a stretch of a rate table between two row cuts starts its parts: at ``start``, and where
    :func:`pack` cuts it when it is longer than a part may be (no readable row to cut at)."""
    if end - start <= LEAF_MAX:
        return [start]
    return [start, *(ps for ps, _, _ in pack(text, start, end)[1:])]


class RegulationChunker:
    """Chunks one regulation text; create one per document (it keeps per-document state)."""

    def __init__(self, text: str, meta: DocumentMeta) -> None:
        self.text = text
        self.meta = meta
        self.own = key_from_doc_id(meta.id) or _own_key(meta)
        self.b = _Builder(text)
        # (top pasal, angka, restated pasal) seen in the body, used to read the Penjelasan
        self.restated: set[tuple[str, str | None, str]] = set()
        self.amending_tops: dict[str, str] = {}  # top pasal -> amended law
        self.pasal_found: set[str] = set()
        #: key prefix of the Pasal being chunked: "" for the act's own body, "lampiran/" for an annexed act's
        self.key_prefix = ""

    # ----------------------------------------------------------------- regions
    def run(self) -> list[ParsedChunk]:
        text = self.text
        n = len(text)
        closing = _CLOSING.search(text)
        cs = closing.start() if closing else n
        pen = _PENJELASAN.search(text, cs) if closing else None
        lam = _LAMPIRAN.search(text, cs) if closing else None
        ps = pen.start() if pen else n
        ls = lam.start() if lam else n
        heads = self._body_headings(0, cs)
        body_start = next((h.pos for h in heads if h.kind in ("bab", "pasal")), cs)
        self._preamble(0, body_start)
        self._body(heads, cs)
        self._region_closing(cs, min(ps, ls))
        if lam:
            # before the elucidation: an annexed act's amending Pasal tell it which laws it explains
            lam_end = ps if ps > ls else n
            if not self._annexed_act(ls, lam_end) and not self._rate_tables(ls, lam_end):
                self.b.add_packed("lampiran", "lampiran", "Lampiran", ls, lam_end)
        if pen:
            self._penjelasan(ps, ls if ls > ps else n)
        chunks = sorted(self.b.chunks, key=lambda c: (c.start, -c.end))
        return chunks

    def _annexed_act(self, start: int, end: int) -> bool:
        """Chunk an annex that is an act of its own, Pasal by Pasal; False when the annex is not one.

        A UU that enacts a Perppu (UU 6/2023 for Perppu 2/2022) annexes the Perppu's whole text: its title
        block, its body (whose amending Pasal restate Pasal of other laws) and its own closing.  The body is
        chunked like the act's own body, under ``lampiran/`` keys; the Perppu's elucidation follows the annex
        and is read by ``_penjelasan`` as usual.
        """
        text = self.text
        if not _ANNEXED_PERPU.search(text, start, min(end, start + 1500)):
            return False
        closing = _CLOSING.search(text, start, end)
        a_cs = closing.start() if closing else end
        heads = self._body_headings(start, a_cs)
        if not any(h.kind == "pasal" for h in heads):
            return False
        first = next((h.pos for h in heads if h.kind in ("bab", "bagian", "pasal")), a_cs)
        self.b.add_packed("lampiran", "lampiran", "Lampiran", start, first)
        self.key_prefix = "lampiran/"
        try:
            self._body(heads, a_cs)
        finally:
            self.key_prefix = ""
        if a_cs < end:
            self.b.add_packed("lampiran/penutup", "closing", "Penutup Lampiran", a_cs, end)
        return True

    def _rate_tables(self, start: int, end: int) -> bool:
        """Chunk an annex of rate tables section by section, each table cut only between its rows; False when
        the annex has no lettered section that is a table of rates by bracket of an amount.

        PP 58/2023's annex holds four tables ("A. TARIF EFEKTIF BULANAN KATEGORI A", B, C and the daily
        rates), 22,000 characters packed into 15 parts that began and ended anywhere: most parts named no
        category, and a row cut between two parts ("di atas Rp7.500.000,00 ..." | "sampai dengan
        Rp8.550.000,00 ... 1,5%") stated its bracket in neither.  Each table is now "Lampiran huruf A" (its
        heading in the passage's heading path, so the search reads the category), cut into parts of whole
        rows, and the answer quotes the row that holds the asked amount (``kb.brackets``).
        """
        text = self.text
        heads = annex_headings(text, start, end)
        sections = [
            (pos, heads[i + 1][0] if i + 1 < len(heads) else end, heading)
            for i, (pos, heading) in enumerate(heads)
        ]
        if not any(bracket_rows(text[s:e]) for s, e, _ in sections):
            return False
        node = self.b.add("lampiran", "lampiran", "Lampiran", start, end, indexed=False)
        self.b.add_packed("lampiran/judul", "lampiran", "Lampiran", start, sections[0][0], parent_key=node)
        for s, e, heading in sections:
            letter = heading.strip()[0]
            key, location, path = (
                f"lampiran/huruf-{letter.lower()}",
                f"Lampiran huruf {letter}",
                (squash(heading),),
            )
            rows = bracket_rows(text[s:e])
            if not rows:
                self.b.add_packed(key, "lampiran", location, s, e, parent_key=node, heading_path=path)
                continue
            cuts = [s]
            for row in rows[1:]:
                if s + row.start - cuts[-1] > PACK_TARGET:
                    cuts.append(s + row.start)
            # where the scan left no readable row for long, the stretch is packed at its lines as elsewhere
            cuts = [c for a, b in zip(cuts, [*cuts[1:], e], strict=True) for c in _row_free_cuts(text, a, b)]
            bounds = [*cuts, e]
            if len(cuts) == 1:
                self.b.add(key, "lampiran", location, s, e, parent_key=node, heading_path=path)
                continue
            section = self.b.add(
                key, "lampiran", location, s, e, parent_key=node, heading_path=path, indexed=False
            )
            for i in range(len(cuts)):
                self.b.add(
                    f"{section}/part-{i + 1}",
                    "lampiran",
                    location,
                    bounds[i],
                    bounds[i + 1],
                    parent_key=section,
                    heading_path=path,
                )
        return True

    def _preamble(self, start: int, end: int) -> None:
        text = self.text
        marks = [("judul", "Judul", start)]
        for key, label, rx in (
            ("menimbang", "Menimbang", r"\bMenimbang\b"),
            ("mengingat", "Mengingat", r"\bMengingat\b"),
            ("menetapkan", "Menetapkan", r"\bMEMUTUSKAN\b|\bMenetapkan\b"),
        ):
            m = re.compile(rx).search(text, marks[-1][2], end)
            if m:
                marks.append((key, label, m.start()))
        for i, (key, label, pos) in enumerate(marks):
            stop = marks[i + 1][2] if i + 1 < len(marks) else end
            self.b.add_packed(f"pembukaan/{key}", "preamble", label, pos, stop)

    def _region_closing(self, start: int, end: int) -> None:
        if start < end:
            self.b.add_packed("penutup", "closing", "Penutup", start, end)

    # ----------------------------------------------------------------- body headings
    def _body_headings(self, start: int, end: int) -> list[_Heading]:
        text = self.text
        heads: dict[int, _Heading] = {}
        for m in _BAB.finditer(text, start, end):
            numeral = m.group(1).replace(" ", "")
            heads[m.start()] = _Heading(m.start(), m.end(), "bab", numeral, "", suffix=m.group(2))
        for m in _BAGIAN.finditer(text, start, end):
            pos = m.start()
            heads.setdefault(pos, _Heading(pos, m.end(), "bagian", m.group(1) or m.group(2), ""))
        for m in _PARAGRAF.finditer(text, start, end):
            heads.setdefault(m.start(), _Heading(m.start(), m.end(), "paragraf", m.group(1), ""))
        for rx, standalone in (
            (_PASAL_STANDALONE, True),
            (_PASAL_LEAD_AYAT, True),
            (_PASAL_INLINE_AYAT, False),
            (_PASAL_AFTER_CAPS, False),
        ):
            for m in rx.finditer(text, start, end):
                p = parse_pasal_number(m.group(1))
                if p is None:
                    continue
                pos = m.start() + m.group(0).lower().index("pasal")
                if not standalone and _REF_WORDS.search(text[max(0, pos - 15) : pos]):
                    continue
                if pos not in heads:
                    heads[pos] = _Heading(pos, m.end(1), "pasal", p, "", standalone=standalone)
        for m in _PASAL_SEQ.finditer(text, start, end):
            p = parse_pasal_number(m.group("num"))
            pos = m.start("word")
            if p is None or _is_roman(p) or pos in heads:
                continue
            before = text[max(0, pos - 15) : pos]
            if _REF_WORDS.search(before) and not _LIST_END.search(before):
                continue  # "sebagaimana dimaksud dalam Pasal 12 ..."
            heads[pos] = _Heading(pos, m.end("num"), "pasal", p, "", confirm=True)
        ordered = sorted(heads.values(), key=lambda h: h.pos)
        out = []
        for i, h in enumerate(ordered):
            nxt = ordered[i + 1].pos if i + 1 < len(ordered) else end
            out.append(replace(h, label=self._label(h, nxt)))
        return out

    def _label(self, h: _Heading, nxt: int) -> str:
        if h.kind == "pasal":
            return f"Pasal {h.value}"
        text = self.text
        eol = text.find("\n", h.pos)
        eol = len(text) if eol < 0 else eol
        stop = min(eol, nxt)
        if not text[h.end : stop].strip():
            # "BAB II" alone: the title is on the following upper-case line(s)
            pos = stop
            while pos < nxt:
                e2 = text.find("\n", pos + 1)
                e2 = nxt if e2 < 0 else min(e2, nxt)
                line = text[pos:e2].strip()
                if not line or (h.kind == "bab" and line != line.upper()):
                    break
                stop = e2
                pos = e2
                if h.kind != "bab":
                    break
        return squash(text[h.pos : stop], 160)

    # ----------------------------------------------------------------- body
    def _body(self, heads: list[_Heading], end: int) -> None:
        text = self.text
        first_pasal = next((h for h in heads if h.kind == "pasal"), None)
        roman_mode = any(h.kind == "pasal" and h.value == "II" and h.standalone for h in heads) or bool(
            first_pasal
            and first_pasal.value == "I"
            and self._is_amending(text[first_pasal.end : first_pasal.end + 1500])
        )
        tops: list[tuple[_Heading, tuple[str, ...], str]] = []  # heading, heading path, pasal value
        cut: dict[int, int] = {}  # index in tops -> where that Pasal ends before a displaced heading block
        # heading pos -> the displaced Pasal that follows it (heading, heading path, value, chapter path)
        displaced: dict[int, tuple[_Heading, tuple[str, ...], str, dict[str, str]]] = {}
        path_before_bab: dict[str, str] = {}
        bab_pos = -1
        cur: tuple[int, str] | None = None
        amend = False
        bab_next = 1
        pending_bab = False
        path: dict[str, str] = {}
        for idx, h in enumerate(heads):
            if h.kind == "bab":
                n = roman_to_int(h.value)
                own = not h.suffix and n == bab_next
                if amend and not own:
                    continue
                if not amend and not own and n < bab_next - 1:
                    continue
                path_before_bab, bab_pos = path, h.pos
                path = {"bab": h.label}
                bab_next = n + 1
                pending_bab = True
                continue
            if h.kind in ("bagian", "paragraf"):
                if not amend:
                    if h.kind == "bagian":
                        path.pop("paragraf", None)
                    path[h.kind] = h.label
                continue
            p = h.value
            if roman_mode:
                if not _is_roman(p):
                    continue
            elif _is_roman(p):
                p = str(roman_to_int(p))
            v = _pval(p)
            following = text[h.end : h.end + 1500]
            if cur is None:
                ok = True
            elif amend:
                if roman_mode:
                    ok = v[0] == cur[0] + 1
                else:
                    ok = v[0] == cur[0] + 1 and (
                        pending_bab or self._is_amending(following) or self._own_next_pasal(h, p)
                    )
            else:
                ok = v > cur and (h.standalone or v[0] <= cur[0] + 2)
                if ok and v[0] > cur[0] + 2 and _sequence_resumes(heads[idx + 1 :], cur, v):
                    ok = False  # a stray "Pasal 31A" line (OCR, a cross-reference) amid Pasal 3, 4, 5 ...
            if not ok and not roman_mode and cur is not None and not h.confirm:
                # "Pasal 2T" after Pasal 26 (PP 55/2022): the suffix letter is a misread 7
                alt = _ocr_digit_reading(p)
                if (
                    alt is not None
                    and _pval(alt) == (cur[0] + 1, "")
                    and not _heading_follows(heads, idx, alt)
                ):
                    p, v, ok = alt, _pval(alt), not amend or pending_bab or self._is_amending(following)
            if ok and h.confirm:
                # only the very next number, and only when no ordinary heading of that number follows
                ok = v == ((cur[0] + 1, "") if cur else (1, "")) and not _heading_follows(heads, idx, p)
            if not ok:
                continue
            hp = (*tuple(path[k] for k in ("bab", "bagian", "paragraf") if k in path), f"Pasal {p}")
            if not amend and not roman_mode and cur is not None and v == (cur[0] + 2, ""):
                moved = self._displaced(heads, idx, str(cur[0] + 1))
                if moved is not None:
                    # "Pasal 55" displaced before Pasal 54: Pasal 54 keeps the chapter it belongs to, and the
                    # Pasal before it ends where the displaced block (its chapter title, if any) begins
                    cut[len(tops) - 1] = (
                        bab_pos if pending_bab and tops and bab_pos > tops[-1][0].pos else h.pos
                    )
                    displaced[moved[0]] = (
                        _Heading(moved[1], moved[1], "pasal", p, f"Pasal {p}"),
                        hp,
                        p,
                        path,
                    )
                    if pending_bab:
                        path = path_before_bab
                    continue
            tops.append((h, hp, p))
            cur = v
            pending_bab = False
            amend = self._is_amending(following)
            if h.pos in displaced:
                dh, dhp, dp, path = displaced.pop(h.pos)
                tops.append((dh, dhp, dp))
                cur = _pval(dp)
                amend = False
        for i, (h, hp, p) in enumerate(tops):
            e = tops[i + 1][0].pos if i + 1 < len(tops) else end
            e = min(e, cut.get(i, e))
            # a top-level Pasal ends where the next BAB heading of the act starts (kept out of its text)
            if i + 1 < len(tops):
                for hh in heads:
                    if (
                        h.pos < hh.pos < e
                        and hh.kind == "bab"
                        and hh.label
                        and hp
                        and hh.label == tops[i + 1][1][0]
                    ):
                        e = hh.pos
                        break
            self.pasal_found.add(p)
            if self._is_amending(text[h.end : h.end + 1500]):
                self._amending_pasal(h, e, p, hp)
            else:
                self._pasal(
                    h.pos, h.end, e, _Ctx(key=f"{self.key_prefix}pasal-{p}", pasal=p, heading_path=hp)
                )

    def _displaced(self, heads: list[_Heading], idx: int, want: str) -> tuple[int, int] | None:
        """Whether ``heads[idx]`` was displaced before the heading of Pasal ``want`` by a page break:
        (position of that heading, start of the displaced Pasal's body), else None.

        The next Pasal heading must be ``want`` with only page furniture between the two headings, and the
        displaced body is the first ayat (1) after ``want``'s own, before the next Pasal heading.
        """
        text = self.text
        later = [h for h in heads[idx + 1 :] if h.kind == "pasal"]
        if not later or later[0].value != want:
            return None
        nxt = later[0]
        if not _PAGE_FURNITURE.fullmatch(text, heads[idx].end, nxt.pos):
            return None
        stop = later[1].pos if len(later) > 1 else len(text)
        own = re.match(rf"[ \t]*{_AYAT_ONE}", text[nxt.end : nxt.end + 8])
        body = _AYAT_ONE_RESTART.search(text, nxt.end + (own.end() if own else 0), stop)
        return (nxt.pos, body.start()) if body else None

    def _own_next_pasal(self, h: _Heading, p: str) -> bool:
        """A standalone heading numbered right after an amending Pasal that no amendment item announces.

        Restated Pasal are announced by their item ("Ketentuan Pasal 38 diubah sehingga berbunyi sebagai
        berikut: Pasal 38"); the act's own next Pasal is not, even when it amends nothing (Perppu 2/2022
        Pasal 114 after the tax cluster's Pasal 113), and in an act's own body: PMK 11/2025's own Pasal 12
        to 21 were cut as parts of its amending Pasal 11, PP 9/2021's Pasal 7 to 11 as parts of its Pasal 6,
        and their rules were cited by the wrong Pasal (session 72).
        """
        if not h.standalone:
            return False
        before = self.text[max(0, h.pos - 600) : h.pos]
        return not re.search(rf"\bPasal\s+{re.escape(p)}\b", before)

    def _is_amending(self, following: str) -> bool:
        if not _AMEND_START.match(following):
            return False
        return bool(_AMEND_FORMULA.search(following)) and bool(find_doc_refs(following[:1000]))

    # ----------------------------------------------------------------- Pasal / ayat / huruf
    def _pasal(self, start: int, head_end: int, end: int, ctx: _Ctx) -> None:
        text = self.text
        ayats = find_ayat(text, head_end, end)
        first_ayat = ayats[0][0] if ayats else end
        items = find_items(text, head_end, first_ayat)
        is_def = (
            bool(items) and items[0][1] == "angka" and bool(_DEF_LEAD.search(text[head_end : items[0][0]]))
        )
        s, e = trim(text, start, end)
        if e - s <= PASAL_MAX and not is_def:
            self.b.add(ctx.key, "pasal", ctx.location(), s, e, ctx=ctx)
            return
        if not ayats:
            self._list(ctx.key, "pasal", ctx, "", start, head_end, end, None, definitions=is_def)
            return
        node = self.b.add(ctx.key, "pasal", ctx.location(), s, e, ctx=ctx, indexed=False)
        child = _Ctx(ctx.key, ctx.pasal, ctx.heading_path, node, ctx.law, ctx.via, ctx.penjelasan)
        lead_s, lead_e = trim(text, head_end, first_ayat)
        if lead_e > lead_s and not HEADING_RESIDUE.fullmatch(text, head_end, first_ayat):
            self.b.add_packed(f"{ctx.key}/pembuka", "pasal", ctx.location(), start, first_ayat, ctx=child)
        for i, (pos, a) in enumerate(ayats):
            a_end = ayats[i + 1][0] if i + 1 < len(ayats) else end
            self._ayat(child, a, pos, a_end)

    def _ayat(self, ctx: _Ctx, a: str, start: int, end: int) -> None:
        text = self.text
        key = f"{ctx.key}/ayat-{a}"
        loc = ctx.location(f" ayat ({a})")
        s, e = trim(text, start, end)
        items = find_items(text, s, e)
        is_def = bool(items) and items[0][1] == "angka" and bool(_DEF_LEAD.search(text[s : items[0][0]]))
        if e - s <= AYAT_MAX and not is_def:
            self.b.add(key, "ayat", loc, s, e, ctx=ctx, ayat=a)
            return
        self._list(key, "ayat", ctx, f" ayat ({a})", s, s, e, a, definitions=is_def)

    def _list(
        self,
        key: str,
        lead_kind: str,
        ctx: _Ctx,
        sub: str,
        start: int,
        content_start: int,
        end: int,
        ayat: str | None,
        definitions: bool = False,
    ) -> None:
        """A long Pasal/ayat: structure node + lead-in chunk + one chunk per top-level item."""
        text = self.text
        items = find_items(text, content_start, end)
        loc = ctx.location(sub)
        if not items:
            self.b.add_packed(key, lead_kind, loc, start, end, ctx=ctx, ayat=ayat)
            return
        s, e = trim(text, start, end)
        node = self.b.add(key, lead_kind, loc, s, e, ctx=ctx, ayat=ayat, indexed=False)
        child = _Ctx(ctx.key, ctx.pasal, ctx.heading_path, node, ctx.law, ctx.via, ctx.penjelasan)
        self.b.add_packed(f"{key}/pembuka", lead_kind, loc, start, items[0][0], ctx=child, ayat=ayat)
        for i, (pos, kind, v) in enumerate(items):
            i_end = items[i + 1][0] if i + 1 < len(items) else end
            word = "huruf" if kind == "huruf" else "angka"
            ikey = f"{key}/{word}-{v}"
            iloc = ctx.location(f"{sub} {word} {v}")
            if definitions and kind == "angka":
                ds, de = trim(text, pos, i_end)
                terms = defined_terms(text[ds:de])
                if de - ds <= LEAF_MAX:
                    self.b.add(ikey, "definition", iloc, ds, de, ctx=child, ayat=ayat, defines=terms)
                else:
                    self.b.add_packed(ikey, "definition", iloc, ds, de, ctx=child, ayat=ayat, defines=terms)
            else:
                self.b.add_packed(
                    ikey,
                    "huruf",
                    iloc,
                    pos,
                    i_end,
                    ctx=child,
                    ayat=ayat,
                    huruf=v if kind == "huruf" else None,
                )

    # ----------------------------------------------------------------- amending acts
    def _amending_pasal(self, h: _Heading, end: int, top: str, hp: tuple[str, ...]) -> None:
        text = self.text
        intro = text[h.end : min(end, h.end + 1500)]
        law = amended_law(intro)
        self.amending_tops[top] = law
        ctx = _Ctx(key=f"{self.key_prefix}pasal-{top}", pasal=top, heading_path=hp)
        node = self.b.add(ctx.key, "pasal", ctx.location(), h.pos, end, ctx=ctx, indexed=False)
        items = self._amend_items(h.end, end)
        first = items[0][2] if items else None
        if first is None:
            # a single change without numbered items: the body is the one "item"
            first_restated = self._restated_heads(h.end, end)
            intro_end = first_restated[0][0] if first_restated else end
            self.b.add_packed(
                f"{ctx.key}/pembuka", "pasal", ctx.location(), h.pos, intro_end, ctx=ctx, parent_key=node
            )
            self._amend_item(top, None, law, h.pos, end, node, hp, intro_end)
            return
        self.b.add_packed(
            f"{ctx.key}/pembuka", "pasal", ctx.location(), h.pos, first, ctx=ctx, parent_key=node
        )
        for i, (pos, n, _) in enumerate(items):
            i_end = items[i + 1][2] if i + 1 < len(items) else end
            self._amend_item(top, n, law, pos, i_end, node, hp, None)

    def _amend_items(self, start: int, end: int) -> list[tuple[int, str, int]]:
        """Numbered amendment items ("3. Ketentuan Pasal 7 diubah ..."), in sequence, as (start, number,
        end of the previous item): start and end differ only where the scrape repeated the item's opening
        after an ellipsis.

        OCR drops item numbers ("... daerah. Ketentuan Pasal 7 diubah sehingga ..."): such an
        unnumbered item is accepted when its clause carries an amending verb, and takes the
        expected number.
        """
        cands: list[tuple[int, int, int | None]] = []  # pos, keyword pos, number
        for m in _ITEM_AMEND.finditer(self.text, start, end):
            cands.append((m.start(1), m.end(), int(m.group(1).replace(" ", ""))))
        numbered_kw = {kw for _, kw, _ in cands}
        for m in _ITEM_UNNUMBERED.finditer(self.text, start, end):
            if m.start() not in numbered_kw:
                cands.append((m.start(), m.start(), None))
        cands.sort()
        out: list[tuple[int, str, int]] = []
        expected = 1
        for pos, kw, n in cands:
            if n is not None and not expected <= n <= expected + 2:
                continue  # OCR sometimes drops an item number: tolerate a small gap
            head = self.text[kw : kw + 500]
            again = _REPEATED_OPENING.match(head)
            if again:
                head = head[again.end() :]
            stop = re.search(r"[:]|\.\s", head)
            clause = head[: stop.end() if stop else 500]
            if not _AMEND_VERB.search(clause):
                continue
            if n is None:
                # the first item may have lost its number too when it directly follows "... berikut:"
                first_ok = not out and re.search(r"berikut\s*:\s*$", self.text[max(start, pos - 12) : pos])
                if not (out or first_ok) or not re.search(r"berikut\s*:|dihapus\.", clause):
                    continue
                n = expected
            if again and int(again.group("again")) == n:
                out.append((kw + again.start("again"), str(n), pos))
            else:
                out.append((pos, str(n), pos))
            expected = n + 1
        return out

    def _restated_heads(self, start: int, end: int) -> list[tuple[int, int, str]]:
        text = self.text
        found: dict[int, tuple[int, int, str]] = {}
        for rx in (_PASAL_STANDALONE, _PASAL_LEAD_AYAT, _PASAL_INLINE_AYAT):
            for m in rx.finditer(text, start, end):
                p = parse_pasal_number(m.group(1))
                if p is None or _is_roman(p):
                    continue
                pos = text.index("Pasal", m.start())
                if rx is _PASAL_INLINE_AYAT and _REF_WORDS.search(text[max(0, pos - 15) : pos]):
                    continue
                found.setdefault(pos, (pos, m.end(1), p))
        heads = sorted(found.values())
        # page-header duplicates: "Pasal 44D\nPasal 44D (1) ..." -> keep the second
        out: list[tuple[int, int, str]] = []
        for hd in heads:
            if out and out[-1][2] == hd[2] and not text[out[-1][1] : hd[0]].strip():
                out[-1] = (out[-1][0], hd[1], hd[2])
                continue
            out.append(hd)
        return out

    def _amend_item(
        self,
        top: str,
        n: str | None,
        law: str,
        start: int,
        end: int,
        parent: str | None,
        hp: tuple[str, ...],
        intro_end: int | None,
    ) -> None:
        text = self.text
        item_key = f"{self.key_prefix}pasal-{top}" + (f"/angka-{n}" if n else "")
        via = f"Pasal {top} angka {n} {self.own}" if n else f"Pasal {top} {self.own}"
        item_hp = hp + ((f"angka {n}",) if n else ())
        heads = self._restated_heads(start, end)
        if n is None:
            # a single change without numbered items starts at the act's own heading: not a restated Pasal
            heads = [hd for hd in heads if hd[0] != start]
        if not heads:
            m = _DELETED.search(text, start, min(end, start + 300))
            loc = f"Pasal {top} angka {n}" if n else f"Pasal {top}"
            ctx = _Ctx(key=item_key, pasal=top, heading_path=item_hp, parent_key=parent)
            p = parse_pasal_number(m.group(1)) if m else None
            if p is not None:
                self.b.add_packed(
                    item_key,
                    "pasal",
                    f"Pasal {p} {law} ({via})",
                    start,
                    end,
                    ctx=ctx,
                    deleted=True,
                    amend_pasal=p,
                    amend_law=law,
                )
                self.restated.add((top, n, p))
            else:
                self.b.add_packed(item_key, "pasal", loc, start, end, ctx=ctx)
            return
        if n:
            node = self.b.add(
                item_key,
                "pasal",
                f"Pasal {top} angka {n}",
                start,
                end,
                ctx=_Ctx(key=item_key, pasal=top, heading_path=item_hp, parent_key=parent),
                indexed=False,
            )
        else:
            node = parent
        for i, (hs, he, p) in enumerate(heads):
            e = heads[i + 1][0] if i + 1 < len(heads) else end
            self.restated.add((top, n, p))
            ctx = _Ctx(
                key=f"{item_key}/pasal-{p}",
                pasal=p,
                heading_path=(*item_hp, f"Pasal {p} {law}"),
                parent_key=node,
                law=law,
                via=via,
            )
            self._pasal(hs, he, e, ctx)

    # ----------------------------------------------------------------- penjelasan
    def _penjelasan(self, start: int, end: int) -> None:
        text = self.text
        pdp = _PASAL_DEMI_PASAL.search(text, start, end)
        marks = self._pen_marks(pdp.end() if pdp else start, end)
        umum_end = pdp.start() if pdp else (marks[0][0] if marks else end)
        self.b.add_packed("penjelasan/umum", "penjelasan", "Penjelasan Umum", start, umum_end)
        top: str | None = None
        angka: str | None = None
        roman_mode = any(_is_roman(m[2]) for m in marks if m[1] == "pasal")
        units: list[tuple[int, int, _Ctx]] = []
        for i, (pos, kind, v, _hend) in enumerate(marks):
            nxt = marks[i + 1] if i + 1 < len(marks) else None
            u_end = nxt[0] if nxt else end
            if kind == "angka":
                if top is None:
                    continue
                angka = v
                ctx = _Ctx(
                    f"penjelasan/pasal-{top}/angka-{v}", top, (f"Pasal {top}", f"angka {v}"), penjelasan=True
                )
                units.append((pos, u_end, ctx))
                continue
            p = v
            next_is_angka = nxt is not None and nxt[1] == "angka" and nxt[2] == "1"
            if roman_mode and _is_roman(p):
                top, angka = p, None
                units.append((pos, u_end, _Ctx(f"penjelasan/pasal-{p}", p, (f"Pasal {p}",), penjelasan=True)))
                continue
            if not roman_mode and _is_roman(p):
                p = str(roman_to_int(p))
            law = self.amending_tops.get(top) if top else None
            if next_is_angka and not roman_mode:
                top, angka = p, None
                units.append((pos, u_end, _Ctx(f"penjelasan/pasal-{p}", p, (f"Pasal {p}",), penjelasan=True)))
                continue
            restated = bool(law) and any(t == top and rp == p for t, _, rp in self.restated)
            # inside an amending Pasal's block, a Pasal the act itself lacks belongs to the amended law
            foreign = bool(law) and p not in self.pasal_found and p not in self.amending_tops
            if top is not None and (roman_mode or restated or foreign):
                via = f"Pasal {top} angka {angka} {self.own}" if angka else f"Pasal {top} {self.own}"
                key = (
                    f"penjelasan/pasal-{top}/angka-{angka}/pasal-{p}"
                    if angka
                    else f"penjelasan/pasal-{top}/pasal-{p}"
                )
                units.append(
                    (
                        pos,
                        u_end,
                        _Ctx(
                            key,
                            p,
                            (f"Pasal {top}", f"angka {angka}", f"Pasal {p}"),
                            law=law or "?",
                            via=via,
                            penjelasan=True,
                        ),
                    )
                )
                continue
            top, angka = (None, None)
            units.append((pos, u_end, _Ctx(f"penjelasan/pasal-{p}", p, (f"Pasal {p}",), penjelasan=True)))
        for s, e, ctx in units:
            self._pen_unit(ctx, s, e)

    @staticmethod
    def _pen_location(ctx: _Ctx) -> str:
        last = ctx.key.rsplit("/", 1)[-1]
        if last.startswith("angka-"):
            return f"Penjelasan Pasal {ctx.pasal} angka {last[len('angka-') :]}"
        return ctx.location()

    def _pen_marks(self, start: int, end: int) -> list[tuple[int, str, str, int]]:
        text = self.text
        found: dict[int, tuple[int, str, str, int]] = {}
        for m in _PEN_PASAL.finditer(text, start, end):
            p = parse_pasal_number(m.group(1))
            if p is not None:
                pos = text.index("Pasal", m.start())
                found.setdefault(pos, (pos, "pasal", p, m.end(1)))
        if self.amending_tops:
            for m in _PEN_TOP_INLINE.finditer(text, start, end):
                p = parse_pasal_number(m.group(1))
                if p is not None and p in self.amending_tops:
                    found.setdefault(m.start(), (m.start(), "pasal", p, m.end(1)))
            for m in _PEN_PASAL_AFTER_ANGKA.finditer(text, start, end):
                p = parse_pasal_number(m.group(2))
                if p is not None:
                    found.setdefault(m.start(1), (m.start(1), "pasal", p, m.end(2)))
            for m in _PEN_ANGKA_INLINE.finditer(text, start, end):
                found.setdefault(m.start(), (m.start(), "angka", m.group(1) or m.group(2), m.end()))
        for m in _PEN_ANGKA.finditer(text, start, end):
            pos = text.index("Angka", m.start())
            found.setdefault(pos, (pos, "angka", m.group(1), m.end(1)))
        for m in loose_elucidation_headings(text, start, end):
            if m.start() in found:
                continue
            prev = max((mk for mk in found.values() if mk[1] == "pasal" and mk[0] < m.start()), default=None)
            if prev is not None and _next_pasal(prev[2], m.group(1)):
                found[m.start()] = (m.start(), "pasal", m.group(1), m.end(1))
        marks = sorted(found.values())
        # keep Angka markers in sequence within their top Pasal; a source may lack one marker (UU 9/1994
        # has no "Angka 8"), so the next but one is accepted too
        out = []
        expect = None
        for mk in marks:
            if mk[1] == "angka":
                if (expect is None or not expect <= int(mk[2]) <= expect + 1) and mk[2] != "1":
                    continue
                expect = int(mk[2]) + 1
            out.append(mk)
        return out

    def _pen_unit(self, ctx: _Ctx, start: int, end: int) -> None:
        text = self.text
        s, e = trim(text, start, end)
        if s >= e:
            return
        head = re.match(rf"(?:Pasal[ \t]+{_NUM}|Angka[ \t]+\d+)\s*", text[s:e])
        if head and head.end() >= e - s:
            return  # a bare heading ("Pasal I") with nothing to explain
        if e - s <= PASAL_MAX:
            self.b.add(ctx.key, "penjelasan", self._pen_location(ctx), s, e, ctx=ctx)
            return
        ayats = []
        cur = None
        for m in _PEN_AYAT.finditer(text, s, e):
            val = ayat_value(m.group(1))
            if cur is None or val > cur:
                ayats.append((m.start(), m.group(1)))
                cur = val
        if not ayats:
            self.b.add_packed(ctx.key, "penjelasan", ctx.location(), s, e, ctx=ctx)
            return
        node = self.b.add(ctx.key, "penjelasan", ctx.location(), s, e, ctx=ctx, indexed=False)
        child = _Ctx(ctx.key, ctx.pasal, ctx.heading_path, node, ctx.law, ctx.via, True)
        lead_s, lead_e = trim(text, s, ayats[0][0])
        if head is None or lead_e - lead_s > head.end() + 2:
            self.b.add_packed(f"{ctx.key}/pembuka", "penjelasan", ctx.location(), lead_s, lead_e, ctx=child)
        for i, (pos, a) in enumerate(ayats):
            a_end = ayats[i + 1][0] if i + 1 < len(ayats) else e
            self.b.add_packed(
                f"{ctx.key}/ayat-{a}",
                "penjelasan",
                ctx.location(f" ayat ({a})"),
                pos,
                a_end,
                ctx=child,
                ayat=a,
            )


def _own_key(meta: DocumentMeta) -> str:
    year = meta.enacted.year if meta.enacted else None
    if year and meta.number:
        try:
            return canonical_key(meta.type, meta.number, year)
        except ValueError:
            pass
    return meta.short_title or meta.id


def chunk_regulation(text: str, meta: DocumentMeta) -> list[ParsedChunk]:
    """Chunk one regulation text (see module docstring); pure and deterministic."""
    chunker = RegulationChunker(text, meta)
    chunks = chunker.run()
    logger.info(
        "doc_id=%s, chunks=%d, pasal=%d | regulation chunked", meta.id, len(chunks), len(chunker.pasal_found)
    )
    return chunks
