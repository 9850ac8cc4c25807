"""Corpus-wide linking: validity windows across amendment chains, revocation dates, cross-references
and definition edges.

These facts depend on more than one document (an amending act changes when the amended law's Pasal
stops applying; a revoking regulation ends another's period; a reference resolves only once its
target is ingested), so they are recomputed over the whole corpus after every ingest that changed
something, in one transaction.

Provisions: every Pasal of a law is a *provision* ("uu-8-1983:pasal-7").  The original wording and
each restatement by an amending act ("Ketentuan Pasal 7 diubah sehingga berbunyi ...") are versions
of that provision with non-overlapping ``[valid_from, valid_to)`` windows; a version starts at the
date written in the provision itself, else at the date the amending act's closing provisions give
for that part ("Ketentuan sebagaimana dimaksud dalam Pasal 4 mulai berlaku pada tanggal 1 April
2022"), else at the amending act's effective date.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kb.chunking.regulation import ACT_NAME_PREFIX, DEFINES
from kb.dates import parse_indonesian_date
from kb.metadata import related_date, revoked_part
from kb.model import Chunk, Edge
from kb.refs import find_doc_refs, key_from_doc_id
from kb.store.protocol import KnowledgeStore, StoredDocument

logger = logging.getLogger(__name__)

_PART_START = re.compile(
    r"Ketentuan\s+sebagaimana\s+dimaksud\s+dalam\s+Pasal\s+(?P<pasal>[0-9IVX]+[A-Z]?)"
    r"[^.;]{0,160}?mulai\s+berlaku\s+(?:pada\s+|sejak\s+)?(?:tanggal\s+(?P<date>\d{1,2}\s+\w+\s*\d{4})|"
    r"tahun\s+pajak\s+(?P<year>(?:19|20)\d\d))",
    re.IGNORECASE,
)
MAX_DEFINITION_EDGES = 6


@dataclass
class _Version:
    doc_id: str
    start: dt.date | None
    chunks: list[tuple[Chunk, dt.date | None]]  # chunk, its own explicit start
    deleted: bool = False


def doc_lookup(docs: Iterable[StoredDocument]) -> dict[str, str]:
    """Map ids and canonical numbers ("UU 8/1983") to document ids."""
    out: dict[str, str] = {}
    for d in docs:
        out[d.meta.id] = d.meta.id
        out[d.meta.number] = d.meta.id
        key = key_from_doc_id(d.meta.id)
        if key:
            out.setdefault(key, d.meta.id)
    return out


def _chain_root(doc_id: str, doc_by_id: dict[str, StoredDocument], lookup: dict[str, str]) -> str:
    """Follow single-target ``amends`` links to the base law.

    Amending acts name the law they change as "UU 7/1983 ... sebagaimana telah ... diubah terakhir dengan UU
    36/2008"; when the text names the last amending act, its Pasal are still Pasal of the base law.
    """
    seen = {doc_id}
    while doc_id in doc_by_id:
        targets = [lookup[a] for a in doc_by_id[doc_id].meta.amends if a in lookup]
        if len(targets) != 1 or targets[0] in seen:
            break
        doc_id = targets[0]
        seen.add(doc_id)
    return doc_id


def _effective_to(docs: list[StoredDocument], lookup: dict[str, str]) -> dict[str, dt.date | None]:
    """A revoked document stops at its revoker's start (an absent revoker's recorded date); explicit
    ``effective_to`` wins when earlier."""
    starts = {d.meta.id: d.meta.effective_from for d in docs if d.quarantine_reason is None}
    revokers: dict[str, set[str]] = defaultdict(set)
    for d in docs:
        if d.quarantine_reason is not None:
            continue
        for ref in d.meta.revokes:
            target = lookup.get(ref)
            if target and target != d.meta.id:
                revokers[target].add(d.meta.id)
    for d in docs:
        for ref in d.meta.revoked_by:
            src = lookup.get(ref)
            if src and src in starts and src != d.meta.id:
                revokers[d.meta.id].add(src)
    out: dict[str, dt.date | None] = {}
    for d in docs:
        candidates: list[dt.date] = [s for r in revokers.get(d.meta.id, ()) if (s := starts.get(r))]
        # a revoking act that is not in the knowledge base still ends the document on the date metadata
        # records for it (UU 11/2020 stops at Perppu 2/2022, 2022-12-30): never shown as current after it
        candidates += [
            when
            for ref in d.meta.revoked_by
            if lookup.get(ref) is None and (when := related_date(d.meta, ref)) is not None
        ]
        if d.meta.effective_to:
            candidates.append(d.meta.effective_to)
        out[d.meta.id] = min(candidates) if candidates else None
    return out


def _revocation_ends(
    docs: list[StoredDocument], lookup: dict[str, str]
) -> tuple[dict[str, dt.date], dict[str, dt.date]]:
    """What stored acts revoke short of a whole stored act, each -> the revoker's start.

    First, whole Pasal of a stored act (``revokes_parts``), as ``"<doc id>:pasal-<n>"``: PP 9/2021 stays
    in force, its Pasal 5 (the VAT rules it restated for PP 1/2012) stops on 2 December 2022 with PP 44/2022
    Pasal 32 huruf b.  Second, acts the knowledge base does not hold, by canonical number: PP 1/2012 is not
    stored, but PP 9/2021 restates its Pasal, and PP 44/2022 revoked it."""
    parts: dict[str, dt.date] = {}
    absent: dict[str, dt.date] = {}
    for d in docs:
        start = d.meta.effective_from
        if d.quarantine_reason is not None or start is None:
            continue
        for part in d.meta.revokes_parts:
            act, pasal = revoked_part(part)
            target = lookup.get(act)
            if target and target != d.meta.id:
                key = f"{target}:pasal-{pasal}"
                parts[key] = min(parts.get(key, start), start)
        for ref in d.meta.revokes:
            if lookup.get(ref) is None:
                absent[ref] = min(absent.get(ref, start), start)
    return parts, absent


def _revocation_cut(
    chunk: Chunk,
    provisions: Iterable[str | None],
    revoked_parts: dict[str, dt.date],
    absent_ends: dict[str, dt.date],
) -> dt.date | None:
    """When a passage stops because the Pasal it sits in, or the wording it restates or explains
    (``provisions``), was revoked on its own (the act around it staying in force)."""
    own = _act_pasal(chunk.key)
    cuts = [revoked_parts.get(f"{chunk.doc_id}:pasal-{own}") if own else None]
    cuts += [revoked_parts.get(p) for p in provisions if p]
    if chunk.kind == "penjelasan":
        # the elucidation of a restated Pasal of an absent, revoked act ("Penjelasan Pasal 19 ayat (3) PP
        # 1/2012 (Pasal 5 angka 6 PP 9/2021)") lives as long as that wording
        cuts += [absent_ends.get(ref.key) for ref in find_doc_refs(chunk.location)]
    found = [c for c in cuts if c is not None]
    return min(found) if found else None


def _part_starts(chunks: list[Chunk]) -> dict[str, dt.date]:
    """Closing provisions of an amending act: which of its Pasal start on which date."""
    out: dict[str, dt.date] = {}
    for c in chunks:
        if "mulai berlaku" not in c.text:
            continue
        for m in _PART_START.finditer(c.text):
            # "mulai berlaku pada Tahun Pajak 2022" applies from the first day of that tax year
            when = (
                parse_indonesian_date(m.group("date"))
                if m.group("date")
                else dt.date(int(m.group("year")), 1, 1)
            )
            if when:
                out.setdefault(m.group("pasal").upper(), when)
    return out


def _act_pasal(key: str) -> str | None:
    """The amending act's own Pasal a node sits in ("pasal-4/angka-3/..." -> "4")."""
    for part in key.split("/"):
        m = re.fullmatch(r"pasal-([0-9ivx]+[a-z]?)(?:~\d+)?", part, flags=re.IGNORECASE)
        if m:
            return m.group(1).upper()
    return None


