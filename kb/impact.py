"""What a change to the corpus changed: chunks whose wording or validity moved.

An ingest that adds, amends, revokes or removes a document can change far more than its own chunks:
relinking gives older wordings of an amended Pasal an end date, a revocation closes a whole act,
a removal re-opens windows.  :func:`snapshot` records, before and after, each indexed chunk's text
hash and validity window; :func:`diff` lists what differs, per chunk, so the layers above can find the
approved FAQs, open tickets and recent answers that cite them (``bot`` does that; ``kb`` knows no
tickets or FAQs).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Literal

from kb.store.protocol import KnowledgeStore

ChangeKind = Literal["added", "removed", "wording", "validity"]


@dataclass(frozen=True)
class ChunkState:
    """What citing a chunk depends on: its document, provision, wording and validity window."""

    doc_id: str
    location: str
    provision: str | None
    text_hash: str
    valid_from: dt.date | None
    valid_to: dt.date | None


@dataclass(frozen=True)
class ChunkChange:
    """One chunk whose citations may now be wrong."""

    chunk_id: str
    doc_id: str
    location: str
    provision: str | None
    kind: ChangeKind
    before: tuple[str | None, str | None] | None = None  # validity window (iso dates) before
    after: tuple[str | None, str | None] | None = None  # and after

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "chunk_id": self.chunk_id,
            "doc_id": self.doc_id,
            "location": self.location,
            "provision": self.provision,
            "change": self.kind,
        }
        if self.kind == "validity":
            out["valid_before"] = list(self.before or (None, None))
            out["valid_after"] = list(self.after or (None, None))
        return out


Snapshot = dict[str, ChunkState]


def snapshot(store: KnowledgeStore) -> Snapshot:
    """Every indexed chunk's citable state (text hash and window), by chunk id."""
    out: Snapshot = {}
    for doc in store.list_documents():
        for c in store.chunks_of(doc.meta.id, indexed_only=True):
            out[c.id] = ChunkState(
                doc_id=c.doc_id,
                location=c.location,
                provision=c.provision,
                text_hash=hashlib.sha256(c.text.encode()).hexdigest()[:16],
                valid_from=c.valid_from,
                valid_to=c.valid_to,
            )
    return out


def _window(state: ChunkState) -> tuple[str | None, str | None]:
    return (
        state.valid_from.isoformat() if state.valid_from else None,
        state.valid_to.isoformat() if state.valid_to else None,
    )


def diff(before: Snapshot, after: Snapshot) -> list[ChunkChange]:
    """The chunks added, removed, reworded or re-windowed between two snapshots, sorted by chunk id."""
    changes: list[ChunkChange] = []
    for cid in sorted(before.keys() | after.keys()):
        old, new = before.get(cid), after.get(cid)
        if old is None and new is not None:
            changes.append(ChunkChange(cid, new.doc_id, new.location, new.provision, "added"))
        elif new is None and old is not None:
            changes.append(ChunkChange(cid, old.doc_id, old.location, old.provision, "removed"))
        elif old is not None and new is not None:
            if old.text_hash != new.text_hash:
                changes.append(ChunkChange(cid, new.doc_id, new.location, new.provision, "wording"))
            elif _window(old) != _window(new):
                changes.append(
                    ChunkChange(
                        cid, new.doc_id, new.location, new.provision, "validity", _window(old), _window(new)
                    )
                )
    return changes


@dataclass(frozen=True)
class Impact:
    """The chunk changes of one ingest or removal, with the provisions and documents they touch."""

    changes: tuple[ChunkChange, ...]

    @property
    def chunk_ids(self) -> frozenset[str]:
        return frozenset(c.chunk_id for c in self.changes)

    @property
    def doc_ids(self) -> frozenset[str]:
        return frozenset(c.doc_id for c in self.changes)

    @property
    def provisions(self) -> frozenset[str]:
        return frozenset(c.provision for c in self.changes if c.provision)

    def to_json(self) -> dict[str, object]:
        kinds: dict[str, int] = {}
        for c in self.changes:
            kinds[c.kind] = kinds.get(c.kind, 0) + 1
        return {
            "chunks_changed": len(self.changes),
            "by_kind": dict(sorted(kinds.items())),
            "documents": sorted(self.doc_ids),
            "provisions": sorted(self.provisions),
            # "added" chunks cite nothing yet; list what existing citations may now be wrong about
            "changes": [c.to_json() for c in self.changes if c.kind != "added"],
        }
