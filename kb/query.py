"""Query understanding: turn a user's question into a deterministic retrieval plan.

dasar's users ask in Indonesian or English, name laws by nickname ("UU PPN"), tax types by
article ("PPh 23") and dates in every format ("Maret 2022", "as of 2015").  Retrieval needs the
opposite: canonical document keys to filter on, a transaction date to pick the version in force,
and BM25 terms in both languages.  :func:`understand` does that translation once, purely and
deterministically (same question -> same plan; it never looks at "today"), and records every
alias expansion it applied so ``--explain`` can show the user why a term was searched.

Decisions worth knowing:

* **Tokens mirror the index.**  The SQLite FTS5 index (kb/store/sqlite.py) uses
  ``unicode61 remove_diacritics 2 tokenchars '%'``: letters, digits and private-use characters
  are token characters (plus ``%`` and the Latin combining diacritics that the tokenizer strips),
  everything else separates; tokens are case-folded and Latin diacritics are removed.
  :func:`tokenize` reproduces that: "PMK-168" -> ``pmk``, ``168``; "11%" -> ``11%``;
  "PPh 4(2)" -> ``pph``, ``4``, ``2``; "Café" -> ``cafe``.  Checked code point by code point
  against SQLite 3.40: identical for U+0020-U+024F (Latin) except Ǡ/ǡ; the ~600 other BMP
  differences are characters whose Unicode data changed after 6.1 (SQLite's tables), none of
  which occur in the corpus.
* **Dates become a point in time.**  ``as_of`` is the first date written in the question that is
  not part of a regulation number.  A month ("Maret 2022") maps to its 1st day, a year ("tahun
  2019", "in 2019", bare "2019") to 1 January; ``as_of_precision`` says which ("day", "month",
  "year") so the caller can widen the window if it wants.  "sebelum/before X" maps to the day
  before X starts (precision "day"); "setelah/after X" to the day after X ends (X's precision).
  Numeric dates are day-first (15/03/2022); month-first is used only when day-first is
  impossible (03/15/2022).  No date written -> ``as_of`` is None.
* **"PPh 23" is two things.**  It is the tax type ``"PPh 23"`` *and* Pasal 23 of UU PPh
  (UU 7/1983), so the plan carries the tax type plus a :class:`Provision` hint with
  ``law="UU 7/1983"`` and ``origin="tax_type"``.
* **Names of laws resolve only when unambiguous.**  "UU PPN" -> "UU 8/1983" comes from a reviewed
  dictionary entry with ``doc``; "PP UMKM" has no ``doc`` because it meant PP 46/2013, PP 23/2018
  or PP 55/2022 depending on the date.
* **BM25 terms** are the question's tokens minus function words and minus the date phrase (the
  date is a filter, not a topic), then every alias expansion (multi-word aliases as phrases),
  deduplicated in first-seen order.

Errors (one branch of the kb tree in :mod:`kb.errors`)::

    KbError
    └── AliasError     aliases.yaml is missing, not YAML, or an entry is invalid
                       (names the file and the entry id)
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kb import lexicon as _lexicon
from kb.dates import MONTH_PATTERN, MONTHS
from kb.errors import KbError
from kb.model import Chunk
from kb.refs import ProvisionRef, canonical_key, find_doc_refs, find_provision_refs, key_from_doc_id

logger = logging.getLogger(__name__)

#: Canonical tax types, in the order plans list them.
TAX_TYPES: tuple[str, ...] = (
    "PPh 21",
    "PPh 22",
    "PPh 23",
    "PPh 25",
    "PPh 26",
    "PPh 4(2)",
    "PPh Final",
    "PPN",
    "PPnBM",
    "PBB",
    "Bea Meterai",
    "KUP",
)
#: Canonical key of UU PPh, the law whose articles name the PPh tax types.
UU_PPH = "UU 7/1983"
#: Base law of the tax types that users also cite by article ("PPN Pasal 7", "KUP Pasal 13").
_TAX_LAW: dict[str, str] = {
    "PPN": "UU 8/1983",
    "PPnBM": "UU 8/1983",
    "KUP": "UU 6/1983",
    "Bea Meterai": "UU 10/2020",
}
#: The tax every passage of an act is about, by the act's key, though its passages say only "pajak"
#: ("Terutangnya pajak terjadi pada saat: ... c. penyerahan Jasa Kena Pajak", UU PPN Pasal 11): the composer
#: reads a question's "PPN" as covered by that passage as by one that writes the tax out.  Wording restating
#: the act counts too (a chunk's ``base_doc``).  Session 57, a probe of our own ("Kapan PPN atas penyerahan
#: jasa terutang?").  The candidates' coverage reads it since session 60, except for a definition: with it
#: every UU PPN definition rose over the export rate for "Do we charge VAT on exported goods?"
#: (tests/kb/test_english_inflections.py).  UU PPh and UU Bea Meterai joined in session 60 ("Yang dikecualikan
#: dari objek pajak adalah:", UU PPh Pasal 4 ayat (3), covered no "penghasilan" of a question on exclusions).
ACT_TAX_NAMES: dict[str, str] = {
    _TAX_LAW["PPN"]: "Pajak Pertambahan Nilai",
    UU_PPH: "Pajak Penghasilan",
    _TAX_LAW["Bea Meterai"]: "Bea Meterai",
}


def act_tax_name(act_key: str | None) -> str:
    """The tax every passage of the act ``act_key`` is about, written out ("" when none is)."""
    return ACT_TAX_NAMES.get(act_key or "", "")


def passage_tax_name(act_key: str | None, pasal: str | None, ayat: str | None) -> str:
    """The tax a passage of ``act_key`` at ``pasal``/``ayat`` is about, written out: its act's tax and, in UU
    PPh, the tax type its article is (Pasal 26 -> "Pajak Penghasilan Pasal 26"; :func:`article_tax_type`).

    Why: UU PPh Pasal 26 ayat (1) ("dipotong pajak sebesar 20% ... a. dividen") never writes "Pasal 26", so
    a question on "tarif PPh 26 atas dividen" found it irrelevant and PP 94/2010's elucidation on when the tax
    on an interim dividend falls due led (session 60, a probe of our own)."""
    act = act_tax_name(act_key)
    article = article_tax_type(pasal, ayat) if act_key == UU_PPH else None
    if article is None:
        return act
    return f"Pajak Penghasilan Pasal {'4 ayat (2)' if article == 'PPh 4(2)' else pasal}"


def chunk_tax_name(chunk: Chunk) -> str:
    """:func:`passage_tax_name` of a passage: its law (the amended one for restated wording) and article."""
    return passage_tax_name(key_from_doc_id(chunk.base_doc), chunk.pasal, chunk.ayat)


#: Article (pasal, ayat) of UU PPh behind each numbered PPh tax type.
_TAX_TYPE_PROVISION: dict[str, tuple[str, str | None]] = {
    "PPh 21": ("21", None),
    "PPh 22": ("22", None),
    "PPh 23": ("23", None),
    "PPh 25": ("25", None),
    "PPh 26": ("26", None),
    "PPh 4(2)": ("4", "2"),
}


def article_tax_type(pasal: str | None, ayat: str | None) -> str | None:
    """The tax type UU PPh names by the article a passage of it is part of (Pasal 23 -> "PPh 23", Pasal 4
    ayat (2) -> "PPh 4(2)"): the reverse of the Pasal a tax type's name points at."""
    for tax_type, (p, a) in _TAX_TYPE_PROVISION.items():
        if p == pasal and a in (None, ayat):
            return tax_type
    return None


