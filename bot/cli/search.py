"""``dasar search``: the filter-first hybrid search the answerer reads from, for a given user and date."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from bot.argtypes import positive_int, question_text
from bot.cli.common import RETRIEVAL_MODES, console, identity_options, kb_option, print_json, services


def cmd_search(args: argparse.Namespace) -> int:
    from bot.wiring import search_filter
    from kb.retrieve import hit_json

    svc = services(args)
    principal = svc.cli_principal(args.user)
    plan_as_of = None
    if args.as_of is None:
        from kb.query import understand

        plan_as_of = understand(args.query, aliases=svc.aliases).as_of
    as_of = args.as_of or plan_as_of or dt.date.today()
    flt = search_filter(principal, as_of)
    result = svc.retriever.search(args.query, flt, top_k=args.top_k)
    payload: dict[str, Any] = {
        "query": args.query,
        "as_of": as_of.isoformat(),
        "mode": result.mode,
        "expansions": result.explain.get("expansions", []),
        "results": [hit_json(h) for h in result.results],
        "context": [hit_json(h) for h in result.context],
        "user": {"email": principal.email, "guest": principal.is_guest, "groups": sorted(principal.groups)},
        "corpus_version": svc.store.corpus_version(),
    }
    if args.explain:
        payload["explain"] = result.explain
    if args.json:
        print_json(payload)
        return 0
    who = principal.email or "anonymous (documents open to everyone only)"
    console.print(f"[bold]{args.query}[/bold]  [dim]as of {as_of}, {who}, mode {result.mode}[/dim]")
    if args.explain:
        for exp in payload["expansions"]:
            added = ", ".join(exp["added"])
            console.print(f"  expanded {exp['term']} -> {added} ({exp['source']})", markup=False, style="dim")
        console.print(f"  match: {result.explain.get('match', '')}", markup=False, style="dim")
        console.print(f"  candidates: {result.explain.get('candidates')}", markup=False, style="dim")
    if not result.results:
        console.print("No matching source in the knowledge base for this user and date.")
    for i, h in enumerate(result.results, 1):
        c, d = h.chunk, h.doc
        window = f"{c.valid_from or '?'} – {c.valid_to or 'now'}"
        flags = " (OCR-noisy source)" if d.ocr_noisy else ""
        console.print(f"\n{i}. {d.number} {c.location}", style="bold", markup=False, end="")
        console.print(
            f"  {d.status}, in effect {window}, score {h.score:.3f} via {'+'.join(h.via)}{flags}",
            style="dim",
            markup=False,
        )
        text = c.text if len(c.text) <= 600 else c.text[:600] + " …"
        console.print(f"   {text}", markup=False)
    if result.context and args.explain:
        console.print("\n[dim]context added by graph expansion:[/dim]")
        for h in result.context:
            console.print(f"  {h.via[0]} {h.doc.number} {h.chunk.location}", markup=False, style="dim")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("search", help="filter-first hybrid search (what the answerer would read)")
    p.add_argument("query", type=question_text)
    kb_option(p)
    identity_options(p)
    p.add_argument("--mode", choices=RETRIEVAL_MODES, help="retrieval mode")
    p.add_argument("--top-k", type=positive_int, default=5)
    p.add_argument(
        "--explain", action="store_true", help="show alias expansions, match expression, candidates"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)
