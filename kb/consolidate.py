"""A law as it stood on a date: every Pasal of an amendment chain in the wording in force then.

The wording of UU PPN on 1 May 2022 lives across several acts (the 1983 base law, the Pasal UU 18/2000,
UU 42/2009, UU 11/2020 and UU 7/2021 restated).  Ingest already stores each restatement as a *version* of
its provision ("uu-8-1983:pasal-7") with a validity window (:mod:`kb.linking`), so the consolidated text
is a read of those windows: for every provision of the base law, the version whose
``[valid_from, valid_to)`` contains the date.

Each Pasal names the act its wording comes from and the date that wording took effect.  Two marks keep
the view honest:

* ``revoked`` -- the Pasal in force on the date is a deletion ("Ketentuan Pasal 6 dihapus"), or the
  whole law had been revoked by then;
* ``changed_outside`` -- an act the knowledge base does not hold (``amended_by`` / ``revoked_by``
  entries of the chain that resolve to no stored document, dated by ``related_dates`` or by their year)
  took effect between the shown wording's start and the date: the wording *may* have changed through
  it, and the view says so instead of presenting the older text as current.

:func:`consolidate` is a pure function over a :class:`~kb.store.protocol.KnowledgeStore` (reads only),
usable as an agent tool; :meth:`ConsolidatedLaw.to_json` is its machine form and :func:`render_html`
a standalone page whose Pasal carry anchors (``#pasal-7``) a citation can link to.
"""

from __future__ import annotations

import datetime as dt
import html
import logging
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kb.errors import NotFoundError
from kb.linking import doc_lookup
from kb.metadata import related_date
from kb.model import PUBLIC_GROUP, Chunk
from kb.refs import find_doc_refs
from kb.store.protocol import KnowledgeStore, StoredDocument

#: Names of the three base tax laws (the packaged alias dictionary adds more when it loads).
LAW_NAMES: dict[str, str] = {
    "uu ppn": "UU 8/1983",
    "uu ppn dan ppnbm": "UU 8/1983",
    "uu pph": "UU 7/1983",
    "uu kup": "UU 6/1983",
}

logger = logging.getLogger(__name__)

_DELETED = re.compile(
    r"^(?:\d+\.\s*)?(?:ketentuan\s+)?(?:pasal\s+[0-9IVX]+[A-Z]?\s*)?dihapus\s*\.?\s*[\"”]?\s*$", re.IGNORECASE
)
_PASAL_NO = re.compile(r"^(\d+)([A-Z]*)$")


@dataclass(frozen=True)
class SourceAct:
    """An act of the knowledge base that gave wording to the chain."""

    doc_id: str
    number: str
    title: str
    enacted: dt.date | None
    effective_from: dt.date | None
    official_url: str | None = None
    ocr_noisy: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.doc_id,
            "number": self.number,
            "title": self.title,
            "enacted": _iso(self.enacted),
            "effective_from": _iso(self.effective_from),
            "official_url": self.official_url,
            "ocr_noisy": self.ocr_noisy,
        }


@dataclass(frozen=True)
class AbsentAct:
    """An act the chain names that the knowledge base does not hold."""

    number: str  # canonical key, e.g. "UU 11/1994"
    relation: str  # amended_by | revoked_by (of ``of``)
    of: str  # the stored act it relates to (doc id)
    date: dt.date | None  # from metadata ``related_dates``; None when only the year is known

    @property
    def year(self) -> int | None:
        m = re.search(r"/((?:19|20)\d\d)$", self.number)
        return int(m.group(1)) if m else None

    def took_effect_between(self, start: dt.date | None, end: dt.date) -> bool:
        """Whether the act may have taken effect in ``(start, end]`` (by date, else by year)."""
        if self.date is not None:
            return (start is None or self.date > start) and self.date <= end
        year = self.year
        if year is None:
            return False
        return (start is None or year >= start.year) and year <= end.year

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "relation": self.relation, "of": self.of, "date": _iso(self.date)}


