"""``dasar kb ACTION``: inspect and maintain the knowledge base.

Every action is one ``cmd_*`` function plus one entry in :data:`ACTIONS`; to add an action (e.g.
``kb check`` or ``kb export-vectors``), write its function and its ``_add_*`` argument builder and
append a line to :data:`ACTIONS`. Read actions open the knowledge base without loading the embedder,
so they start fast and work on a knowledge base built with any embedder.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.cli import kb_maintenance
from bot.cli.common import console, kb_option, print_json, settings

if TYPE_CHECKING:
    from kb.store.protocol import KnowledgeStore


def open_kb(args: argparse.Namespace) -> KnowledgeStore:
    """The configured knowledge base (``--kb``, ``DASAR_KB_URL``, ``DASAR_KB``), never created here."""
    from bot.settings import secret_or_none
    from kb.store.factory import open_store

    s = settings(args)
    return open_store(s.kb, secret_or_none(s.kb_url), None, create=False)


def doc_json(d: Any) -> dict[str, Any]:
    m = d.meta
    return {
        "id": m.id,
        "number": m.number,
        "title": m.title,
        "type": m.type,
        "status": m.status,
        "effective_from": m.effective_from,
        "effective_to": d.effective_to,
        "access": list(m.access),
        "entities": list(m.entities),
        "owner": m.owner,
        "version": d.version_no,
        "chunks": d.chunk_count,
        "quarantined": d.quarantine_reason,
        "ocr_noisy": m.ocr_noisy,
        "injection_flags": list(d.injection_flags),
        "source_path": d.source_path,
        "content_hash": d.content_hash,
        "chunker_version": d.chunker_version,
    }


def _notes(d: Any) -> list[str]:
    notes = []
    if d.quarantine_reason:
        notes.append(f"quarantined: {d.quarantine_reason}")
    if d.meta.ocr_noisy:
        notes.append("OCR-noisy text")
    if d.injection_flags:
        notes.append("instruction-like text flagged")
    return notes


def list_lines(docs: list[Any], corpus_version: str, width: int = 80) -> list[str]:
    """Two lines per document that fit ``width`` columns (80 by default).

    Line 1: id, status, period in effect, chunks. Line 2 (indented): number, type, access, entities, notes.
    """
    status_w, period_w, chunks_w = 11, 23, 6
    id_w = max(
        8, min(max((len(d.meta.id) for d in docs), default=8), width - status_w - period_w - chunks_w - 3)
    )
    out = [f"{len(docs)} documents (corpus {corpus_version})"]
    out.append(f"{'id':<{id_w}} {'status':<{status_w}} {'in effect':<{period_w}} {'chunks':>{chunks_w}}")
    for d in docs:
        doc_id = d.meta.id if len(d.meta.id) <= id_w else d.meta.id[: id_w - 1] + "…"
        period = f"{d.meta.effective_from or '?'} → {d.effective_to or ''}".rstrip()
        out.append(
            f"{doc_id:<{id_w}} {d.meta.status:<{status_w}} {period:<{period_w}} {d.chunk_count:>{chunks_w}}"
        )
        detail = [d.meta.number, d.meta.type, "access " + ",".join(d.meta.access)]
        if d.meta.entities:
            detail.append("entities " + ",".join(d.meta.entities))
        out.extend(_wrap(detail, width))
        if _notes(d):
            out.extend(_wrap(_notes(d), width))
    return out


def _wrap(parts: list[str], width: int, indent: str = "    ") -> list[str]:
    """``parts`` joined by " · " on indented lines of at most ``width`` columns (a long part is cut)."""
    lines: list[str] = []
    line = ""
    for part in parts:
        candidate = f"{line} · {part}" if line else part
        if line and len(indent) + len(candidate) > width:
            lines.append(indent + line)
            candidate = part
        line = candidate
    if line:
        lines.append(indent + line)
    return [ln if len(ln) <= width else ln[: width - 1] + "…" for ln in lines]


def cmd_kb_list(args: argparse.Namespace) -> int:
    store = open_kb(args)
    docs = store.list_documents()
    if args.json:
        print_json({"corpus_version": store.corpus_version(), "documents": [doc_json(d) for d in docs]})
        return 0
    for line in list_lines(docs, store.corpus_version(), width=max(60, min(console.width, 120))):
        console.print(line, markup=False, highlight=False, overflow="ignore", crop=False)
    return 0


def cmd_kb_show(args: argparse.Namespace) -> int:
    from kb.errors import NotFoundError

    store = open_kb(args)
    doc = store.get_document(args.doc_id)
    if doc is None:
        raise NotFoundError(f"no document {args.doc_id!r} in {store.path} (see `dasar kb list`)")
    chunks = store.chunks_of(args.doc_id, indexed_only=True)
    if args.json:
        print_json(
            {
                **doc_json(doc),
                "versions": store.versions(args.doc_id),
                "chunk_list": [
                    {
                        "chunk_id": c.id,
                        "location": c.location,
                        "kind": c.kind,
                        "valid_from": c.valid_from,
                        "valid_to": c.valid_to,
                        "chars": len(c.text),
                    }
                    for c in chunks
                ],
            }
        )
        return 0
    for key, value in doc_json(doc).items():
        console.print(f"{key}: {value}", markup=False)
    console.print(f"versions: {store.versions(args.doc_id)}", markup=False)
    limit = None if args.all else 25
    console.print(f"chunks ({len(chunks)}):")
    for c in chunks[:limit]:
        window = f"{c.valid_from or ''}..{c.valid_to or ''}"
        console.print(f"  {c.location}  {c.kind} {window} {len(c.text)} chars", markup=False)
    if limit and len(chunks) > limit:
        console.print(f"  ... {len(chunks) - limit} more (use --all)")
    return 0


def cmd_kb_remove(args: argparse.Namespace) -> int:
    from bot.answer_cache import answer_cache_for
    from kb.linking import relink

    store = open_kb(args)
    removed = store.remove_document(args.doc_id)
    relink(store)
    cache = answer_cache_for(settings(args), store)  # the store purges its own entries; Redis needs this
    if cache is not None:
        cache.purge_documents([args.doc_id])
    if args.json:
        print_json({"removed": args.doc_id, "chunks": removed})
    else:
        console.print(
            f"Removed {args.doc_id}: {removed} chunks, their vectors, edges and cached answers purged.",
            markup=False,
        )
    return 0


def _add_list(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")


def _add_show(p: argparse.ArgumentParser) -> None:
    p.add_argument("doc_id")
    p.add_argument("--all", action="store_true", help="list every chunk")
    p.add_argument("--json", action="store_true")


def _add_remove(p: argparse.ArgumentParser) -> None:
    p.add_argument("doc_id")
    p.add_argument("--json", action="store_true")


#: ``dasar kb`` actions: (name, help, argument builder, command). Append new actions here.
ACTIONS: list[
    tuple[str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
] = [
    ("list", "every document with status, period, access and flags", _add_list, cmd_kb_list),
    ("show", "one document: metadata, versions and chunks", _add_show, cmd_kb_show),
    (
        "remove",
        "remove a document and purge its chunks, vectors and cached answers",
        _add_remove,
        cmd_kb_remove,
    ),
    (
        "export-vectors",
        "rebuild the shipped vector pack from this knowledge base's vectors",
        kb_maintenance.add_export_vectors,
        kb_maintenance.cmd_kb_export_vectors,
    ),
    (
        "check",
        "list the laws each document's chunks claim and links to absent acts",
        kb_maintenance.add_check,
        kb_maintenance.cmd_kb_check,
    ),
    (
        "impact",
        "list approved FAQs, open tickets and recent answers citing provisions that changed",
        kb_maintenance.add_impact,
        kb_maintenance.cmd_kb_impact,
    ),
    (
        "cache",
        "purge cached answers (all, or with --doc those citing documents)",
        kb_maintenance.add_cache,
        kb_maintenance.cmd_kb_cache,
    ),
]


def register(sub: Any) -> None:
    p = sub.add_parser("kb", help="list, show, remove or check documents; export the shipped vectors")
    kb_sub = p.add_subparsers(dest="kb_command", required=True, metavar="ACTION")
    for name, help_text, add_arguments, func in ACTIONS:
        q = kb_sub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        add_arguments(q)
        kb_option(q)
        q.set_defaults(func=func)
