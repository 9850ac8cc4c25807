"""Regulation references: recognise the many ways a regulation is written, reduce them to one key.

Indonesian regulations are cited as "Undang-Undang Nomor 36 Tahun 2008", "UU 36/2008",
"PMK-168/PMK.010/2023", "Peraturan Menteri Keuangan Nomor 168 Tahun 2023", "PER-03/PJ/2022", ...
Every one of them reduces to a canonical short key ``"<TYPE> <number>/<year>"`` (``"PMK 168/2023"``),
which is what documents, chunks and queries are matched on.  OCR noise in the corpus ("2O2l") is
tolerated only where it cannot create a false match (digits must still parse).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TYPE_WORDS: tuple[tuple[str, str], ...] = (
    (r"undang[\s-]*undang|uu", "UU"),
    (r"peraturan\s+pemerintah\s+pengganti\s+undang[\s-]*undang|perppu|perpu", "PERPU"),
    (r"peraturan\s+pemerintah|pp", "PP"),
    (r"peraturan\s+menteri\s+keuangan|pmk", "PMK"),
    (r"peraturan\s+direktur\s+jenderal\s+pajak|perdirjen|per", "PER"),
    (r"surat\s+edaran\s+direktur\s+jenderal\s+pajak|surat\s+edaran|se", "SE"),
    (r"keputusan\s+menteri\s+keuangan|kmk", "KMK"),
    (r"keputusan\s+direktur\s+jenderal\s+pajak|kep", "KEP"),
)
_TYPE_ALT = "|".join(f"(?:{w})" for w, _ in _TYPE_WORDS)

# "Undang-Undang Nomor 36 Tahun 2008", "PP No. 55 Tahun 2022", "PMK Nomor 168/PMK.010/2023"
_LONG = re.compile(
    rf"\b(?P<type>{_TYPE_ALT})\s*(?:republik\s+indonesia\s+)?(?:nomor|no\.?)\s*"
    r"(?P<num>\d{1,4}[A-Z]?)(?:\s*/\s*[A-Z.\d]*?)?\s*(?:tahun\s+|/\s*)(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# "UU 36/2008", "PMK-168/PMK.010/2023", "PER-03/PJ/2022", "PP 55 2022"
_SHORT = re.compile(
    rf"\b(?P<type>{_TYPE_ALT})[\s.-]*(?P<num>\d{{1,4}}[A-Z]?)\s*(?:/\s*(?:[A-Z][A-Z.\d]*)\s*)?[/\s]\s*"
    r"(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DocRef:
    """A regulation reference found in text: canonical key plus where it was found."""

    key: str
    type: str
    number: str
    year: int
    start: int
    end: int
    text: str


def _type_of(word: str) -> str:
    w = re.sub(r"\s+", " ", word.strip().lower())
    for pattern, code in _TYPE_WORDS:
        if re.fullmatch(pattern, w, flags=re.IGNORECASE):
            return code
    return word.upper()


def canonical_key(doc_type: str, number: str | int, year: str | int) -> str:
    """``canonical_key("PMK", "068", 2023) == "PMK 68/2023"``."""
    num = str(number).strip().upper().lstrip("0") or "0"
    return f"{doc_type.upper()} {num}/{int(year)}"


def find_doc_refs(text: str) -> list[DocRef]:
    """All regulation references in ``text``, in order, without overlaps."""
    found: list[DocRef] = []
    taken: list[tuple[int, int]] = []
    for rx in (_LONG, _SHORT):
        for m in rx.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            code = _type_of(m.group("type"))
            key = canonical_key(code, m.group("num"), m.group("year"))
            found.append(
                DocRef(key, code, m.group("num"), int(m.group("year")), m.start(), m.end(), m.group(0))
            )
            taken.append((m.start(), m.end()))
    found.sort(key=lambda r: r.start)
    return found


def parse_doc_ref(text: str) -> str | None:
    """The canonical key of a single reference ("PMK-168/PMK.010/2023" -> "PMK 168/2023"), or None."""
    refs = find_doc_refs(text)
    return refs[0].key if refs else None


def key_from_doc_id(doc_id: str) -> str | None:
    """Corpus folder ids follow ``<type>-<number>-<year>``: ``"uu-36-2008" -> "UU 36/2008"``."""
    m = re.fullmatch(r"([a-z]+)-(\d+[a-z]?)-((?:19|20)\d\d)", doc_id)
    if not m:
        return None
    return canonical_key(m.group(1), m.group(2), m.group(3))


# "Pasal 23 ayat (1) huruf a", "Pasal 4A", "pasal 7 ayat 1"
PASAL_RE = re.compile(
    r"\bpasal\s+(?P<pasal>\d{1,3}[A-Z]?|[IVX]{1,5})\b"
    r"(?:\s+ayat\s*\(?\s*(?P<ayat>\d{1,2}[a-z]?)\s*\)?)?"
    r"(?:\s+huruf\s+(?P<huruf>[a-z]{1,2})\b)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ProvisionRef:
    pasal: str
    ayat: str | None
    huruf: str | None
    start: int
    end: int


def find_provision_refs(text: str) -> list[ProvisionRef]:
    """ "Pasal 7 ayat (1) huruf a" style references, normalised (Pasal letters upper-case)."""
    out = []
    for m in PASAL_RE.finditer(text):
        pasal = m.group("pasal")
        pasal = pasal.upper() if not pasal.isdigit() else pasal
        out.append(ProvisionRef(pasal, m.group("ayat"), (m.group("huruf") or None), m.start(), m.end()))
    return out
