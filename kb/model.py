"""Records that cross the boundaries of the knowledge base.

Everything here is a frozen dataclass: ingest produces them, the store persists them, retrieval
returns them.  Nothing in this module knows about storage or models, so the chunker, the store and
the retriever can be written (and tested) independently against these shapes.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal

DocType = Literal["UU", "PP", "PMK", "PER", "SE", "KEP", "policy", "procedure", "memo", "faq"]
DOC_TYPES: tuple[str, ...] = ("UU", "PP", "PMK", "PER", "SE", "KEP", "policy", "procedure", "memo", "faq")
REGULATION_TYPES: frozenset[str] = frozenset({"UU", "PP", "PMK", "PER", "SE", "KEP"})

DocStatus = Literal["draft", "in_force", "amended", "revoked", "superseded", "quarantined"]
DOC_STATUSES: tuple[str, ...] = ("draft", "in_force", "amended", "revoked", "superseded", "quarantined")
#: Statuses whose chunks may answer a question (for the periods they governed).
ANSWERABLE_STATUSES: frozenset[str] = frozenset({"in_force", "amended", "revoked", "superseded"})

#: Everyone, including guests. Regulations default to this access group.
PUBLIC_GROUP = "everyone"

ChunkKind = Literal[
    "preamble",  # Menimbang / Mengingat / title block
    "definition",  # one numbered definition of Pasal 1 ("X adalah ...")
    "pasal",  # a whole (short) Pasal, or the lead-in of a long one
    "ayat",  # one ayat "(1) ..."
    "huruf",  # one huruf "a." of a long ayat/Pasal
    "penjelasan",  # elucidation (Penjelasan) of a Pasal/ayat
    "lampiran",  # annex
    "table",  # a table kept whole
    "section",  # a section of an internal document (memo/policy/procedure/faq)
    "closing",  # closing provisions / signature block
]

EdgeKind = Literal[
    "parent",  # chunk -> its parent node (ayat -> Pasal -> BAB -> document)
    "uses_definition",  # chunk -> definition chunk of a term it uses
    "references",  # chunk -> chunk/document it cross-references
    "amends",  # amending chunk -> the chunk(s) of the amended law it replaces
    "explains",  # penjelasan chunk -> the chunk it explains
    "links",  # internal document links (memo Conclusion -> Facts / Limitation)
]


@dataclass(frozen=True)
class DocumentMeta:
    """Canonical metadata of one document (see README "Metadata format").

    Dates are ``datetime.date``; lists are tuples so the record stays hashable.
    ``effective_to`` is exclusive: the document answers for ``effective_from <= as_of < effective_to``.
    """

    id: str
    title: str
    number: str
    type: str
    jurisdiction: str = "ID"
    language: str = "id"
    tax_types: tuple[str, ...] = ()
    enacted: dt.date | None = None
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    status: str = "in_force"
    amends: tuple[str, ...] = ()
    amended_by: tuple[str, ...] = ()
    revokes: tuple[str, ...] = ()
    revoked_by: tuple[str, ...] = ()
    #: Whole Pasal of another act this one revokes, as ``"<act>:pasal-<n>"`` (``"pp-9-2021:pasal-5"``, the act
    #: by id or canonical number): the act stays in force, those Pasal -- and the wording they restated --
    #: stop on this act's start (:mod:`kb.linking`).  PP 44/2022 Pasal 32 huruf b revokes PP 9/2021 Pasal 5.
    revokes_parts: tuple[str, ...] = ()
    source_url: str | None = None
    accessed: dt.date | None = None
    owner: str | None = None
    approved_by: str | None = None
    version: str | None = None
    entities: tuple[str, ...] = ()
    access: tuple[str, ...] = (PUBLIC_GROUP,)
    review_by: dt.date | None = None
    ocr_noisy: bool = False
    short_title: str | None = None
    topics: tuple[str, ...] = ()
    quarantine_reason: str | None = None
    #: The official page of a regulation (peraturan.go.id, JDIH BPK, pajak.go.id) when known: the link a
    #: citation opens.  ``source_url`` stays the provenance (where the text was taken from, e.g. a GitHub
    #: scrape).
    official_url: str | None = None
    #: Dates of related acts, mostly ones absent from the knowledge base: ``"PMK 81/2024=2025-01-01"``
    #: (canonical key ``=`` ISO date of effect).  Read with ``kb.metadata.related_date``.
    related_dates: tuple[str, ...] = ()

    @property
    def is_regulation(self) -> bool:
        return self.type in REGULATION_TYPES

    @property
    def layer(self) -> str:
        """``regulation`` for what the law says, ``policy`` for how the company applies it."""
        return "regulation" if self.is_regulation else "policy"


@dataclass(frozen=True)
class Reference:
    """A cross-reference found in chunk text, before resolution to ids.

    ``kind`` is ``ayat`` (same Pasal: "sebagaimana dimaksud pada ayat (1)"), ``pasal``
    ("Pasal 4 ayat (2) huruf a", same document unless ``doc`` is set) or ``doc``
    ("Undang-Undang Nomor 36 Tahun 2008" -> doc="UU 36/2008").
    """

    kind: Literal["ayat", "pasal", "doc"]
    pasal: str | None = None
    ayat: str | None = None
    huruf: str | None = None
    doc: str | None = None  # canonical short reference, e.g. "UU 36/2008", "PMK 168/2023", "PP 55/2022"
    text: str = ""  # the matched surface text


@dataclass(frozen=True)
class AmendTarget:
    """Marks a chunk of an amending act that restates a Pasal of another law.

    ``law`` is the canonical short reference of the amended law ("UU 8/1983"); ``pasal`` the
    restated Pasal ("7", "4A"); ``effective_from`` a date written in the provision itself
    ("mulai berlaku pada tanggal 1 April 2022"), else None (the amending act's own date applies).
    ``deleted`` is True for "Pasal 9 dihapus" style provisions (the Pasal stops applying).
    """

    law: str
    pasal: str
    effective_from: dt.date | None = None
    deleted: bool = False


@dataclass(frozen=True)
class ParsedChunk:
    """One node produced by a chunker; ``text`` is an exact slice ``doc_text[start:end]``.

    ``key`` is unique within the document and stable across re-ingests of the same text
    (derived from structure, e.g. ``"bab-2/pasal-7/ayat-1"``; amendment nodes are prefixed with the
    amending item, e.g. ``"pasal-I/angka-3/pasal-7/ayat-1"``). ``parent_key`` is None for top-level
    nodes (their parent is the document).  ``indexed`` is False for pure structure nodes (a BAB
    heading, a long Pasal already split into ayat) that exist for parent links but are not
    retrieval units.
    """

    key: str
    kind: str
    location: str
    text: str
    start: int
    end: int
    parent_key: str | None = None
    pasal: str | None = None
    ayat: str | None = None
    huruf: str | None = None
    heading_path: tuple[str, ...] = ()
    indexed: bool = True
    is_example: bool = False
    defines: tuple[str, ...] = ()
    references: tuple[Reference, ...] = ()
    amends: AmendTarget | None = None
    section: str | None = None  # internal docs: "Issue", "Facts", "Analysis", "Conclusion", "Limitation", ...
    links: tuple[str, ...] = ()  # keys of chunks in the same document this one must travel with


@dataclass(frozen=True)
class Chunk:
    """A stored retrieval unit: a ``ParsedChunk`` placed in time and in the document graph.

    ``id`` is ``"<doc_id>#<key>"``.  ``provision`` names the provision this wording belongs to,
    across an amendment chain ("uu-8-1983:pasal-7"): the original Pasal and each restatement by
    an amending act share it, with non-overlapping ``[valid_from, valid_to)`` windows.
    ``prefix`` is the contextual header used for retrieval only; ``text`` is what gets quoted.
    """

    id: str
    doc_id: str
    key: str
    kind: str
    location: str
    text: str
    prefix: str
    parent_id: str | None
    pasal: str | None
    ayat: str | None
    huruf: str | None
    provision: str | None
    valid_from: dt.date | None
    valid_to: dt.date | None
    is_example: bool
    seq: int
    section: str | None = None
    indexed: bool = True

    @property
    def base_doc(self) -> str:
        """The law whose provision this wording is: the amended law for restated wording (``provision``
        ``"uu-8-1983:pasal-7"`` of a UU 7/2021 chunk), else the chunk's own document."""
        return self.provision.split(":", 1)[0] if self.provision else self.doc_id

    @property
    def pasal_key(self) -> str:
        """The key up to and including its innermost ``pasal-`` segment ("" outside any Pasal): a huruf's
        parent is its ayat, so sharing a parent misses the Pasal's other ayat (its exceptions, the final-tax
        rule beside a rate); sharing this key does not."""
        parts = self.key.split("/")
        idx = max((i for i, p in enumerate(parts) if p.startswith("pasal-")), default=-1)
        return "/".join(parts[: idx + 1]) if idx >= 0 else ""

    @property
    def lead_in_id(self) -> str | None:
        """The id of the passage opening the list this passage is an item of (its parent's ``pembuka``, as
        the chunker names it), None outside a structure; the passage may not exist (a list-less parent).

        A part of a list item too long for one passage ("huruf-a/part-2") belongs to the item's list: its
        lead-in is the one opening the list of its parent item ("Ketentuan lebih lanjut mengenai ...:").  A
        part of anything else (an ayat, the lead-in itself) keeps its parent's."""
        if not self.parent_id:
            return None
        parent = self.parent_id
        item = parent.rsplit("/", 1)[-1]
        if self.key.rsplit("/", 1)[-1].startswith("part-") and item.startswith(("huruf-", "angka-")):
            parent = parent.rsplit("/", 1)[0]
        return lead_in_id(parent)

    def same_pasal(self, other: Chunk) -> bool:
        """Whether both passages belong to one Pasal of one document (neither outside a Pasal)."""
        return bool(self.pasal_key) and (self.doc_id, self.pasal_key) == (other.doc_id, other.pasal_key)

    def elucidates(self, rule: Chunk) -> bool:
        """Whether this elucidation explains ``rule``: a passage of the same act its elucidation key names
        ("penjelasan/pasal-I/angka-17" explains "pasal-I/angka-17/pasal-16D", the Pasal that amendment item
        restates; "penjelasan/pasal-7/ayat-1" explains "pasal-7" and its ayat (1)).

        Why: an elucidation is valid only with its Pasal's wording and says how to read it; when both are
        found, the Pasal is the provision the answer leads with (session 73)."""
        if self.kind != "penjelasan" or rule.kind == "penjelasan" or self.doc_id != rule.doc_id:
            return False
        mine, theirs = _provision_path(self.key), _provision_path(rule.key)
        short, long = sorted((mine, theirs), key=len)
        return any(p.startswith("pasal-") for p in short) and long[: len(short)] == short


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    kind: str


def _provision_path(key: str) -> list[str]:
    """A passage key's structural steps (Pasal, angka, ayat, huruf), without the annex, elucidation,
    lead-in and part segments that name no provision: an elucidation and its Pasal share these steps."""
    return [
        p
        for p in key.split("/")
        if p not in ("lampiran", "penjelasan", "pembuka") and not p.startswith("part-")
    ]


def elucidated_ids(chunk: Chunk) -> list[str]:
    """The ids the passage an elucidation explains may have, by its key (the converse of
    :meth:`Chunk.elucidates`, for a passage not at hand): "uu-7-2021#penjelasan/pasal-2/angka-6/pasal-25/
    ayat-3" explains "uu-7-2021#pasal-2/angka-6/pasal-25/ayat-3", and an omnibus act's "penjelasan/pasal-111/
    angka-2/pasal-26" the Pasal of its annex, "lampiran/pasal-111/angka-2/pasal-26"; the ayat's first, then
    its Pasal's; none for a general elucidation (its key names no Pasal)."""
    steps = [p for p in chunk.key.split("/") if p != "penjelasan" and not p.startswith("part-")]
    if not any(p.startswith("pasal-") for p in steps):
        return []
    ids: list[str] = []
    # the ayat, else the Pasal it is part of (a short Pasal is one passage: PP 44/2022 Pasal 26)
    while steps:
        key = "/".join(steps)
        ids += [f"{chunk.doc_id}#{key}", f"{chunk.doc_id}#lampiran/{key}"]
        if steps[-1].startswith("pasal-"):
            break
        steps.pop()
    return ids


def lead_in_id(parent_id: str) -> str:
    """The id of the passage opening the list under ``parent_id`` (kb.chunking names it ``<key>/pembuka``)."""
    return f"{parent_id}/pembuka"


@dataclass(frozen=True)
class Hit:
    """One retrieval result with everything a citation needs."""

    chunk: Chunk
    doc: DocumentMeta
    score: float
    via: tuple[str, ...] = field(default=())  # "bm25", "dense", "alias", "graph:parent", ...
    #: the sentence that opens the list this passage is an item of ("(3) Jenis jasa yang tidak dikenai Pajak
    #: Pertambahan Nilai ... sebagai berikut:"), from the same document; "" for any other passage.  What the
    #: item says is read with it; it is never quoted as the item.  For an ayat stating a figure that names its
    #: subject by a sibling ("Tarif ... sebagaimana dimaksud pada ayat (1) sebesar 0,5%"), that sibling's text
    lead_in: str = ""