DEFAULT_ALIASES_PATH = Path(__file__).with_name("data") / "aliases.yaml"


class AliasError(KbError):
    """The alias dictionary is unusable; the message names the file and the entry to fix."""

    def __init__(self, path: Path | str, message: str, *, entry: str | None = None):
        self.path = str(path)
        self.entry = entry
        where = f"{self.path}: entry '{entry}'" if entry else self.path
        super().__init__(f"{where}: {message}")
        self.message = message


# --------------------------------------------------------------------------------------------
# Tokenisation (mirror of FTS5 unicode61 with remove_diacritics 2, tokenchars '%')
# --------------------------------------------------------------------------------------------

#: Combining marks SQLite's unicode61 treats as token characters and then strips (measured
#: against SQLite 3.40 FTS5: "e\u0301" -> "e", while e.g. U+0305 separates tokens).
_FTS_DIACRITICS = frozenset(
    (
        768,
        769,
        770,
        771,
        772,
        774,
        775,
        776,
        777,
        778,
        779,
        780,
        783,
        785,
        795,
        803,
        804,
        805,
        806,
        807,
        808,
        813,
        814,
        816,
        817,
    )
)
#: Extra token characters of the index (``tokenchars '%'``), so "11%" is one token.
TOKENCHARS = frozenset("%")