def relink(store: KnowledgeStore) -> None:
    docs = store.list_documents()
    lookup = doc_lookup(docs)
    doc_by_id = {d.meta.id: d for d in docs}
    eff_to = _effective_to(docs, lookup)
    revoked_parts, absent_ends = _revocation_ends(docs, lookup)
    rows = list(store.iter_parse_payloads())
    by_doc: dict[str, list[tuple[Chunk, dict[str, Any]]]] = defaultdict(list)
    for chunk, payload in rows:
        by_doc[chunk.doc_id].append((chunk, payload))

    # --- provisions and versions ---------------------------------------------------------------
    versions: dict[str, dict[str, _Version]] = defaultdict(dict)
    provision_of: dict[str, str] = {}
    for doc_id, items in by_doc.items():
        doc = doc_by_id[doc_id]
        chunks = [c for c, _ in items]
        part_start = _part_starts(chunks)
        for chunk, payload in items:
            amends = payload.get("amends")
            if chunk.kind == "penjelasan":
                continue
            if amends:
                target = _chain_root(lookup.get(amends["law"], amends["law"]), doc_by_id, lookup)
                prov = f"{target}:pasal-{amends['pasal']}"
                own = (
                    dt.date.fromisoformat(amends["effective_from"]) if amends.get("effective_from") else None
                )
                act_part = _act_pasal(chunk.key)
                start = part_start.get(act_part) if act_part else None
                start = start or doc.meta.effective_from
                ver = versions[prov].setdefault(doc_id, _Version(doc_id, start, []))
                ver.chunks.append((chunk, own))
                ver.deleted = ver.deleted or bool(amends.get("deleted"))
                provision_of[chunk.id] = prov
            elif chunk.pasal and chunk.kind in ("pasal", "ayat", "huruf", "table") and doc.meta.is_regulation:
                prov = f"{doc_id}:pasal-{chunk.pasal}"
                ver = versions[prov].setdefault(doc_id, _Version(doc_id, doc.meta.effective_from, []))
                ver.chunks.append((chunk, None))
                provision_of[chunk.id] = prov

    windows: dict[str, tuple[str | None, dt.date | None, dt.date | None]] = {}
    for prov, by_source in versions.items():
        ordered = sorted(by_source.values(), key=lambda v: (v.start or dt.date.min, v.doc_id))
        for i, ver in enumerate(ordered):
            nxt = ordered[i + 1].start if i + 1 < len(ordered) else None
            base = prov.split(":", 1)[0]
            # a base law the knowledge base does not hold ends when a stored act revokes it
            end_doc = eff_to.get(base) if base in doc_by_id else absent_ends.get(base)
            own_end = eff_to.get(ver.doc_id)
            ends = [d for d in (nxt, end_doc, own_end) if d]
            end = min(ends) if ends else None
            for chunk, own_start in ver.chunks:
                start = max(d for d in (ver.start, own_start) if d) if (ver.start or own_start) else None
                windows[chunk.id] = (prov, start, end)
    for chunk, payload in rows:
        if chunk.id in windows:
            continue
        doc = doc_by_id[chunk.doc_id]
        end = eff_to.get(chunk.doc_id)
        start = doc.meta.effective_from
        if chunk.kind == "penjelasan" and chunk.pasal and not payload.get("amends"):
            # an elucidation lives as long as the wording it explains: the base law's until the Pasal is
            # restated, an amending act's restatement until the next restatement
            explained = _explained_provision(chunk, doc, lookup, doc_by_id)
            by_source = versions.get(explained, {}) if explained else {}
            ordered = sorted(by_source.values(), key=lambda v: (v.start or dt.date.min, v.doc_id))
            for i, ver in enumerate(ordered):
                if ver.doc_id != chunk.doc_id:
                    continue
                start = ver.start or start
                nxt = ordered[i + 1].start if i + 1 < len(ordered) else None
                end = min(d for d in (nxt, end) if d) if (nxt or end) else None
                break
            else:
                # the Pasal's own wording was never read from this act (a heading OCR ran into its chapter
                # title): the first restatement after the act still ends the elucidation, else UU PPN 1983's
                # elucidation of Pasal 1 answered 2022 questions beside UU 42/2009's definitions
                later = [v.start for v in ordered if v.start and start and v.start > start]
                if later:
                    end = min(d for d in (min(later), end) if d)
        windows[chunk.id] = (None, start, end)
    # a Pasal revoked on its own ends its passages, the wording it restated and their elucidations (nothing to
    # do for a corpus whose acts revoke only whole acts)
    if revoked_parts or absent_ends:
        for chunk, _ in rows:
            provision, valid_from, valid_to = windows[chunk.id]
            explained = (
                _explained_provision(chunk, doc_by_id[chunk.doc_id], lookup, doc_by_id)
                if chunk.kind == "penjelasan" and chunk.pasal
                else None
            )
            cut = _revocation_cut(chunk, (provision, explained), revoked_parts, absent_ends)
            if cut is not None and (valid_to is None or cut < valid_to):
                windows[chunk.id] = (provision, valid_from, cut)

    # --- edges: definitions, references, elucidations ------------------------------------------
    by_provision = _provision_index(rows, windows)
    names = _act_names(by_doc)
    laws = _LawIndex(lookup, doc_by_id, by_provision, names)
    edges: list[Edge] = []
    for doc_id, items in by_doc.items():
        edges.extend(_definition_edges(items))
        edges.extend(_reference_edges(doc_id, items, laws))
    store.replace_derived(
        [(cid, prov, vf, vt) for cid, (prov, vf, vt) in sorted(windows.items())],
        sorted(set(edges), key=lambda e: (e.src, e.kind, e.dst)),
        eff_to,
    )
    logger.info(
        "documents=%s, chunks=%s, provisions=%s, edges=%s | corpus relinked",
        len(docs),
        len(rows),
        len(versions),
        len(edges),
    )


