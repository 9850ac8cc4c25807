"""``dasar kb export-vectors``, ``check``, ``impact`` and ``cache``: keep vectors, links and answers honest.

``export-vectors`` rebuilds the vector pack that ships with dasar (``kb/data/vectors/``) from a
knowledge base ingested with the bundled embedder, so a first ``make demo`` embeds nothing it
does not have to.  ``check`` lists, for every document, the laws its chunks claim to belong to and the
links that point at absent acts; it exits 1 when it finds a real inconsistency.  ``impact`` lists the
approved FAQs, open tickets and recent answers citing provisions that changed (:mod:`bot.impact`);
``cache purge`` empties the answer cache (:mod:`bot.answer_cache`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.cli.common import CliError, console, print_json, settings


def cmd_kb_export_vectors(args: argparse.Namespace) -> int:
    from bot.cli.kb import open_kb
    from kb.embed.factory import make_embedder
    from kb.embed.pack import DEFAULT_PACK, VectorPack
    from kb.vector_export import export_vectors, pack_coverage

    store = open_kb(args)
    s = settings(args)
    embedder_name = make_embedder(s.embedder_name(), s.embed_options()).name  # the name only; nothing loaded
    out = Path(args.out) if args.out else DEFAULT_PACK
    report = export_vectors(store, embedder_name, out)
    result: dict[str, object] = report.to_json()
    coverage = None
    if args.corpus:
        coverage = pack_coverage([Path(p) for p in args.corpus], VectorPack.load(out))
        result["coverage"] = {
            "covered": coverage.covered,
            "total": coverage.total,
            "ratio": round(coverage.ratio, 4),
        }
    if args.json:
        print_json(result)
    else:
        size = out.stat().st_size
        console.print(
            f"Wrote {report.header.count} vectors ({report.header.embedder}, {size / 1e6:.1f} MB) to {out}; "
            f"{report.missing} of {report.chunks} chunks had no cached vector.",
            markup=False,
        )
        if coverage is not None:
            console.print(
                f"Covers {coverage.covered} of {coverage.total} chunks of {' '.join(args.corpus)} "
                f"({coverage.ratio:.1%}).",
                markup=False,
            )
    if report.missing and args.strict:
        raise CliError(
            f"{report.missing} chunks have no vector in {store.path}: run `dasar ingest` with the "
            f"{embedder_name} embedder first"
        )
    return 0


def cmd_kb_check(args: argparse.Namespace) -> int:
    from bot.cli.kb import open_kb
    from kb.check import check_corpus

    report = check_corpus(open_kb(args))
    if args.json:
        print_json(report.to_json())
        return 0 if report.ok else 1
    for doc in report.documents:
        laws = ", ".join(f"{law} ({n})" for law, n in sorted(doc.laws.items()))
        console.print(f"{doc.doc_id}: chunks claim {laws}", markup=False)
        for link in doc.absent:
            when = f" on {link.date.isoformat()}" if link.date else ""
            console.print(f"    absent: {link.relation} {link.target}{when}", markup=False)
        for finding in doc.errors:
            console.print(f"    ERROR {finding.kind}: {finding.detail}", markup=False)
        for finding in doc.warnings:
            console.print(f"    warning {finding.kind}: {finding.detail}", markup=False)
    console.print(
        f"{len(report.documents)} documents, {report.error_count} errors, {report.warning_count} warnings, "
        f"{len(report.absent_targets)} absent acts linked",
        markup=False,
    )
    return 0 if report.ok else 1


def add_export_vectors(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="FILE", help="where to write the pack (default: the shipped pack)")
    p.add_argument(
        "--corpus",
        nargs="*",
        metavar="PATH",
        help="also report how many chunks of these corpus folders the pack covers",
    )
    p.add_argument("--strict", action="store_true", help="fail when a chunk has no cached vector")
    p.add_argument("--json", action="store_true")


def add_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")


def cmd_kb_impact(args: argparse.Namespace) -> int:
    """Assess changes since the last assessment, then print the logged impacts since ``--since``."""
    from bot.cli.common import services
    from bot.cli.kb import open_kb
    from bot.impact import catch_up, context_for, log_for

    store = open_kb(args)
    svc = services(args)  # clients are built lazily, the embedder only for FAQs
    log = log_for(svc.settings)
    context = context_for(svc, store)
    pending = catch_up(store, log=log, **context)
    reports = log.since(args.since)
    if args.json:
        print_json(
            {
                "since": args.since.isoformat() if args.since else None,
                "baseline": "recorded" if pending is False else "compared",
                "impacts": reports,
            }
        )
        return 0
    if pending is False:
        console.print("No earlier record of the corpus: recorded it now; later changes will be listed.")
    if not reports:
        console.print("No corpus change affected an FAQ, ticket or answer" + _since_text(args.since) + ".")
    for rep in reports:
        docs = ", ".join(rep.get("documents", [])) or "-"
        console.print(
            f"{rep['at']} {rep['trigger']}: {rep['chunks_changed']} passages changed in {docs}", markup=False
        )
        for f in rep.get("faqs", []):
            console.print(
                f"  FAQ {f['faq_id']} ({f['owner'] or '-'}): {f['status_before']} -> {f['status']}; cites "
                + "; ".join(f["citations"]),
                markup=False,
            )
        for t in rep.get("tickets", []):
            console.print(
                f"  ticket {t['ticket_id']} ({t['status']}, {t['assignee'] or 'unassigned'}): cites "
                + "; ".join(t["citations"]),
                markup=False,
            )
        for n in rep.get("notices", []):
            console.print(f"  card to {n['recipient']} about {n['subject']}: {n['status']}", markup=False)
        for a in rep.get("answers", []):
            console.print(
                f"  answer {a['reference_id']} at {a['at']} to {a['principal_id']}: cited "
                + ", ".join(a["changed_chunks"]),
                markup=False,
            )
        for w in rep.get("warnings", []):
            console.print(f"  warning: {w}", markup=False)
    return 0


def _since_text(day: object) -> str:
    return f" since {day}" if day else ""


def add_impact(p: argparse.ArgumentParser) -> None:
    from bot.argtypes import iso_date

    p.add_argument("--since", type=iso_date, metavar="DATE", help="only changes on or after this date")
    p.add_argument("--json", action="store_true")


def cmd_kb_cache(args: argparse.Namespace) -> int:
    """``dasar kb cache purge [--doc ID ...]``: drop cached answers (all, or those resting on exactly the
    documents named: cited by them or retrieved when they were made)."""
    from bot.answer_cache import AnswerCache, answer_cache_for
    from bot.cli.kb import open_kb

    store = open_kb(args)
    s = settings(args)
    cache = answer_cache_for(s, store) or AnswerCache(store)  # purge even when caching is switched off
    if args.doc:
        removed = cache.purge_documents(args.doc, related=False)
        scope = "citing " + ", ".join(args.doc)
    else:
        removed = cache.purge()
        scope = "all"
    if args.json:
        print_json({"purged": scope, "entries": removed, "generation": cache.generation()})
    else:
        console.print(f"Purged cached answers ({scope}): {removed} entries.", markup=False)
    return 0


def add_cache(p: argparse.ArgumentParser) -> None:
    p.add_argument("operation", choices=["purge"], help="purge: drop cached answers")
    p.add_argument("--doc", nargs="+", metavar="DOC_ID", help="only the answers citing these documents")
    p.add_argument("--json", action="store_true")