def _is_token_char(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "LN" or cat == "Co" or ch in TOKENCHARS or ord(ch) in _FTS_DIACRITICS


@functools.lru_cache(maxsize=4096)
def _fold(ch: str) -> str:
    """Case-fold one token character and strip its Latin diacritics, as unicode61 does."""
    code = ord(ch)
    if code < 128:
        return ch.lower()
    if code in _FTS_DIACRITICS:
        return ""
    if code >= 0x10000:  # SQLite folds the BMP only
        return ch
    folded = ch.casefold()
    if len(folded) != 1:  # "ß" stays "ß" (SQLite does not expand it), "İ" -> "i̇"
        folded = ch.lower()
    decomposed = unicodedata.normalize("NFD", folded)
    marks = decomposed[1:]
    if marks and decomposed[0].isascii() and all(ord(c) in _FTS_DIACRITICS for c in marks):
        return decomposed[0]  # remove_diacritics=2: "ǖ" (two marks) -> "u" as well
    return folded


def _token_spans(text: str) -> list[tuple[str, int, int]]:
    """Tokens with their character spans in ``text``."""
    out: list[tuple[str, int, int]] = []
    buf: list[str] = []
    start = -1
    for i, ch in enumerate(text):
        if _is_token_char(ch):
            if start < 0:
                start = i
            buf.append(_fold(ch))
        elif start >= 0:
            token = "".join(buf)
            if token:
                out.append((token, start, i))
            buf, start = [], -1
    if start >= 0:
        token = "".join(buf)
        if token:
            out.append((token, start, len(text)))
    return out


def tokenize(text: str) -> list[str]:
    """Split ``text`` exactly as the FTS5 index does (``unicode61 remove_diacritics 2 tokenchars '%'``).

    Why mirror the index: a query term that the index split differently can never match.
    ``tokenize("PMK-168/PMK.010/2023 tarif 2%") == ["pmk", "168", "pmk", "010", "2023", "tarif", "2%"]``.
    """
    return [t for t, _, _ in _token_spans(text)]


def _norm(term: str) -> tuple[str, ...]:
    return tuple(tokenize(term))


# --------------------------------------------------------------------------------------------
# Alias dictionary
# --------------------------------------------------------------------------------------------

_ENTRY_KEYS = frozenset(
    {"id", "terms", "doc", "tax_type", "governs", "case_sensitive", "note", "reviewed_by", "reviewed_on"}
)
#: the provision a term's rule sits in, as an alias entry writes it ("Pasal 7 UU 7/1983")
_GOVERNS = re.compile(r"Pasal\s+(\d+[A-Z]?)(?:\s+ayat\s+\((\w+)\))?\s+((?:UU|PP|PMK)\s+\d+/\d{4})")
_REQUIRED_KEYS = ("id", "terms", "reviewed_by", "reviewed_on")
_ID_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class AliasEntry:
    """One reviewed set of equivalent surface forms (see ``kb/data/aliases.yaml``)."""

    id: str
    terms: tuple[str, ...]
    reviewed_by: str
    reviewed_on: dt.date
    doc: str | None = None
    tax_type: str | None = None
    case_sensitive: tuple[str, ...] = ()
    note: str | None = None
    #: (pasal, ayat, law) of the provision that states the term's rule ("PTKP" -> Pasal 7 UU 7/1983): it joins
    #: the candidates of a question naming the term, as a tax type's Pasal does
    governs: tuple[str, str | None, str] | None = None


@dataclass(frozen=True)
class AliasMatch:
    """Where one alias term occurs in a question (character span into the original text)."""

    entry: AliasEntry
    term: str
    start: int
    end: int
    surface: str


class AliasDictionary:
    """Validated alias entries with a token-sequence index for longest-match lookup.

    Why token sequences: matching on tokens (not substrings) keeps "sewa" from firing inside
    "sewaktu" and makes "PPh Pasal 23", "pph pasal 23" and "PPh-Pasal 23" the same term.
    """

    def __init__(self, entries: Iterable[AliasEntry], *, source: str | Path = "aliases.yaml"):
        self.path = str(source)
        #: File name used in expansion sources ("aliases.yaml:pph-23").
        self.source_name = Path(self.path).name
        self._entries = tuple(entries)
        self._by_id: dict[str, AliasEntry] = {}
        self._index: dict[tuple[str, ...], tuple[AliasEntry, str]] = {}
        for entry in self._entries:
            if entry.id in self._by_id:
                raise AliasError(self.path, "duplicate id; every entry needs its own id", entry=entry.id)
            self._by_id[entry.id] = entry
            for term in entry.terms:
                key = _norm(term)
                if not key:
                    raise AliasError(self.path, f"term {term!r} has no letters or digits", entry=entry.id)
                if key in self._index:
                    other, other_term = self._index[key]
                    where = "twice in this entry" if other.id == entry.id else f"also in entry '{other.id}'"
                    raise AliasError(
                        self.path,
                        f"term {term!r} is the same as {other_term!r} {where} (after lower-casing and "
                        "dropping punctuation); keep it in one place",
                        entry=entry.id,
                    )
                self._index[key] = (entry, term)
        self._max_len = max((len(k) for k in self._index), default=0)

    # -- loading ---------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path | None = None) -> AliasDictionary:
        """Read and validate an alias file (default: ``kb/data/aliases.yaml``).

        Raises:
            AliasError: the file is missing, is not YAML, or an entry is invalid.
        """
        file = Path(path) if path is not None else DEFAULT_ALIASES_PATH
        try:
            raw = file.read_text(encoding="utf-8")
        except OSError as exc:
            raise AliasError(file, f"cannot read the alias file ({exc.strerror or exc})") from exc
        try:
            data = yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = f" at line {mark.line + 1}" if mark is not None else ""
            raise AliasError(file, f"not valid YAML{line}: {getattr(exc, 'problem', exc)}") from exc
        return cls.from_data(data, source=file)

    @classmethod
    def from_data(cls, data: Any, *, source: str | Path = "aliases.yaml") -> AliasDictionary:
        """Build from already-parsed YAML (``{"version": 1, "entries": [...]}``)."""
        path = str(source)
        if not isinstance(data, Mapping):
            raise AliasError(path, "top level must be a mapping with 'version' and 'entries'")
        unknown = sorted(set(data) - {"version", "entries"})
        if unknown:
            raise AliasError(path, f"unknown top-level key(s) {unknown}; allowed: version, entries")
        if data.get("version") != 1:
            raise AliasError(path, f"unsupported version {data.get('version')!r}; expected 1")
        items = data.get("entries")
        if not isinstance(items, list) or not items:
            raise AliasError(path, "'entries' must be a non-empty list")
        entries = [_parse_entry(path, i, item) for i, item in enumerate(items)]
        return cls(entries, source=path)

    # -- access ----------------------------------------------------------------------------

    @classmethod
    def empty(cls) -> AliasDictionary:
        """A dictionary with no entries: plans built with it search the user's own words only."""
        return cls((), source="(none)")

    @property
    def entries(self) -> tuple[AliasEntry, ...]:
        return self._entries

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """Every word of every term, lower-cased: what the reviewed aliases know."""
        terms = (term for entry in self._entries for term in entry.terms)
        return frozenset(w.lower() for term in terms for w in re.findall(r"\w+", term))

    def get(self, entry_id: str) -> AliasEntry:
        """The entry with ``entry_id`` (KeyError if there is none)."""
        return self._by_id[entry_id]

    def source_of(self, entry: AliasEntry) -> str:
        """Provenance label of an expansion: ``"aliases.yaml:<entry id>"``."""
        return f"{self.source_name}:{entry.id}"

    def find(self, text: str) -> list[AliasMatch]:
        """Leftmost-longest, non-overlapping alias matches in ``text``, in text order.

        Longest wins so "SPT Masa" is one concept, not "SPT" + "masa"; a token glued to a
        number ("PPh23") is split for matching only.
        """
        toks = _match_tokens(text)
        out: list[AliasMatch] = []
        i = 0
        while i < len(toks):
            hit: AliasMatch | None = None
            for n in range(min(self._max_len, len(toks) - i), 0, -1):
                found = self._index.get(tuple(t for t, _, _ in toks[i : i + n]))
                if found is None and n == 1:  # "exported": the dictionary lists "export"
                    found = next(
                        filter(None, (self._index.get((b,)) for b in english_bases(toks[i][0]))), None
                    )
                if found is None:
                    continue
                entry, term = found
                start, end = toks[i][1], toks[i + n - 1][2]
                tail = term[len(term.rstrip(")]")) :]  # "ayat (2)": include the closing bracket
                if tail and text.startswith(tail, end):
                    end += len(tail)
                surface = text[start:end]
                if term in entry.case_sensitive and " ".join(surface.split()) != term:
                    continue
                hit = AliasMatch(entry, term, start, end, surface)
                i += n
                break
            if hit is None:
                i += 1
            else:
                out.append(hit)
        return out


def _parse_entry(path: str, index: int, item: Any) -> AliasEntry:
    has_id = isinstance(item, Mapping) and isinstance(item.get("id"), str)
    label = item["id"] if has_id else f"#{index + 1}"
    if not isinstance(item, Mapping):
        raise AliasError(path, "each entry must be a mapping", entry=label)
    unknown = sorted(set(item) - _ENTRY_KEYS)
    if unknown:
        raise AliasError(path, f"unknown key(s) {unknown}; allowed: {sorted(_ENTRY_KEYS)}", entry=label)
    missing = [k for k in _REQUIRED_KEYS if item.get(k) in (None, "", [])]
    if missing:
        raise AliasError(path, f"missing or empty required key(s) {missing}", entry=label)
    entry_id = item["id"]
    if not isinstance(entry_id, str) or not _ID_RE.fullmatch(entry_id):
        raise AliasError(path, "id must be lower-case words joined by '-' (e.g. 'pph-23')", entry=str(label))
    terms = item["terms"]
    if not isinstance(terms, list) or not all(isinstance(t, str) and t.strip() for t in terms):
        raise AliasError(path, "terms must be a list of non-empty strings", entry=entry_id)
    if len(terms) < 2 and item.get("doc") is None:
        raise AliasError(path, "an alias entry needs at least two equivalent terms", entry=entry_id)
    doc = item.get("doc")
    if doc is not None:
        refs = find_doc_refs(str(doc))
        if not isinstance(doc, str) or len(refs) != 1 or refs[0].key != doc:
            raise AliasError(path, f"doc {doc!r} is not a canonical key like 'UU 8/1983'", entry=entry_id)
    tax_type = item.get("tax_type")
    if tax_type is not None and tax_type not in TAX_TYPES:
        raise AliasError(path, f"tax_type {tax_type!r} is not one of {list(TAX_TYPES)}", entry=entry_id)
    governs_text = item.get("governs")
    governs = None
    if governs_text is not None:
        gm = _GOVERNS.fullmatch(str(governs_text).strip())
        if gm is None:
            msg = f"governs {governs_text!r} is not a provision like 'Pasal 9 ayat (8) UU 8/1983'"
            raise AliasError(path, msg, entry=entry_id)
        governs = (gm.group(1), gm.group(2), gm.group(3))
    case_sensitive = item.get("case_sensitive") or []
    if not isinstance(case_sensitive, list) or any(t not in terms for t in case_sensitive):
        raise AliasError(
            path, "case_sensitive must list terms of this entry, spelled exactly", entry=entry_id
        )
    reviewed_on = item["reviewed_on"]
    if isinstance(reviewed_on, str):
        try:
            reviewed_on = dt.date.fromisoformat(reviewed_on)
        except ValueError as exc:
            msg = f"reviewed_on {reviewed_on!r} is not a YYYY-MM-DD date"
            raise AliasError(path, msg, entry=entry_id) from exc
    if not isinstance(reviewed_on, dt.date) or isinstance(reviewed_on, dt.datetime):
        raise AliasError(path, "reviewed_on must be a YYYY-MM-DD date", entry=entry_id)
    reviewed_by = item["reviewed_by"]
    if not isinstance(reviewed_by, str):
        raise AliasError(path, "reviewed_by must be a name", entry=entry_id)
    note = item.get("note")
    return AliasEntry(
        id=entry_id,
        terms=tuple(t.strip() for t in terms),
        reviewed_by=reviewed_by.strip(),
        reviewed_on=reviewed_on,
        doc=doc,
        tax_type=tax_type,
        governs=governs,
        case_sensitive=tuple(case_sensitive),
        note=str(note).strip() if note is not None else None,
    )


_GLUED = re.compile(r"(pph|pasal|psl|pmk|pp|uu|wht)(\d+)")


def english_bases(word: str) -> tuple[str, ...]:
    """The base forms an inflected English word may come from, most likely first: "exported" -> "export",
    "invoiced" -> "invoice", "paying" -> "pay", "levied" -> "levy", "submitted" -> "submit".  The word lists
    (aliases, English-to-Indonesian pairs) hold base forms; a question writes "goods exported abroad".  Only
    for a word of six letters or more ending in -ed or -ing; a reader looks the forms up and keeps what it
    lists, so a non-word among them meets nothing."""
    if len(word) < 6 or not (word.isascii() and word.isalpha()):
        return ()
    if word.endswith("ied"):
        return (word[:-3] + "y",)
    if word.endswith("ed"):
        stem_, forms = word[:-2], [word[:-2], word[:-1]]
    elif word.endswith("ing"):
        stem_, forms = word[:-3], [word[:-3], word[:-3] + "e"]
    else:
        return ()
    if len(stem_) >= 3 and stem_[-1] == stem_[-2]:
        forms.append(stem_[:-1])  # "submitted" -> "submit"
    return tuple(forms)


def _match_tokens(text: str) -> list[tuple[str, int, int]]:
    """Tokens for alias matching: index tokens, with "pph23" split into "pph" "23"."""
    out: list[tuple[str, int, int]] = []
    for tok, s, e in _token_spans(text):
        m = _GLUED.fullmatch(tok)
        if m and e - s == len(tok):
            cut = s + len(m.group(1))
            out.extend([(m.group(1), s, cut), (m.group(2), cut, e)])
        else:
            out.append((tok, s, e))
    return out


@functools.lru_cache(maxsize=1)
def default_aliases() -> AliasDictionary:
    """The packaged dictionary, loaded and validated once per process."""
    return AliasDictionary.load()


# --------------------------------------------------------------------------------------------
# Plan records
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Provision:
    """A Pasal/ayat/huruf the question points at, with the law it belongs to when known.

    ``origin`` is "text" when the question wrote "Pasal ..."; "tax_type" when the provision is implied by a
    tax type ("PPh 23" -> Pasal 23 of UU 7/1983); "governs" when a reviewed term's alias entry names the
    provision that sets it ("PTKP" -> Pasal 7 of UU 7/1983); "rate" for the Pasal setting an asked tax's
    rate.  Every origin but "text" is a hint.  Spans index the original text.
    """

    pasal: str
    ayat: str | None = None
    huruf: str | None = None
    law: str | None = None
    origin: str = "text"
    start: int = -1
    end: int = -1
    #: how ``law`` was found: "text" (written next to it / the only law named) or "topic"
    #: (:func:`law_by_topic`)
    law_from: str = "text"


@dataclass(frozen=True)
class Expansion:
    """One alias expansion: ``term`` (as written) made the plan also search ``added``."""

    term: str
    added: tuple[str, ...]
    source: str
    doc: str | None = None  # the document the alias names ("UU PPN" -> "UU 8/1983"), if it names one


@dataclass(frozen=True)
class QueryPlan:
    """Everything retrieval needs from one question; see the module docstring for the rules."""

    text: str
    language: str
    doc_refs: tuple[str, ...]
    provisions: tuple[Provision, ...]
    as_of: dt.date | None
    as_of_precision: str | None
    as_of_span: tuple[int, int] | None
    tax_types: tuple[str, ...]
    expansions: tuple[Expansion, ...]
    terms: tuple[str, ...]
    #: "Pasal n" written without a law whose topic did not decide the law either: the answer layer should
    #: ask which law is meant (KUP, PPN or PPh) rather than guess
    ambiguous_provisions: tuple[Provision, ...] = ()

    @property
    def needs_law(self) -> bool:
        """Whether a provision of the question has no law and the question's topic does not pick one."""
        return bool(self.ambiguous_provisions)

    @property
    def search_text(self) -> str:
        """The BM25 query as plain text (terms joined by spaces)."""
        return " ".join(self.terms)


# --------------------------------------------------------------------------------------------
# Dates
# --------------------------------------------------------------------------------------------

_YEAR = r"(?P<year>(?:19|20)\d\d)"
_ORD = r"(?:st|nd|rd|th)?"

_DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iso", re.compile(rf"\b{_YEAR}[-/](?P<month>\d{{1,2}})[-/](?P<day>\d{{1,2}})\b")),
    ("dmy", re.compile(rf"\b(?P<day>\d{{1,2}})[-/.](?P<month>\d{{1,2}})[-/.]{_YEAR}\b")),
    (
        "d_month_y",
        re.compile(
            rf"\b(?P<day>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<mname>{MONTH_PATTERN})\.?,?\s+{_YEAR}\b", re.I
        ),
    ),
    (
        "month_d_y",
        re.compile(rf"\b(?P<mname>{MONTH_PATTERN})\.?\s+(?P<day>\d{{1,2}}){_ORD},?\s+{_YEAR}\b", re.I),
    ),
    ("month_y", re.compile(rf"\b(?P<mname>{MONTH_PATTERN})\.?,?\s+{_YEAR}\b", re.I)),
    ("iso_month", re.compile(rf"\b{_YEAR}-(?P<month>0[1-9]|1[0-2])\b(?![-/]\d)")),
    ("masa_my", re.compile(rf"\bmasa(?:\s+pajak)?\s+(?P<month>0?[1-9]|1[0-2])[-/]{_YEAR}\b", re.I)),
    ("year", re.compile(rf"(?<![\w/.,-]){_YEAR}(?![\w%/]|[.,]\d)")),
)
_BEFORE = re.compile(r"\b(?:sebelum|before|prior\s+to)\s*$", re.I)
_AFTER = re.compile(r"\b(?:setelah|sesudah|after)\s*$", re.I)
#: Words that introduce a date and belong to the date phrase (dropped from BM25 terms with it).
_DATE_LEAD = re.compile(
    r"\b(?:as\s+of|as\s+at|per|sejak|since|bertanggal|tertanggal|dated|"
    r"mulai(?:\s+(?:tanggal|bulan|tahun))?|pada(?:\s+(?:tanggal|bulan|tahun))?|"
    r"tanggal|tgl\.?|bulan|tahun(?:\s+pajak)?|thn\.?|th\.?|tax\s+year|fiscal\s+year|in|on|during|for|di|"
    r"sebelum|before|prior\s+to|until|sampai(?:\s+dengan)?|hingga|setelah|sesudah|after|from|dari|effective)"
    r"(?:\s+(?:the\s+)?(?:year|month|tahun|bulan|tanggal))?\s+$",
    re.I,
)


