"""``dasar ingest PATH...``: add or update documents, with progress and a summary."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import CliError, console, err_console, kb_option, print_json, services


def _progress(args: argparse.Namespace) -> Any:
    """A bar in a terminal, a line every few seconds otherwise, nothing with ``--no-progress``."""
    from bot.cli.progress import BarProgress, LineProgress

    if args.no_progress:
        return None
    if err_console.is_terminal and not err_console.is_dumb_terminal:
        return BarProgress(err_console)
    return LineProgress(sys.stderr, every=args.progress_every)


def cmd_ingest(args: argparse.Namespace) -> int:
    missing = [str(p) for p in args.paths if not Path(p).exists()]
    if missing:
        raise CliError(f"no such file or folder: {', '.join(missing)} (nothing was ingested)")
    from bot.wiring import injection_flagger
    from kb.ingest import ingest_paths

    svc = services(args)
    svc.create_kb = True
    store, embedder = svc.store, svc.embedder
    progress = _progress(args)
    if progress is None:
        report = ingest_paths(args.paths, store, embedder, flagger=injection_flagger)
    else:
        with progress:
            report = ingest_paths(args.paths, store, embedder, flagger=injection_flagger, progress=progress)
    from bot.impact import record_ingest

    affected = record_ingest(report.impact, svc)  # FAQs to review, open tickets, recent answers; cache purge
    stats = store.stats()
    if args.json:
        print_json(
            {
                "kb": str(store.path),
                **report.to_json(),
                "stats": stats,
                "affected": affected.to_json() if affected is not None else None,
            }
        )
        return 0 if report.ok else 1
    for err in report.errors:
        err_console.print(f"error: {err}", markup=False, soft_wrap=True)
    verb = "Ingested into" if report.ok else "Ingested with errors into"
    console.print(f"{verb} {store.path}", markup=False)
    rechunked = f", re-chunked {len(report.rechunked)}" if report.rechunked else ""
    console.print(
        f"  added {len(report.added)}, updated {len(report.updated)}{rechunked}, unchanged "
        f"{len(report.unchanged)}, failed {len(report.errors)}; {report.chunks_written} chunks "
        f"written, {report.vectors_embedded} vectors embedded ({report.vectors_cached} from cache)",
        markup=False,
    )
    console.print(
        f"  knowledge base: {stats['documents']} documents, {stats['chunks']} chunks, "
        f"{stats['edges']} edges, {stats['quarantined']} quarantined",
        markup=False,
    )
    if affected is not None and (affected.faqs or affected.tickets or affected.answers):
        console.print(
            f"  affected: {len(affected.faqs)} FAQs withdrawn for review, "
            f"{len(affected.tickets)} open tickets, {len(affected.answers)} recent answers, "
            f"{len(affected.notices)} cards queued (see `dasar kb impact`)",
            markup=False,
        )
    for doc_id, reason in sorted(report.quarantined.items()):
        console.print(f"  quarantined {doc_id}: {reason} (stored, never used to answer)", markup=False)
    for doc_id, rules in sorted(report.flagged.items()):
        console.print(
            f"  instruction-like text in {doc_id}: {', '.join(rules)} (kept as data; never followed)",
            markup=False,
        )
    return 0 if report.ok else 1


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ingest",
        help="add or update documents (folders, .md/.txt with front matter, .pdf + .meta.yaml)",
        description="Add or update documents. Exit 1 when any file failed (each failure is listed).",
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    kb_option(p)
    p.add_argument("--json", action="store_true", help="print the ingest report as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or progress lines")
    p.add_argument(
        "--progress-every",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="when stderr is not a terminal: seconds between progress lines (default 5)",
    )
    p.set_defaults(func=cmd_ingest)