@dataclass(frozen=True)
class ConsolidatedPasal:
    """One Pasal of the law on the date, with where its wording comes from."""

    pasal: str
    provision: str
    text: str
    source: SourceAct
    valid_from: dt.date | None  # when this wording took effect
    valid_to: dt.date | None  # when it stopped (exclusive), None = still in force as far as the KB knows
    location: str
    chunk_ids: tuple[str, ...]
    revoked: bool = False
    changed_outside: tuple[AbsentAct, ...] = ()

    @property
    def anchor(self) -> str:
        return f"pasal-{self.pasal}"

    @property
    def amended(self) -> bool:
        """Whether the wording comes from an amending act rather than the base law."""
        return not self.provision.startswith(f"{self.source.doc_id}:")

    def to_json(self) -> dict[str, Any]:
        return {
            "pasal": self.pasal,
            "provision": self.provision,
            "anchor": self.anchor,
            "status": "revoked" if self.revoked else "in_force",
            "source": {"id": self.source.doc_id, "number": self.source.number, "title": self.source.title},
            "wording_from": _iso(self.valid_from),
            "wording_until": _iso(self.valid_to),
            "amended": self.amended,
            "location": self.location,
            "text": self.text,
            "chunks": list(self.chunk_ids),
            "changed_outside_kb": [a.to_json() for a in self.changed_outside],
            "ocr_noisy": self.source.ocr_noisy,
        }


@dataclass(frozen=True)
class ConsolidatedLaw:
    """The law ``number`` as it stood on ``as_of``, Pasal by Pasal (see the module docstring)."""

    query: str
    doc_id: str
    number: str
    title: str
    as_of: dt.date
    pasal: tuple[ConsolidatedPasal, ...]
    acts: tuple[SourceAct, ...]  # the chain's acts in the knowledge base, by date
    absent: tuple[AbsentAct, ...]  # acts of the chain the knowledge base does not hold
    not_yet: tuple[str, ...] = ()  # Pasal inserted only after the date ("16G")
    law_revoked_on: dt.date | None = None
    notes: tuple[str, ...] = field(default=())

    def get(self, pasal: str) -> ConsolidatedPasal | None:
        return next((p for p in self.pasal if p.pasal.upper() == pasal.upper()), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "law": {"id": self.doc_id, "number": self.number, "title": self.title},
            "as_of": self.as_of.isoformat(),
            "law_revoked_on": _iso(self.law_revoked_on),
            "acts": [a.to_json() for a in self.acts],
            "absent_acts": [a.to_json() for a in self.absent],
            "pasal": [p.to_json() for p in self.pasal],
            "not_yet_in_force": list(self.not_yet),
            "notes": list(self.notes),
        }


def _iso(d: dt.date | None) -> str | None:
    return d.isoformat() if d else None


def pasal_sort_key(pasal: str) -> tuple[int, str]:
    """Natural order of Pasal numbers: 1, 1A, 2, ..., 9A, 10, 16G, 17."""
    m = _PASAL_NO.match(pasal.upper())
    return (int(m.group(1)), m.group(2)) if m else (10**6, pasal)


def _alias_docs() -> dict[str, str]:
    """Law names of the packaged alias dictionary ("UU PPN" -> "UU 8/1983"), lower-cased."""
    out = dict(LAW_NAMES)
    try:
        from kb.query import default_aliases

        for entry in default_aliases().entries:
            if entry.doc:
                for term in entry.terms:
                    out.setdefault(" ".join(term.lower().split()), entry.doc)
    except Exception as exc:  # a broken alias file must not break the law view; the built-in names remain
        logger.warning("error=%s | law names of the alias dictionary unavailable", exc)
    return out


def resolve_law(store: KnowledgeStore, law: str) -> StoredDocument:
    """The stored base act ``law`` names: a nickname ("UU PPN"), a number ("UU 8/1983") or an id."""
    docs = store.list_documents()
    return _resolve(law, docs, doc_lookup(docs))