@dataclass(frozen=True)
class _DateHit:
    start: int
    end: int
    value: dt.date
    precision: str


def _make_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _date_hits(text: str, blocked: Sequence[tuple[int, int]]) -> list[_DateHit]:
    hits: list[_DateHit] = []
    for kind, rx in _DATE_PATTERNS:
        for m in rx.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in blocked):
                continue
            year = int(m.group("year"))
            gd = m.groupdict()
            if gd.get("mname"):
                month = MONTHS[gd["mname"].lower()]
            else:
                month = int(gd["month"]) if gd.get("month") else 1
            day = int(gd["day"]) if gd.get("day") else 1
            value = _make_date(year, month, day)
            if value is None and kind == "dmy":  # 03/15/2022: month-first only when day-first is impossible
                value = _make_date(year, day, month)
            if value is None:
                continue
            has_month = bool(gd.get("month") or gd.get("mname"))
            precision = "day" if gd.get("day") else "month" if has_month else "year"
            hits.append(_DateHit(m.start(), m.end(), value, precision))
    # Longest hit wins where hits overlap ("15 Maret 2022" beats "Maret 2022" and "2022").
    hits.sort(key=lambda h: (h.start, -(h.end - h.start)))
    chosen: list[_DateHit] = []
    for h in hits:
        if not any(h.start < c.end and c.start < h.end for c in chosen):
            chosen.append(h)
    return chosen