def _explained_provision(
    chunk: Chunk, doc: StoredDocument, lookup: dict[str, str], doc_by_id: dict[str, StoredDocument]
) -> str | None:
    """The provision a Penjelasan chunk explains: its own law's Pasal, or the amended law its location
    names."""
    for ref in find_doc_refs(chunk.location):
        target = lookup.get(ref.key)
        if target and target != doc.meta.id:
            return f"{_chain_root(target, doc_by_id, lookup)}:pasal-{chunk.pasal}"
    return f"{doc.meta.id}:pasal-{chunk.pasal}"


def _definition_edges(items: list[tuple[Chunk, dict[str, Any]]]) -> list[Edge]:
    terms: list[tuple[str, str]] = []
    for chunk, payload in items:
        for term in payload.get("defines") or ():
            if len(term) >= 3:
                terms.append((term, chunk.id))
    if not terms:
        return []
    terms.sort(key=lambda t: (-len(t[0]), t[0], t[1]))
    patterns = [(re.compile(rf"(?<!\w){re.escape(t)}(?!\w)"), t, cid) for t, cid in terms]
    out: list[Edge] = []
    for chunk, _ in items:
        if chunk.kind == "definition" or not chunk.indexed:
            continue
        hits: list[str] = []
        for rx, _term, cid in patterns:
            if cid != chunk.id and cid not in hits and rx.search(chunk.text):
                hits.append(cid)
                if len(hits) >= MAX_DEFINITION_EDGES:
                    break
        out.extend(Edge(chunk.id, cid, "uses_definition") for cid in hits)
    return out