def _resolve(law: str, docs: list[StoredDocument], lookup: dict[str, str]) -> StoredDocument:
    by_id = {d.meta.id: d for d in docs}
    name = " ".join(law.strip().split())
    candidates = [name, name.lower()]
    alias = _alias_docs().get(name.lower())
    if alias:
        candidates.append(alias)
    candidates += [r.key for r in find_doc_refs(name)]
    m = re.fullmatch(r"(UU|PP|PMK|PER|SE|KEP)\s*(?:no\.?\s*)?(\d+[A-Z]?)\s*/\s*((?:19|20)\d\d)", name, re.I)
    if m:
        candidates.append(f"{m.group(1).upper()} {m.group(2).upper()}/{m.group(3)}")
    for cand in candidates:
        doc_id = lookup.get(cand)
        if doc_id:
            return by_id[doc_id]
    raise NotFoundError(
        f"no law {law!r} in the knowledge base (try a name like 'UU PPN' or a number like 'UU 8/1983'; "
        "`dasar kb list` shows what is stored)"
    )


def _chain(base: StoredDocument, docs: list[StoredDocument], lookup: dict[str, str]) -> list[StoredDocument]:
    """The base act and every stored act that amends it or one of its amending acts."""
    members = {base.meta.id}
    changed = True
    while changed:
        changed = False
        for d in docs:
            if d.meta.id in members:
                continue
            if any(lookup.get(a, a) in members for a in d.meta.amends):
                members.add(d.meta.id)
                changed = True
    return [d for d in docs if d.meta.id in members]


def _source(doc: StoredDocument) -> SourceAct:
    m = doc.meta
    return SourceAct(m.id, m.number, m.title, m.enacted, m.effective_from, m.official_url, m.ocr_noisy)


def _in_window(c: Chunk, when: dt.date) -> bool:
    return (c.valid_from is None or c.valid_from <= when) and (c.valid_to is None or when < c.valid_to)


def _version_text(chunks: list[Chunk]) -> str:
    """The whole Pasal of one version: its top nodes (those whose parent is outside the version), in order."""
    ids = {c.id for c in chunks}
    top = sorted((c for c in chunks if c.parent_id not in ids), key=lambda c: c.seq)
    parts: list[str] = []
    for c in top:
        text = c.text.strip()
        if parts and text in parts[-1]:
            continue
        parts.append(text)
    return "\n".join(parts)


def _is_deletion(text: str) -> bool:
    return bool(_DELETED.match(" ".join(text.split())))


def _absent_acts(chain: list[StoredDocument], lookup: dict[str, str]) -> list[AbsentAct]:
    out: dict[tuple[str, str, str], AbsentAct] = {}
    for d in chain:
        for relation in ("amended_by", "revoked_by"):
            for ref in getattr(d.meta, relation):
                if ref in lookup:
                    continue
                key = (ref, relation, d.meta.id)
                out.setdefault(key, AbsentAct(ref, relation, d.meta.id, related_date(d.meta, ref)))
    return sorted(out.values(), key=lambda a: (a.date or dt.date(a.year or 9999, 1, 1), a.number, a.of))