def _period_end(value: dt.date, precision: str) -> dt.date:
    if precision == "year":
        return dt.date(value.year, 12, 31)
    if precision == "month":
        nxt = dt.date(value.year + (value.month == 12), value.month % 12 + 1, 1)
        return nxt - dt.timedelta(days=1)
    return value


#: A date told as a fact about a party ("PT kita berdiri 2021", "registered in 2019", "joined in March
#: 2020") is not the date of the transaction asked about: the rule in force then is not the answer to
#: "until which year may we ...?" asked today.
_PARTY_EVENT = re.compile(
    r"\b(?:berdiri|didirikan|terdaftar|mendaftar|dikukuhkan|founded|established|incorporated|registered|set\s+up|"
    r"joined|bergabung|lahir|born)\b(?:\s+\S+){0,3}?\s*$",
    re.I,
)


def _is_party_date(text: str, hit: _DateHit) -> bool:
    return bool(_PARTY_EVENT.search(text[max(0, hit.start - 40) : hit.start]))


def _date_span(text: str, hit: _DateHit) -> tuple[int, int]:
    """The date with the words that introduce it ("tahun 2024", "sebelum 1 April 2022"): kept out of the
    search terms."""
    lead = _DATE_LEAD.search(text[: hit.start])
    return (lead.start() if lead else hit.start, hit.end)


def _resolve_as_of(
    text: str, blocked: Sequence[tuple[int, int]]
) -> tuple[tuple[dt.date, str, tuple[int, int]] | None, list[tuple[int, int]]]:
    """The transaction date (its value, precision and span), and the spans of the dates told about a party,
    which set no as-of date but leave the search terms like it."""
    hits = _date_hits(text, blocked)
    party = [_date_span(text, h) for h in hits if _is_party_date(text, h)]
    hits = [h for h in hits if not _is_party_date(text, h)]
    if not hits:
        return None, party
    hit = hits[0]
    value, precision = hit.value, hit.precision
    head = text[: hit.start]
    if _BEFORE.search(head):
        value, precision = value - dt.timedelta(days=1), "day"
    elif _AFTER.search(head):
        value = _period_end(value, precision) + dt.timedelta(days=1)
    return (value, precision, _date_span(text, hit)), party


# --------------------------------------------------------------------------------------------
# Regulation references, tax types, provisions
# --------------------------------------------------------------------------------------------

# "UU 7 Tahun 2021" (no "Nomor"): kb.refs needs "Nomor" or a slash, users often write neither.
_TAHUN_REF = re.compile(
    r"\b(?P<type>uu|undang[\s-]*undang|pp|pmk|perppu|perpu)\s+(?P<num>\d{1,4})\s+"
    r"tahun\s+(?P<year>(?:19|20)\d\d)\b",
    re.I,
)
_TAHUN_TYPES = {"uu": "UU", "pp": "PP", "pmk": "PMK", "perppu": "PERPU", "perpu": "PERPU"}

# "PPh 23", "PPh Pasal 23", "PPh Psl. 23", "PPh23", "Pajak Penghasilan Pasal 4 ayat (2)", "PPh 4(2)"
_PPH_ARTICLE = re.compile(
    r"\b(?:pph|pajak\s+penghasilan)(?:\s+final)?\s*[-.]?\s*(?:(?:pasal|psl\.?|ps\.?|article|art\.?)\s*)?"
    r"(?P<pasal>\d{1,2})(?![\d%]|[.,]\d)"
    r"(?:\s*(?:ayat\s*)?\(\s*(?P<ayat>\d{1,2})\s*\)|\s+ayat\s+(?P<ayat2>\d{1,2})\b)?",
    re.I,
)

# the English names of the withholding taxes by article, without "PPh": "Article 23 withholding", "article 21
# tax", "Article 4(2) final tax" (the dictionary lists "article 23 withholding tax", not the shorter forms)
_ARTICLE_TAX = re.compile(
    r"\barticle\s*(?P<pasal>21|22|23|25|26|4)(?:\s*\(\s*(?P<ayat>2)\s*\))?\s+(?:final\s+)?"
    r"(?:withholding|income\s+tax|tax)\b",
    re.I,
)


@dataclass(frozen=True)
class _Anchor:
    start: int
    end: int
    law: str
    is_doc: bool  # a document reference (not just a tax name)


def _doc_anchors(
    text: str, matches: Sequence[AliasMatch], catalog: Mapping[str, str] | None = None
) -> list[_Anchor]:
    anchors = [_Anchor(r.start, r.end, r.key, True) for r in find_doc_refs(text)]
    for m in _TAHUN_REF.finditer(text):
        if not any(m.start() < a.end and a.start < m.end() for a in anchors):
            code = _TAHUN_TYPES[re.sub(r"[\s-]+", "", m.group("type").lower()).replace("undangundang", "uu")]
            key = canonical_key(code, m.group("num"), m.group("year"))
            anchors.append(_Anchor(m.start(), m.end(), key, True))
    for am in matches:
        if am.entry.doc and not any(am.start < a.end and a.start < am.end for a in anchors):
            anchors.append(_Anchor(am.start, am.end, am.entry.doc, True))
    for m in _BARE_ACT.finditer(text) if catalog else ():
        kind = {"uu": "UU", "pp": "PP", "pmk": "PMK", "perppu": "Perppu"}[m.group("type").lower()]
        named = catalog.get(f"{kind} {m.group('num').upper()}") if catalog else None
        if named and not any(m.start() < a.end and a.start < m.end() for a in anchors):
            anchors.append(_Anchor(m.start(), m.end(), named, True))
    anchors.sort(key=lambda a: (a.start, a.end))
    return anchors


_GAP_BEFORE = re.compile(r"\s*[,:-]?\s*")
_GAP_AFTER = re.compile(r"\s*,?\s*(?:(?:dari|of|dalam|in|pada)\s+(?:the\s+)?)?")


def _law_for(
    start: int, end: int, text: str, anchors: Sequence[_Anchor], tax_anchors: Sequence[_Anchor]
) -> str | None:
    """The law a "Pasal ..." at [start, end) belongs to: overlapping, then adjacent, then sole doc."""
    for a in (*tax_anchors, *anchors):
        if a.start < end and start < a.end:
            return a.law
    for a in sorted((*anchors, *tax_anchors), key=lambda a: -a.end):
        if a.end <= start and _GAP_BEFORE.fullmatch(text[a.end : start]):
            return a.law
    for a in anchors:
        if a.start >= end and _GAP_AFTER.fullmatch(text[end : a.start]):
            return a.law
    laws = list(dict.fromkeys(a.law for a in anchors if a.is_doc))
    return laws[0] if len(laws) == 1 else None


