"""``dasar`` command line: ingest, inspect and search the knowledge base, ask questions, evaluate.

Every command that prints results takes ``--json`` for machines; human output goes through rich.
Exit codes: 0 success, 1 some inputs failed (e.g. ingest errors), 2 bad usage or a fatal error.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bot.argtypes import iso_date
from bot.settings import Settings, load_settings

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


class CliError(Exception):
    """A fatal, user-facing CLI error (printed without a traceback, exit code 2)."""


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings(
        kb=getattr(args, "kb", None),
        directory=getattr(args, "directory", None),
        retrieval_mode=getattr(args, "mode", None),
    )


def _services(args: argparse.Namespace):
    from bot.wiring import Services

    return Services(_settings(args))


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False, default=str) + "\n")


# --- ingest --------------------------------------------------------------------------------------


class _RichProgress:
    """Ingest progress: one bar for documents, one for embedding (the slow part)."""

    def __init__(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._p = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err_console,
            transient=True,
        )
        self._docs = None
        self._embed = None

    def __enter__(self) -> _RichProgress:
        self._p.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._p.stop()

    def start(self, total_docs: int) -> None:
        self._docs = self._p.add_task("documents", total=total_docs)

    def document(self, path: str, status: str) -> None:
        if self._docs is not None:
            self._p.advance(self._docs)
        if self._embed is not None:
            self._p.remove_task(self._embed)
            self._embed = None

    def embedded(self, count: int, total: int) -> None:
        if self._embed is None:
            self._embed = self._p.add_task("  embedding", total=total)
        self._p.update(self._embed, completed=count, total=total)


def cmd_ingest(args: argparse.Namespace) -> int:
    from bot.wiring import injection_flagger
    from kb.ingest import ingest_paths

    services = _services(args)
    services.create_kb = True
    show_progress = not args.json and not args.no_progress and err_console.is_terminal
    if show_progress:
        with _RichProgress() as progress:
            report = ingest_paths(
                args.paths, services.store, services.embedder, flagger=injection_flagger, progress=progress
            )
    else:
        report = ingest_paths(args.paths, services.store, services.embedder, flagger=injection_flagger)
    if args.json:
        _print_json({"kb": str(services.store.path), **report.to_json(), "stats": services.store.stats()})
    else:
        stats = services.store.stats()
        console.print(f"[bold]Ingested into[/bold] {services.store.path}")
        rechunked = f", re-chunked {len(report.rechunked)}" if report.rechunked else ""
        console.print(
            f"  added {len(report.added)}, updated {len(report.updated)}{rechunked}, unchanged "
            f"{len(report.unchanged)}, failed {len(report.errors)}; {report.chunks_written} chunks "
            f"written, {report.vectors_embedded} vectors embedded ({report.vectors_cached} from cache)"
        )
        console.print(
            f"  knowledge base: {stats['documents']} documents, {stats['chunks']} chunks, "
            f"{stats['edges']} edges, {stats['quarantined']} quarantined"
        )
        for doc_id, reason in sorted(report.quarantined.items()):
            console.print(f"  [yellow]quarantined[/yellow] {doc_id}: {reason} (stored, never used to answer)")
        for doc_id, rules in sorted(report.flagged.items()):
            console.print(
                f"  [yellow]instruction-like text[/yellow] in {doc_id}: {', '.join(rules)} "
                "(kept as data; never followed)"
            )
        for err in report.errors:
            err_console.print(f"  [red]error[/red] {err}")
    return 0 if report.ok else 1


# --- kb list / show / remove ---------------------------------------------------------------------


def _doc_json(d: Any) -> dict[str, Any]:
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


def cmd_kb_list(args: argparse.Namespace) -> int:
    store = _services(args).store
    docs = store.list_documents()
    if args.json:
        _print_json({"corpus_version": store.corpus_version(), "documents": [_doc_json(d) for d in docs]})
        return 0
    table = Table(title=f"{len(docs)} documents (corpus {store.corpus_version()})")
    for col in ("id", "number", "type", "status", "in effect", "access", "chunks", "notes"):
        table.add_column(col)
    for d in docs:
        notes = []
        if d.quarantine_reason:
            notes.append(f"quarantined: {d.quarantine_reason}")
        if d.meta.ocr_noisy:
            notes.append("OCR-noisy text")
        if d.injection_flags:
            notes.append("instruction-like text flagged")
        window = f"{d.meta.effective_from or '?'} – {d.effective_to or ''}"
        table.add_row(
            d.meta.id,
            d.meta.number,
            d.meta.type,
            d.meta.status,
            window,
            ",".join(d.meta.access),
            str(d.chunk_count),
            "; ".join(notes),
        )
    console.print(table)
    return 0


def cmd_kb_show(args: argparse.Namespace) -> int:
    from kb.errors import NotFoundError

    store = _services(args).store
    doc = store.get_document(args.doc_id)
    if doc is None:
        raise NotFoundError(f"no document {args.doc_id!r} in {store.path} (see `dasar kb list`)")
    chunks = store.chunks_of(args.doc_id, indexed_only=True)
    if args.json:
        _print_json(
            {
                **_doc_json(doc),
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
    for key, value in _doc_json(doc).items():
        console.print(f"[bold]{key}[/bold]: {value}")
    console.print(f"[bold]versions[/bold]: {store.versions(args.doc_id)}")
    limit = None if args.all else 25
    console.print(f"[bold]chunks[/bold] ({len(chunks)}):")
    for c in chunks[:limit]:
        window = f"{c.valid_from or ''}..{c.valid_to or ''}"
        console.print(f"  {c.location}  [dim]{c.kind} {window} {len(c.text)} chars[/dim]")
    if limit and len(chunks) > limit:
        console.print(f"  ... {len(chunks) - limit} more (use --all)")
    return 0


def cmd_kb_remove(args: argparse.Namespace) -> int:
    from kb.linking import relink

    store = _services(args).store
    removed = store.remove_document(args.doc_id)
    relink(store)
    if args.json:
        _print_json({"removed": args.doc_id, "chunks": removed})
    else:
        console.print(
            f"Removed {args.doc_id}: {removed} chunks, their vectors, edges and cached answers purged."
        )
    return 0


# --- search ----------------------------------------------------------------------------------------


def cmd_search(args: argparse.Namespace) -> int:
    from bot.wiring import search_filter
    from kb.retrieve import hit_json

    services = _services(args)
    principal = services.cli_principal(args.user)
    plan_as_of = None
    if args.as_of is None:
        from kb.query import understand

        plan_as_of = understand(args.query, aliases=services.aliases).as_of
    as_of = args.as_of or plan_as_of or dt.date.today()
    flt = search_filter(principal, as_of)
    result = services.retriever.search(args.query, flt, top_k=args.top_k)
    payload: dict[str, Any] = {
        "query": args.query,
        "as_of": as_of.isoformat(),
        "mode": result.mode,
        "expansions": result.explain.get("expansions", []),
        "results": [hit_json(h) for h in result.results],
        "context": [hit_json(h) for h in result.context],
        "user": {"email": principal.email, "guest": principal.is_guest, "groups": sorted(principal.groups)},
        "corpus_version": services.store.corpus_version(),
    }
    if args.explain:
        payload["explain"] = result.explain
    if args.json:
        _print_json(payload)
        return 0
    who = principal.email or "anonymous (documents open to everyone only)"
    console.print(f"[bold]{args.query}[/bold]  [dim]as of {as_of}, {who}, mode {result.mode}[/dim]")
    if args.explain:
        for exp in payload["expansions"]:
            console.print(
                f"  [dim]expanded[/dim] {exp['term']} -> {', '.join(exp['added'])} [dim]({exp['source']})[/dim]"
            )
        console.print(f"  [dim]match: {result.explain.get('match', '')}[/dim]")
        console.print(f"  [dim]candidates: {result.explain.get('candidates')}[/dim]")
    if not result.results:
        console.print("No matching source in the knowledge base for this user and date.")
    for i, h in enumerate(result.results, 1):
        c, d = h.chunk, h.doc
        window = f"{c.valid_from or '?'} – {c.valid_to or 'now'}"
        flags = " [yellow]OCR-noisy source[/yellow]" if d.ocr_noisy else ""
        console.print(
            f"\n[bold]{i}. {d.number}[/bold] {c.location}  [dim]{d.status}, in effect {window}, "
            f"score {h.score:.3f} via {'+'.join(h.via)}[/dim]{flags}"
        )
        text = c.text if len(c.text) <= 600 else c.text[:600] + " …"
        console.print(f"   {text}")
    if result.context and args.explain:
        console.print("\n[dim]context added by graph expansion:[/dim]")
        for h in result.context:
            console.print(f"  [dim]{h.via[0]}[/dim] {h.doc.number} {h.chunk.location}")
    return 0


# --- eval ------------------------------------------------------------------------------------------


def cmd_eval_retrieval(args: argparse.Namespace) -> int:
    from bot.evals.retrieval import run_retrieval_eval

    services = _services(args)
    report = run_retrieval_eval(
        services,
        Path(args.set),
        modes=args.modes,
        include_naive=not args.no_naive,
        facqa=Path(args.facqa) if args.facqa else None,
        k=args.k,
        facqa_limit=args.facqa_limit,
        console=None if args.json else console,
    )
    if args.json:
        _print_json(report)
    return 0


# --- parser ----------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dasar",
        description="dasar answers tax questions only from an approved knowledge base, with exact quotes.",
        epilog='Examples:\n  dasar ingest corpus/\n  dasar search "tarif PPN" --as-of 2022-05-01 --explain\n'
        "  dasar kb list\n\nSettings come from DASAR_* environment variables (see README).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def kb_opt(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--kb", type=Path, help="knowledge-base file (default $DASAR_KB or ~/.local/share/dasar)"
        )

    def ident_opts(p: argparse.ArgumentParser) -> None:
        p.add_argument("--directory", type=Path, help="identity directory YAML (default: the bundled sample)")
        p.add_argument(
            "--user", help="ask as this directory user (email); unknown/absent = sees public docs only"
        )
        p.add_argument(
            "--as-of",
            type=iso_date,
            help="transaction date YYYY-MM-DD (default: from the question, else today)",
        )

    p = sub.add_parser(
        "ingest",
        help="add or update documents (folders, .md/.txt with front matter, .pdf + "
        ".meta.yaml, corpus folders)",
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    kb_opt(p)
    p.add_argument("--json", action="store_true", help="print the ingest report as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("kb", help="list, show or remove documents")
    kb_sub = p.add_subparsers(dest="kb_command", required=True, metavar="ACTION")
    q = kb_sub.add_parser("list", help="every document with status, period, access and flags")
    kb_opt(q)
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_kb_list)
    q = kb_sub.add_parser("show", help="one document: metadata, versions and chunks")
    q.add_argument("doc_id")
    kb_opt(q)
    q.add_argument("--all", action="store_true", help="list every chunk")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_kb_show)
    q = kb_sub.add_parser("remove", help="remove a document and purge its chunks, vectors and cached answers")
    q.add_argument("doc_id")
    kb_opt(q)
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_kb_remove)

    p = sub.add_parser("search", help="filter-first hybrid search (what the answerer would read)")
    p.add_argument("query")
    kb_opt(p)
    ident_opts(p)
    p.add_argument("--mode", choices=("hybrid", "bm25", "dense", "deterministic"), help="retrieval mode")
    p.add_argument("--top-k", type=int, default=5)
    p.add_argument(
        "--explain", action="store_true", help="show alias expansions, match expression, candidates"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("eval", help="measure retrieval / answers on evaluation sets")
    ev = p.add_subparsers(dest="eval_command", required=True, metavar="WHAT")
    q = ev.add_parser("retrieval", help="recall@k, MRR@10, context precision per retrieval mode")
    kb_opt(q)
    q.add_argument("--set", default=str(Path(__file__).resolve().parents[1] / "eval" / "retrieval.yaml"))
    q.add_argument("--modes", nargs="+", default=["hybrid", "bm25", "dense", "deterministic"])
    q.add_argument("--no-naive", action="store_true", help="skip the naive fixed-window baseline")
    q.add_argument("--facqa", help="also run the facqa_id outside check from this folder")
    q.add_argument("--facqa-limit", type=int, default=200)
    q.add_argument("-k", type=int, default=5)
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_eval_retrieval)

    _register_more(sub)
    return parser


def _register_more(sub: Any) -> None:
    """Commands of later layers register here: ask/eval answers, chat/mask/serve, tickets."""
    from bot import cli_chat, cli_more, tickets_cli

    cli_more.register(sub)
    cli_chat.register(sub)
    tickets_cli.register_ticket_commands(sub)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s %(message)s",
    )
    from kb.errors import KbError

    try:
        return int(args.func(args) or 0)
    except (KbError, CliError) as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        return 2
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
