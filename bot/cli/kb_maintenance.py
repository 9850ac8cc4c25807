"""``dasar kb export-vectors`` and ``dasar kb check``: keep the shipped vectors and the links honest.

``export-vectors`` rebuilds the vector pack that ships with dasar (``kb/data/vectors/``) from a
knowledge base ingested with the bundled embedder, so a first ``make demo`` embeds nothing it
does not have to.  ``check`` lists, for every document, the laws its chunks claim to belong to and the
links that point at absent acts; it exits 1 when it finds a real inconsistency.
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
    embedder_name = make_embedder(settings(args).embedder).name  # the name only; no model is loaded
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