# --------------------------------------------------------------------------------------------
# Language and stopwords
# --------------------------------------------------------------------------------------------

# one lexicon (kb/data/lexicon.yaml, loaded by kb.lexicon): no word list lives in code
_ID_FUNCTION = _lexicon.default().stopwords_id
_EN_FUNCTION = _lexicon.default().stopwords_en
_ID_HINTS, _EN_HINTS = _lexicon.language_hints()
STOPWORDS = _ID_FUNCTION | _EN_FUNCTION


#: the question asks what a term means, the term following the match (lexicon ``question_kinds.definition``)
_DEFINITION_Q = _lexicon.question_kind("definition")


#: words that ask for a definition, not what it is about: a definition has no "dimaksud" in it, while every
#: rule that cites another says "sebagaimana dimaksud" (kept out of topic coverage in retrieval and answers)
FRAME_WORDS = _lexicon.frame_words()
#: a question naming a rate (lexicon ``question_kinds.rate``): the tax's rate Pasal joins its hints
_RATE_ASKED = _lexicon.question_kind("rate")


_TERM_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")

#: the chat word order, the term first: "NTPN itu apa?", "Kak, DPP tuh apa sih?", "PKP itu artinya apa?" (not
#: "... itu apa saja?", which asks for a list)
_DEFINITION_AFTER = re.compile(
    r"(?:^|[?.,;:!\n]\s*)(?P<term>[A-Za-z0-9][A-Za-z0-9 /-]{0,60}?)\s+(?:itu|tu|tuh)\s+"
    r"(?:apa(?:an)?(?!\s+saja)|artinya\s+apa|maksudnya\s+apa)\b",
    re.IGNORECASE,
)
#: a term asked in the chat order has at most this many words, none of them a function word ("Bedanya SKPKB
#: dan STP itu apa?" asks a difference, not a definition)
_MAX_AFTER_TERM = 4


def _term_before_asking(text: str) -> str | None:
    m = _DEFINITION_AFTER.search(text)
    if m is None:
        return None
    words = [w.lower() for w in _TERM_WORD.findall(m.group("term"))]
    if not 0 < len(words) <= _MAX_AFTER_TERM or any(w in STOPWORDS or w in FRAME_WORDS for w in words):
        return None
    return " ".join(words)


def asks_definition(text: str) -> bool:
    """Whether the question asks what a term means: its answer is a definition (Pasal 1), not a rule."""
    return bool(_DEFINITION_Q.search(text)) or _term_before_asking(text) is not None


def defined_term(text: str) -> str | None:
    """The term a definition question asks about, as written after the asking words ("Apa arti Masa Pajak?" ->
    "masa pajak"), or None.  An act writes each definition "<term> adalah ...", so the search can look for
    that phrase: in a definitions list of forty terms that share words ("Surat Pemberitahuan Masa adalah
    Surat Pemberitahuan untuk suatu Masa Pajak") the words alone do not find the term's own definition.
    The term runs to punctuation or a word that ends it (``lexicon.yaml term_ends``), not to the first
    stopword: "Barang Kena Pajak tidak berwujud" is one term, and asking for "barang kena pajak adalah"
    would find its neighbour's definition."""
    m = _DEFINITION_Q.search(text)
    if m is None:
        return _term_before_asking(text)
    rest = re.split(r"[?.,;:!\n]", text[m.end() :], maxsplit=1)[0]
    words = [w.lower() for w in _TERM_WORD.findall(rest)]
    ends = _lexicon.term_ends()
    while words and (words[0] in STOPWORDS or words[0] in FRAME_WORDS):
        words.pop(0)
    compounds = _lexicon.term_compounds()
    term: list[str] = []
    for i, w in enumerate(words):
        if w in ends and (w, words[i + 1] if i + 1 < len(words) else "") not in compounds:
            break
        term.append(w)
    while term and term[-1] in STOPWORDS:
        term.pop()
    return " ".join(term) if 0 < len(term) <= 6 else None


def detect_language(text: str) -> str:
    """ "en" when English function/domain words outnumber Indonesian ones, else "id" (the default)."""
    toks = tokenize(text)
    id_score = sum(t in _ID_FUNCTION or t in _ID_HINTS for t in toks)
    en_score = sum(t in _EN_FUNCTION or t in _EN_HINTS for t in toks)
    return "en" if en_score > id_score else "id"


# --------------------------------------------------------------------------------------------
# understand / fts_query
# --------------------------------------------------------------------------------------------


_ACT_NUMBER = re.compile(r"(?P<type>UU|PP|PMK|Perppu)\s+(?P<num>\d{1,4}[A-Z]?)/(?P<year>(?:19|20)\d\d)")


def act_catalog(numbers: Iterable[str]) -> dict[str, str]:
    """{"PP 23": "PP 23/2018", "PMK 168": "PMK 168/2023", ...}: people cite acts without their year, and a
    bare number names an act exactly when the knowledge base holds one act of that type and number ("UU 7"
    names two, UU 7/1983 and UU 7/2021, and stays unresolved).  ``numbers`` are the regulations' canonical
    keys; the catalog is generated from the corpus, never from questions."""
    acts: dict[tuple[str, str], list[str]] = {}
    for key in sorted(set(numbers)):
        m = _ACT_NUMBER.fullmatch(key)
        if m:
            acts.setdefault((m.group("type"), m.group("num")), []).append(key)
    return {f"{kind} {num}": keys[0] for (kind, num), keys in sorted(acts.items()) if len(keys) == 1}


#: "PP 23", "pmk 168", "PP No. 23" written without a year (resolved only through :func:`act_catalog`)
_BARE_ACT = re.compile(
    r"\b(?P<type>UU|PP|PMK|Perppu)\s*(?:No\.?\s*|Nomor\s+)?(?P<num>\d{1,4}[A-Z]?)\b"
    r"(?!\s*[/.,]\s*\d|\s*%)",  # not "PP 23/2018" (a full reference) nor "PMK 10%"
    re.I,
)


#: an acronym in brackets right after the words it abbreviates: "penghasilan neto kena pajak (PKP)"
_BRACKETED_ACRONYM = re.compile(r"\(([A-Za-z]{2,6})\)")


def defined_inline(text: str) -> frozenset[tuple[str, ...]]:
    """The acronyms ``text`` defines itself: "(PKP)" after words whose initials spell it in order, the last
    letter the initial of the word right before the bracket ("penghasilan neto kena pajak (PKP)": p-k-p over
    "penghasilan ... kena pajak"; at most six words back).  Normalised like alias surfaces."""
    out: set[tuple[str, ...]] = set()
    for m in _BRACKETED_ACRONYM.finditer(text):
        letters = m.group(1).lower()
        words = re.findall(r"[A-Za-z]+", text[: m.start()])[-6:]
        initials = [w[0].lower() for w in words]
        if not initials or initials[-1] != letters[-1]:
            continue
        i = len(initials) - 1
        for ch in reversed(letters):
            while i >= 0 and initials[i] != ch:
                i -= 1
            if i < 0:
                break
            i -= 1
        else:
            out.add(_norm(m.group(1)))
    return frozenset(out)