def _squashed(name: str) -> str:
    """An act's short name compared letter by letter ("Undang- Undang Pajak" == "UndangUndang Pajak")."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


_ACT_WORD = re.compile(r"(?:undang|peraturan|keputusan)", re.IGNORECASE)


def _act_names(by_doc: dict[str, list[tuple[Chunk, dict[str, Any]]]]) -> dict[str, dict[str, str]]:
    """Short names of acts each document defines: ``{doc_id: {"undangundangpajakpenghasilan": "UU 7/1983"}}``.

    Regulations name the laws they apply by a defined short name ("Undang-Undang Pajak Penghasilan adalah
    Undang-Undang Nomor 7 Tahun 1983 ... diubah terakhir dengan ..."): the first act the definition names is
    the law (later ones are its amendments).  Key ``""`` holds the corpus-wide reading (the key most
    definitions give) for documents that use a name without defining it.
    """
    out: dict[str, dict[str, str]] = defaultdict(dict)
    votes: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for doc_id, items in by_doc.items():
        for chunk, payload in items:
            if chunk.kind != "definition":
                continue
            for term in (payload.get("defines") or ())[:1]:
                if not _ACT_WORD.match(term):
                    continue
                body = chunk.text.replace("\u00ad", "-")
                at = re.search(rf"\b{DEFINES}\b", body)
                refs = find_doc_refs(body[at.end() : at.end() + 200]) if at else []
                if not refs or refs[0].start > 40:
                    continue
                name = _squashed(term)
                out[doc_id].setdefault(name, refs[0].key)
                votes[name][refs[0].key] += 1
    for name, keys in votes.items():
        out[""][name] = max(sorted(keys), key=lambda k: keys[k])
    return out


def _provision_index(
    rows: list[tuple[Chunk, dict[str, Any]]],
    windows: dict[str, tuple[str | None, dt.date | None, dt.date | None]],
) -> dict[tuple[str, str | None], list[Chunk]]:
    """Chunks of every provision by ayat (``"*"``: the chunks without an ayat), every version, text order."""
    out: dict[tuple[str, str | None], list[Chunk]] = defaultdict(list)
    for chunk, _ in rows:
        prov = windows.get(chunk.id, (None, None, None))[0]
        if prov is None or chunk.kind == "penjelasan":
            continue
        out[(prov, chunk.ayat)].append(chunk)
        if chunk.ayat is None:
            out[(prov, "*")].append(chunk)
    return out


@dataclass
class _LawIndex:
    """What a cross-reference into another act resolves through: documents, chains, provisions, names."""

    lookup: dict[str, str]
    doc_by_id: dict[str, StoredDocument]
    by_provision: dict[tuple[str, str | None], list[Chunk]]
    names: dict[str, dict[str, str]]

    def doc_of(self, ref_doc: str, citing: str) -> str | None:
        """The document a reference's ``doc`` names: a key ("UU 36/2008") or an act's short name."""
        if not ref_doc.startswith(ACT_NAME_PREFIX):
            return self.lookup.get(ref_doc)
        said = _squashed(ref_doc[len(ACT_NAME_PREFIX) :])
        for names in (self.names.get(citing, {}), self.names.get("", {})):
            hits = [n for n in names if said.startswith(n)]
            if hits:
                return self.lookup.get(names[max(hits, key=lambda n: (len(n), n))])
        return None

    def provision_chunks(self, target_doc: str, pasal: str, ayat: str | None) -> list[str]:
        """One chunk per version of the cited Pasal (ayat) of a law, across its amendment chain: each
        version is valid in its own window, so a reader at any date finds the wording of that date."""
        root = _chain_root(target_doc, self.doc_by_id, self.lookup)
        prov = f"{root}:pasal-{pasal}"
        wanted = self.by_provision.get((prov, ayat), []) if ayat else []
        fallback = self.by_provision.get((prov, "*"), [])
        first: dict[str, str] = {}  # version -> its chunk: the ayat's own before the whole Pasal's
        for chunk in wanted + fallback:
            first.setdefault(chunk.doc_id, chunk.id)
        return list(first.values())


def _reference_edges(doc_id: str, items: list[tuple[Chunk, dict[str, Any]]], laws: _LawIndex) -> list[Edge]:
    index: dict[tuple[str, str | None], list[str]] = defaultdict(list)
    scoped: dict[tuple[str, str | None], list[str]] = defaultdict(list)
    for chunk, _ in items:
        if chunk.kind == "penjelasan" or not chunk.pasal:
            continue
        index[(chunk.pasal, chunk.ayat)].append(chunk.id)
        if chunk.ayat is None:
            index[(chunk.pasal, "*")].append(chunk.id)
        scoped[(chunk.pasal_key, chunk.ayat)].append(chunk.id)
    out: list[Edge] = []
    for chunk, payload in items:
        if not chunk.indexed:
            continue
        if chunk.kind == "penjelasan" and chunk.pasal:
            for cid in index.get((chunk.pasal, chunk.ayat), [])[:1] or index.get((chunk.pasal, "*"), [])[:1]:
                out.append(Edge(chunk.id, cid, "explains"))
        for ref in payload.get("references") or ():
            kind = ref.get("kind")
            if kind == "ayat" and ref.get("ayat"):
                for cid in scoped.get((chunk.pasal_key, ref["ayat"]), [])[:1]:
                    if cid != chunk.id:
                        out.append(Edge(chunk.id, cid, "references"))
            elif kind == "pasal" and ref.get("pasal"):
                # a Pasal of another act (named by number or by its defined short name) resolves into that
                # act's provision, every version of it; an act that is not in the corpus resolves nowhere
                target_doc = laws.doc_of(ref["doc"], doc_id) if ref.get("doc") else doc_id
                if target_doc is None:
                    continue
                if target_doc == doc_id:
                    cands = (
                        index.get((ref["pasal"], ref.get("ayat")), [])[:1]
                        or index.get((ref["pasal"], "*"), [])[:1]
                    )
                else:
                    cands = laws.provision_chunks(target_doc, ref["pasal"], ref.get("ayat"))
                for cid in cands:
                    if cid != chunk.id:
                        out.append(Edge(chunk.id, cid, "references"))
            elif kind == "doc" and ref.get("doc"):
                target_doc = laws.lookup.get(ref["doc"])
                if target_doc and target_doc != doc_id:
                    out.append(Edge(chunk.id, f"doc:{target_doc}", "references"))
    return out