def consolidate(
    store: KnowledgeStore,
    law: str,
    as_of: dt.date,
    *,
    groups: frozenset[str] = frozenset({PUBLIC_GROUP}),
) -> ConsolidatedLaw:
    """The law ``law`` ("UU PPN", "UU 8/1983", "uu-8-1983") as it stood on ``as_of``.

    Only documents readable by ``groups`` (default: everyone) and not quarantined contribute wording.
    Raises ``kb.errors.NotFoundError`` when the knowledge base holds no such law.
    """
    all_docs = store.list_documents()
    lookup = doc_lookup(all_docs)
    base = _resolve(law, all_docs, lookup)
    docs = [d for d in all_docs if d.quarantine_reason is None and set(d.meta.access) & set(groups)]
    if base.meta.id not in {d.meta.id for d in docs}:
        raise NotFoundError(f"{base.meta.number} is not readable here (quarantined or restricted)")
    chain = _chain(base, docs, lookup)
    by_id = {d.meta.id: d for d in chain}
    prefix = f"{base.meta.id}:"
    versions: dict[str, dict[str, list[Chunk]]] = defaultdict(lambda: defaultdict(list))
    for d in chain:
        for c in store.chunks_of(d.meta.id):
            if c.provision and c.provision.startswith(prefix) and c.kind != "penjelasan":
                versions[c.provision][c.doc_id].append(c)

    absent = _absent_acts(chain, lookup)
    base_end = base.effective_to
    law_revoked = base_end if base_end is not None and base_end <= as_of else None
    out: list[ConsolidatedPasal] = []
    not_yet: list[str] = []
    for provision, by_doc in versions.items():
        pasal = provision.split(":pasal-", 1)[1]
        live = {doc_id: [c for c in cs if _in_window(c, as_of)] for doc_id, cs in by_doc.items()}
        live = {k: v for k, v in live.items() if v}
        if not live:
            starts = [c.valid_from for cs in by_doc.values() for c in cs if c.valid_from]
            if starts and min(starts) > as_of:
                not_yet.append(pasal)
                continue
            # every version ended and none follows: the law (or the act carrying the Pasal) was revoked
            last_doc, last = max(
                by_doc.items(), key=lambda kv: max((c.valid_from or dt.date.min) for c in kv[1])
            )
            out.append(_pasal(pasal, provision, by_id[last_doc], last, absent, as_of, revoked=True))
            continue
        # one version is in force; should overlapping windows ever occur, the latest start wins
        doc_id, chunks = max(
            live.items(), key=lambda kv: (max((c.valid_from or dt.date.min) for c in kv[1]), kv[0])
        )
        out.append(
            _pasal(pasal, provision, by_id[doc_id], chunks, absent, as_of, revoked=law_revoked is not None)
        )
    out.sort(key=lambda p: pasal_sort_key(p.pasal))
    acts = sorted((_source(d) for d in chain), key=lambda a: (a.effective_from or dt.date.min, a.doc_id))
    notes: list[str] = []
    if law_revoked:
        notes.append(f"{base.meta.number} was revoked with effect from {law_revoked.isoformat()}.")
    if any(p.changed_outside for p in out):
        notes.append(
            "Pasal marked 'changed outside the knowledge base' may have been amended by an act that is not "
            "stored; their wording is the last one the knowledge base holds."
        )
    return ConsolidatedLaw(
        query=law,
        doc_id=base.meta.id,
        number=base.meta.number,
        title=base.meta.title,
        as_of=as_of,
        pasal=tuple(out),
        acts=tuple(a for a in acts if a.effective_from is None or a.effective_from <= as_of),
        absent=tuple(absent),
        not_yet=tuple(sorted(not_yet, key=pasal_sort_key)),
        law_revoked_on=law_revoked,
        notes=tuple(notes),
    )


def law_as_of(
    store: KnowledgeStore,
    law: str,
    as_of: dt.date,
    *,
    pasal: Iterable[str] = (),
    groups: frozenset[str] = frozenset({PUBLIC_GROUP}),
) -> dict[str, Any]:
    """The agent tool's view: :func:`consolidate` as JSON, optionally only the Pasal named in ``pasal``.

    Pure over the store (reads only).  An unknown law gives ``{"error": ...}`` instead of raising, so a
    tool call can report it to the model.
    """
    try:
        law_view = consolidate(store, law, as_of, groups=groups)
    except NotFoundError as exc:
        return {"error": str(exc), "query": law, "as_of": as_of.isoformat()}
    out = law_view.to_json()
    wanted = {p.upper() for p in pasal}
    if wanted:
        out["pasal"] = [p.to_json() for p in law_view.pasal if p.pasal.upper() in wanted]
        out["missing_pasal"] = sorted(wanted - {p.pasal.upper() for p in law_view.pasal}, key=pasal_sort_key)
    return out


def _pasal(
    pasal: str,
    provision: str,
    doc: StoredDocument,
    chunks: list[Chunk],
    absent: list[AbsentAct],
    as_of: dt.date,
    *,
    revoked: bool,
) -> ConsolidatedPasal:
    chunks = sorted(chunks, key=lambda c: c.seq)
    text = _version_text(chunks)
    start = max((c.valid_from for c in chunks if c.valid_from), default=None)
    ends = [c.valid_to for c in chunks if c.valid_to]
    end = min(ends) if ends else None
    # absent acts that may have changed this wording: ones amending the base law (any Pasal) or the act the
    # wording comes from, taking effect after this wording did and on or before the date
    base_id = provision.split(":", 1)[0]
    outside = tuple(
        a for a in absent if a.of in (base_id, doc.meta.id) and a.took_effect_between(start, as_of)
    )
    top = min(chunks, key=lambda c: (len(c.key), c.seq))
    return ConsolidatedPasal(
        pasal=pasal,
        provision=provision,
        text=text,
        source=_source(doc),
        valid_from=start,
        valid_to=end,
        location=top.location,
        chunk_ids=tuple(c.id for c in chunks),
        revoked=revoked or _is_deletion(text),
        changed_outside=outside,
    )