#: a passive or active verb (di-/me-) written without a suffix of its own (-kan, -i, -an)
_KAN_DROPPED = re.compile(r"(?:di|me)[a-z]{4,}(?<!kan)(?<![aiu]i)(?<!an)")


def understand(
    question: str, *, aliases: AliasDictionary | None = None, catalog: Mapping[str, str] | None = None
) -> QueryPlan:
    """Parse a question into a :class:`QueryPlan` (pure and deterministic).

    Args:
        question: the user's text, any language; never logged.
        aliases: dictionary to expand with; the packaged ``kb/data/aliases.yaml`` by default.
        catalog: bare act numbers of the corpus (:func:`act_catalog`): "PP 23" then names PP 23/2018.
    """
    adict = aliases if aliases is not None else default_aliases()
    text = question
    own = defined_inline(text)
    # an acronym the message spells out itself ("penghasilan neto kena pajak (PKP)") means what it says, not
    # what the alias dictionary gives it (PKP is also "Pengusaha Kena Pajak")
    matches = [m for m in adict.find(text) if _norm(m.surface) not in own]
    anchors = _doc_anchors(text, matches, catalog)

    # tax types: article patterns in code ("PPh23" etc.) + dictionary entries
    found_types: dict[str, None] = {}
    tax_anchors: list[_Anchor] = []
    hints: list[Provision] = []
    named = list(_PPH_ARTICLE.finditer(text))
    named += [
        m
        for m in _ARTICLE_TAX.finditer(text)
        if not any(m.start() < n.end() and n.start() < m.end() for n in named)
    ]
    for m in named:
        pasal, ayat = m.group("pasal"), m.group("ayat") or m.groupdict().get("ayat2")
        tax_anchors.append(_Anchor(m.start(), m.end(), UU_PPH, False))
        if pasal in ("21", "22", "23", "25", "26"):
            found_types[f"PPh {pasal}"] = None
        elif pasal == "4" and ayat == "2":
            found_types["PPh 4(2)"] = None
        hints.append(Provision(pasal, ayat, None, UU_PPH, "tax_type", m.start(), m.end()))
    for am in matches:
        if am.entry.governs is not None:
            pasal, ayat, law = am.entry.governs
            hints.append(Provision(pasal, ayat, None, law, "governs", am.start, am.end))
        tt = am.entry.tax_type
        if tt is None:
            continue
        found_types[tt] = None
        if tt in _TAX_TYPE_PROVISION:
            pasal, ayat = _TAX_TYPE_PROVISION[tt]
            hints.append(Provision(pasal, ayat, None, UU_PPH, "tax_type", am.start, am.end))
        if tt in _TAX_LAW and not am.entry.doc:
            tax_anchors.append(_Anchor(am.start, am.end, _TAX_LAW[tt], False))
    tax_types = tuple(t for t in TAX_TYPES if t in found_types)

    # provisions written as "Pasal ..." get their law; hints covered by them are dropped
    written = [
        Provision(
            p.pasal,
            p.ayat,
            p.huruf,
            _law_for(p.start, p.end, text, anchors, tax_anchors),
            "text",
            p.start,
            p.end,
        )
        for p in _provision_refs(text)
    ]
    # "Pasal 9" written without a law: the law of the question's topic (kb/data/lexicon.yaml law_topics);
    # when the topic does not decide, the provision stays open and the plan marks it ambiguous
    ambiguous: list[Provision] = []
    if any(p.law is None for p in written):
        topic_law = law_by_topic(text, [(p.start, p.end) for p in written])
        placed = []
        for p in written:
            if p.law is None and topic_law is not None:
                placed.append(Provision(p.pasal, p.ayat, p.huruf, topic_law, "text", p.start, p.end, "topic"))
                continue
            if p.law is None:
                ambiguous.append(p)
            placed.append(p)
        written = placed
    # a question asking the sanction asks a rule of the law that sets sanctions (UU KUP), whatever tax it
    # names: that law's sanction Pasal join the candidates as hints (lexicon law_topics.sanction_pasal),
    # unless the question writes out a Pasal of that law itself ("sanksi Pasal 9 KUP")
    if _lexicon.asks_penalty(_lexicon.plain_question(text)):
        end = len(text)
        for topic in _lexicon.law_topics():
            if not any(w.law == topic.law for w in written):
                hints += [
                    Provision(p, None, None, topic.law, "tax_type", end, end) for p in topic.sanction_pasal
                ]
    # a question asking a tax's rate asks the Pasal setting it (lexicon law_topics.rate_pasal), whatever the
    # tax is charged on: it joins the candidates as a hint, unless a Pasal of that law is written out
    if _RATE_ASKED.search(_lexicon.plain_question(text)):
        end = len(text)
        for topic in _lexicon.law_topics():
            if not topic.rate_pasal or topic.name not in found_types:
                continue
            if not any(w.law == topic.law for w in written):
                hints += [Provision(p, None, None, topic.law, "rate", end, end) for p in topic.rate_pasal]
    merged: dict[tuple[str, str | None, str | None, str | None], Provision] = {}
    for p in sorted(
        [*written, *(h for h in hints if not any(h.start < w.end and w.start < h.end for w in written))],
        key=lambda p: (p.start, p.origin != "text", p.end),
    ):
        merged.setdefault((p.pasal, p.ayat, p.huruf, p.law), p)
    provisions = tuple(merged.values())

    doc_refs = tuple(dict.fromkeys(a.law for a in anchors))
    resolved, dropped = _resolve_as_of(text, [(a.start, a.end) for a in anchors])
    as_of, precision, span = resolved if resolved else (None, None, None)
    if span:
        dropped.append(span)

    first: dict[str, Expansion] = {}  # one expansion per entry, at its first occurrence
    for am in matches:
        if am.entry.id not in first:
            first[am.entry.id] = Expansion(
                term=am.surface,
                # every written form but the one the question wrote: a glued "pph21" (matched as "PPh 21"
                # for alias lookup only) still searches "PPh 21", which the index splits in two tokens
                added=tuple(t for t in am.entry.terms if _norm(t) != _norm(am.surface)),
                source=adict.source_of(am.entry),
                doc=am.entry.doc,
            )
    expansions = (*first.values(), *_search_word_expansions(text, matches))
    terms: dict[str, None] = {}
    chat = _lexicon.default().chat_spellings
    # an English word has no Indonesian verb forms ("dividends" is no "di-" passive: no "dividendskan")
    language = detect_language(text)
    # a name the message addresses ("pak Pri") and its leave to ask ("ijin bertanya") are no search terms,
    # nor is the tag checking what it said ("..., bener ga?"), a greeting or a company's name ("PT Maju")
    from kb.lexical import plea_spans  # kb.lexical reads the plan this function builds

    skipped = [
        *dropped,
        *plea_spans(text),
        *_lexicon.addressing_spans(text),
        *_lexicon.check_tag_spans(text),
        *_lexicon.frame_spans(text),
    ]
    for tok, s, e in _token_spans(text):
        if tok in STOPWORDS or any(a <= s and e <= b for a, b in skipped):
            continue
        terms[tok] = None
        # a chat or old spelling ("beaya", "jt") is searched in the acts' spelling too ("biaya", "juta"): the
        # index holds only the acts' words, so the chat form alone matches nothing
        formal = chat.get(tok)
        if formal and formal not in STOPWORDS:
            terms[formal] = None
        # "sanksinya", "tarifnya": the acts write the bare word, and the index matches whole words only
        bare = _lexicon.without_enclitic(tok)
        if bare != tok and bare not in STOPWORDS:
            terms[bare] = None
        # "dikompensasi", "dibayar": chat drops the verb suffix -kan the acts write ("dikompensasikan",
        # "dibayarkan"); the index matches whole words, so the act's form is searched too
        if _KAN_DROPPED.fullmatch(bare) and language != "en":
            terms[f"{bare}kan"] = None
    for exp in expansions:
        for added in exp.added:
            terms[" ".join(_norm(added))] = None
    if not terms:  # a question of nothing but function words: search them rather than nothing
        terms = dict.fromkeys(tokenize(text))

    plan = QueryPlan(
        text=question,
        language=language,
        doc_refs=doc_refs,
        provisions=provisions,
        as_of=as_of,
        as_of_precision=precision,
        as_of_span=span,
        tax_types=tax_types,
        expansions=expansions,
        terms=tuple(terms),
        ambiguous_provisions=tuple(ambiguous),
    )
    logger.debug(
        "language=%s, docs=%d, provisions=%d, tax_types=%d, expansions=%d, as_of_precision=%s"
        " | query understood",
        plan.language,
        len(plan.doc_refs),
        len(plan.provisions),
        len(plan.tax_types),
        len(plan.expansions),
        plan.as_of_precision,
    )
    return plan


