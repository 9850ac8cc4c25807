"""Consistency check of a knowledge base: which laws each document's chunks claim to belong to, and
which links point at documents the knowledge base does not hold.

A chunk *claims* a law through its label: a restated Pasal of an amending act carries the amended law
("Pasal 7 UU 8/1983 (Pasal 4 angka 2 UU 7/2021)"), an elucidation of such a Pasal names it too, every
other chunk belongs to its own document.  The check compares those claims with what the metadata says the
act amends, so a chunk labelled with the wrong law (the nearest act present instead of the one the text
names) is found.

Findings are of three kinds:

* ``errors`` -- real inconsistencies (``CheckReport.ok`` is False): a restated Pasal whose amended law
  could not be read, a chunk that claims to amend a law its document's metadata does not name (nor any
  act of that law's amendment chain), a relation of a document to itself.
* ``warnings`` -- worth a look, not wrong by themselves: an elucidation of a restated Pasal that the body
  of the act does not restate (often OCR), an elucidation passage holding another Pasal's heading (its
  boundary lost to OCR: that Pasal's elucidation is cited under this one's label), a relation recorded on
  one side only.
* ``absent`` -- links to acts that are not in the knowledge base (with the date metadata records, when
  it does).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from kb.chunking.regulation import loose_elucidation_headings
from kb.linking import doc_lookup
from kb.metadata import related_date
from kb.refs import find_doc_refs, key_from_doc_id
from kb.store.protocol import KnowledgeStore, StoredDocument

RELATIONS: tuple[str, ...] = ("amends", "amended_by", "revokes", "revoked_by")
_INVERSE = {"amends": "amended_by", "amended_by": "amends", "revokes": "revoked_by", "revoked_by": "revokes"}


@dataclass(frozen=True)
class AbsentLink:
    """A link from ``doc_id`` to an act that is not in the knowledge base."""

    relation: str  # amends | amended_by | revokes | revoked_by | chunk_amends
    target: str  # canonical key, e.g. "PMK 81/2024"
    date: dt.date | None = None  # from the document's metadata (related_dates), when recorded
    chunks: int = 0  # for chunk_amends: how many chunks restate Pasal of the absent act

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"relation": self.relation, "target": self.target}
        out["date"] = self.date.isoformat() if self.date else None
        if self.chunks:
            out["chunks"] = self.chunks
        return out


@dataclass(frozen=True)
class Finding:
    kind: str
    detail: str
    chunk_ids: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "detail": self.detail}
        if self.chunk_ids:
            out["chunks"] = list(self.chunk_ids[:5])
            out["chunk_count"] = len(self.chunk_ids)
        return out


@dataclass
class DocumentCheck:
    doc_id: str
    number: str
    chunks: int
    #: law (canonical key) -> number of chunks that claim to belong to it; the document's own number included
    laws: dict[str, int] = field(default_factory=dict)
    absent: list[AbsentLink] = field(default_factory=list)
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.doc_id,
            "number": self.number,
            "chunks": self.chunks,
            "laws": dict(sorted(self.laws.items(), key=lambda kv: (-kv[1], kv[0]))),
            "absent": [a.to_json() for a in self.absent],
            "errors": [f.to_json() for f in self.errors],
            "warnings": [f.to_json() for f in self.warnings],
        }


@dataclass
class CheckReport:
    documents: list[DocumentCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """False when any document has a real inconsistency (absent acts and warnings do not count)."""
        return not any(d.errors for d in self.documents)

    @property
    def error_count(self) -> int:
        return sum(len(d.errors) for d in self.documents)

    @property
    def warning_count(self) -> int:
        return sum(len(d.warnings) for d in self.documents)

    @property
    def absent_targets(self) -> list[str]:
        return sorted({a.target for d in self.documents for a in d.absent})

    def document(self, doc_id: str) -> DocumentCheck | None:
        return next((d for d in self.documents if d.doc_id == doc_id), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "documents_checked": len(self.documents),
            "errors": self.error_count,
            "warnings": self.warning_count,
            "absent_acts": self.absent_targets,
            "documents": [d.to_json() for d in self.documents],
        }


def _roots(ref: str, by_id: dict[str, StoredDocument], lookup: dict[str, str]) -> set[str]:
    """``ref`` and every act of the knowledge base it reaches through ``amends`` links (its law's chain)."""
    seen: set[str] = set()
    todo = [lookup.get(ref, ref)]
    while todo:
        cur = todo.pop()
        if cur in seen:
            continue
        seen.add(cur)
        doc = by_id.get(cur)
        if doc is not None:
            todo.extend(lookup.get(a, a) for a in doc.meta.amends)
    return seen


def _claimed_law(location: str, own: str) -> str:
    """The law a chunk label names before the "(Pasal I angka 3 UU 16/2000)" provenance, else the own act."""
    head = location.split(" (", 1)[0]
    refs = find_doc_refs(head)
    return refs[-1].key if refs else own


def _holds_other_heading(kind: str, pasal: str | None, text: str) -> bool:
    """Whether an elucidation passage of Pasal ``pasal`` holds another Pasal's heading after its start."""
    if kind != "penjelasan":
        return False
    return any(m.start() >= 3 and m.group(1) != pasal for m in loose_elucidation_headings(text))


def check_corpus(store: KnowledgeStore) -> CheckReport:
    """Check every document of ``store``; see the module docstring for what counts as an error."""
    docs = sorted(store.list_documents(), key=lambda d: d.meta.id)
    lookup = doc_lookup(docs)
    by_id = {d.meta.id: d for d in docs}
    payloads: dict[str, list[tuple[Any, dict[str, Any]]]] = defaultdict(list)
    for chunk, payload in store.iter_parse_payloads():
        payloads[chunk.doc_id].append((chunk, payload))

    report = CheckReport()
    for doc in docs:
        meta = doc.meta
        items = payloads.get(meta.id, [])
        check = DocumentCheck(meta.id, meta.number, len(items))
        laws: Counter[str] = Counter()
        amend_chunks: dict[str, list[str]] = defaultdict(list)
        restated: set[tuple[str, str]] = set()
        for chunk, payload in items:
            amends = payload.get("amends")
            if amends:
                law = str(amends.get("law") or "?")
                laws[law] += 1
                amend_chunks[law].append(chunk.id)
                restated.add((law, str(amends.get("pasal"))))
            elif chunk.kind == "penjelasan":
                laws[_claimed_law(chunk.location, meta.number)] += 1
            else:
                laws[meta.number] += 1
        check.laws = dict(laws)

        declared = {lookup.get(a, a) for a in meta.amends} | {key_from_doc_id(a) or a for a in meta.amends}
        declared_roots: set[str] = set()
        for a in meta.amends:
            declared_roots |= _roots(a, by_id, lookup)
        for law, ids in sorted(amend_chunks.items()):
            if law == "?":
                check.errors.append(
                    Finding("amended_law_unread", "restated Pasal whose amended law was not read", tuple(ids))
                )
                continue
            target = lookup.get(law, law)
            if target not in declared and not (_roots(law, by_id, lookup) & (declared_roots | declared)):
                named = ", ".join(meta.amends) or "nothing"
                check.errors.append(
                    Finding(
                        "undeclared_amended_law",
                        f"chunks restate Pasal of {law}, but the metadata says the act amends {named}",
                        tuple(ids),
                    )
                )
            if target not in by_id:
                check.absent.append(AbsentLink("chunk_amends", law, related_date(meta, law), chunks=len(ids)))

        # elucidations of restated Pasal that the body does not restate
        orphan: list[str] = []
        for chunk, payload in items:
            if chunk.kind != "penjelasan" or payload.get("amends") or not chunk.pasal:
                continue
            law = _claimed_law(chunk.location, meta.number)
            if law != meta.number and (law, chunk.pasal) not in restated:
                orphan.append(chunk.id)
        if orphan:
            check.warnings.append(
                Finding(
                    "elucidation_without_restated_pasal",
                    "elucidation labelled with an amended law's Pasal that the act's body does not restate",
                    tuple(orphan),
                )
            )

        merged = [chunk.id for chunk, _ in items if _holds_other_heading(chunk.kind, chunk.pasal, chunk.text)]
        if merged:
            check.warnings.append(
                Finding(
                    "heading_inside_elucidation",
                    "elucidation passage holding another Pasal's heading: its boundary was lost (OCR), and "
                    "that Pasal's elucidation is cited under this label",
                    tuple(merged),
                )
            )

        for relation in RELATIONS:
            for ref in getattr(meta, relation):
                found = lookup.get(ref)
                if found is None:
                    check.absent.append(AbsentLink(relation, ref, related_date(meta, ref)))
                    continue
                target = found
                if target == meta.id:
                    check.errors.append(Finding("self_relation", f"{relation} names the document itself"))
                    continue
                other = by_id[target].meta
                back: set[str] = set()
                for r in getattr(other, _INVERSE[relation]):
                    back |= _roots(r, by_id, lookup)
                # amending acts link to the base law: A amended_by B holds when B amends A's chain
                if meta.id not in back and not (_roots(meta.id, by_id, lookup) & back):
                    check.warnings.append(
                        Finding(
                            "one_sided_relation",
                            f"{meta.id} {relation} {target}, but {target} has no "
                            f"{_INVERSE[relation]} {meta.id}",
                        )
                    )
        report.documents.append(check)
    return report