# --------------------------------------------------------------------------------------------
# Text and HTML
# --------------------------------------------------------------------------------------------


def provenance_line(p: ConsolidatedPasal) -> str:
    """ "wording of UU 42/2009, in force from 2010-04-01" (plus the marks), for every renderer."""
    since = p.valid_from.isoformat() if p.valid_from else "?"
    line = f"wording of {p.source.number}, in force from {since}"
    if p.valid_to:
        line += f" until {p.valid_to.isoformat()}"
    if p.revoked:
        line = f"REVOKED -- {line}"
    if p.changed_outside:
        acts = ", ".join(
            f"{a.number}{f' ({a.date.isoformat()})' if a.date else ''}" for a in p.changed_outside
        )
        line += f"; may have changed through {acts}, not in the knowledge base"
    if p.source.ocr_noisy:
        line += "; OCR-noisy source text"
    return line


def render_text(law: ConsolidatedLaw) -> str:
    lines = [f"{law.number} -- {law.title}", f"as it stood on {law.as_of.isoformat()}", ""]
    lines += [f"Note: {n}" for n in law.notes]
    for p in law.pasal:
        lines += ["", f"== Pasal {p.pasal} ==  [{provenance_line(p)}]", p.text]
    if law.not_yet:
        lines += ["", "Not yet in force on this date: " + ", ".join(f"Pasal {x}" for x in law.not_yet)]
    return "\n".join(lines) + "\n"


def render_html(law: ConsolidatedLaw) -> str:
    """A standalone HTML page; each Pasal is ``<section id="pasal-N">`` (a citation link target)."""
    e = html.escape
    acts = "".join(
        f"<li>{e(a.number)} &ndash; {e(a.title)}"
        f" (in force {e(a.effective_from.isoformat() if a.effective_from else '?')})"
        + (f' <a href="{e(a.official_url)}">official text</a>' if a.official_url else "")
        + "</li>"
        for a in law.acts
    )
    absent = "".join(
        f"<li>{e(a.number)} ({e(a.relation.replace('_', ' '))} {e(a.of)}"
        f"{', ' + e(a.date.isoformat()) if a.date else ''}) &ndash; not in the knowledge base</li>"
        for a in law.absent
    )
    sections: list[str] = []
    for p in law.pasal:
        cls = "pasal revoked" if p.revoked else "pasal"
        if p.changed_outside:
            cls += " outside"
        sections.append(
            f'<section class="{cls}" id="{e(p.anchor)}"><h2>Pasal {e(p.pasal)}</h2>'
            f'<p class="prov">{e(provenance_line(p))}</p><pre>{e(p.text)}</pre></section>'
        )
    notes = "".join(f'<p class="note">{e(n)}</p>' for n in law.notes)
    later = ", ".join("Pasal " + x for x in law.not_yet)
    not_yet = f'<p class="note">Not yet in force on this date: {e(later)}</p>' if later else ""
    return (
        '<!doctype html>\n<html lang="id"><head><meta charset="utf-8">'
        f"<title>{e(law.number)} per {e(law.as_of.isoformat())}</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto}pre{white-space:pre-wrap}"
        ".prov{color:#555;font-size:90%}.revoked pre{text-decoration:line-through;color:#888}"
        ".outside .prov{color:#a60}.note{background:#ffd}</style></head><body>"
        f"<h1>{e(law.number)} &ndash; {e(law.title)}</h1>"
        f"<p>As it stood on <strong>{e(law.as_of.isoformat())}</strong>, consolidated from the acts below."
        f"</p><ul>{acts}</ul>"
        + (f"<p>Acts of this chain not in the knowledge base:</p><ul>{absent}</ul>" if absent else "")
        + notes
        + "".join(sections)
        + not_yet
        + "</body></html>\n"
    )