#: the source prefix of an expansion read from the lexicon's ``search_words``
SEARCH_WORD_SOURCE = "lexicon.yaml:search_words:"


def _search_word_expansions(text: str, matches: Sequence[AliasMatch] = ()) -> list[Expansion]:
    """Expansions for the everyday phrases the law names otherwise (``search_words`` of the lexicon).

    Why: an act names a thing in its own words -- a car an employer lets staff use is a "kenikmatan" (PP
    55/2022), office equipment sold off is an "aktiva" (UU PPN Pasal 16D) -- and a question that writes the
    everyday phrase shares no rare word with the provision, so neither BM25 nor the re-rank's coverage finds
    it.  The longest listed phrase wins at each position, once per question; tokens are read in their formal
    spelling (``chat_spellings``), so a phrase is listed in the acts' spelling only.  A phrase listed for one
    term of a reviewed alias (``matches``) serves its every term: "DP" and "down payment" are "uang muka".
    """
    table = _lexicon.default().search_words
    if not table:
        return []
    spans = _match_tokens(text)
    chat = _lexicon.default().chat_spellings
    words = [chat.get(t, t) for t, _, _ in spans]
    longest = max(len(k.split()) for k in table)
    out: list[Expansion] = []
    seen: set[str] = set()
    i = 0
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            key = " ".join(words[i : i + n])
            if key in table:
                if key not in seen:
                    seen.add(key)
                    surface = text[spans[i][1] : spans[i + n - 1][2]]
                    out.append(Expansion(surface, table[key], f"{SEARCH_WORD_SOURCE}{key}"))
                i += n
                break
        else:
            i += 1
    for am in matches:
        keys = [k for k in (" ".join(_norm(t)) for t in am.entry.terms) if k in table]
        if keys and not seen.intersection(keys):  # one expansion per alias, as for its written term
            seen.update(keys)
            out.append(Expansion(am.surface, table[keys[0]], f"{SEARCH_WORD_SOURCE}{keys[0]}"))
    return out


#: the short forms people type for "Pasal" ("psl 23", "ps. 9", "pas 21"), which kb.refs does not read
_SHORT_PASAL = re.compile(r"\b(?:psl|ps|pas)\.?\s*(?P<pasal>\d{1,3}[A-Z]?)\b(?!\s*%)", re.IGNORECASE)


def _provision_refs(text: str) -> list[ProvisionRef]:
    """``kb.refs`` provision references plus the short forms ("psl 23") outside them."""
    refs = find_provision_refs(text)
    for m in _SHORT_PASAL.finditer(text):
        if not any(m.start() < r.end and r.start < m.end() for r in refs):
            refs.append(ProvisionRef(m.group("pasal").upper(), None, None, m.start(), m.end()))
    return sorted(refs, key=lambda r: r.start)


def law_by_topic(text: str, skip: Sequence[tuple[int, int]] = ()) -> str | None:
    """The base law whose topic words (``law_topics`` of the lexicon) outnumber every other law's in ``text``.

    "lupa potong PPh, sanksi Pasal 9?" -> KUP wins over PPh only when its words are more; a tie or no
    topic word at all returns None (the caller marks the provision ambiguous).  ``skip`` spans (the
    "Pasal n" references themselves) are ignored.
    """
    kept = [(t, s, e) for t, s, e in _match_tokens(text) if not any(a <= s < b for a, b in skip)]
    joined = " " + " ".join(t for t, _, _ in kept) + " "
    counts = []
    for topic in _lexicon.law_topics():
        n = sum(1 for w in topic.words if " " + " ".join(_norm(w)) + " " in joined)
        counts.append((n, topic.law))
    counts.sort(key=lambda c: -c[0])
    if not counts or counts[0][0] == 0 or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return None
    return counts[0][1]


def fts_query(plan: QueryPlan) -> str:
    """A safe FTS5 MATCH expression: every term quoted, joined by OR.

    Why quote everything: FTS5 gives meaning to AND/OR/NOT/NEAR, ``*``, ``^``, ``:`` and
    parentheses; a quoted string is always a plain phrase.  Multi-word terms become phrases.
    Returns "" when the plan has no terms (callers must skip the FTS search then: an empty
    MATCH is a syntax error).
    """
    terms = [t for t in plan.terms if t]
    # the acts nominalise a state with "-nya" ("Terutangnya pajak terjadi pada saat ...", "sejak berakhirnya
    # Masa Pajak"), and the index matches whole words: "Kapan PPN terutang?" found no UU PPN Pasal 11
    terms += [f"{t}nya" for t in terms if _NOMINALISED.fullmatch(t) and f"{t}nya" not in terms]
    # ... and the root and noun of a passive the asker wrote ("disetor": "setor", "penyetoran")
    from kb.lexical import passive_forms, voice_forms  # kb.lexical reads this module's tokenizer

    asked = set(tokenize(plan.text))
    # ... and the passive of an active -kan verb the asker wrote ("mengajukan": "diajukan"); an English word
    # has no Indonesian voice ("dividends" made "vidends" and "pemvidendsan")
    if plan.language != "en":
        terms += [
            f for t in terms if t in asked for f in (*passive_forms(t), *voice_forms(t)) if f not in terms
        ]
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


#: a state the acts nominalise with "-nya": ter-/ber- and a root of at least four letters.  Not di- verbs:
#: "diterbitkannya" (of an assessment) led "Faktur Pajak itu wajib diterbitkan kapan?" when tried
_NOMINALISED = re.compile(r"(?:ter|ber)[a-z]{4,}")
