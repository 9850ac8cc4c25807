"""``dasar law "UU PPN" --as-of 2022-05-01``: a law as it stood on a date, Pasal by Pasal.

Each Pasal names the act and date its wording comes from; revoked Pasal and wording that may have
changed through an act the knowledge base does not hold are marked (see :mod:`kb.consolidate`).
``--html FILE`` writes a standalone page whose Pasal are link targets (``FILE#pasal-7``); ``dasar serve
slack|teams`` serve the same page at ``GET /law/<doc>?as_of=YYYY-MM-DD`` for regulations readable by
everyone (:mod:`bot.law_page`), the target of citation links (:func:`bot.law_links.law_link`).
"""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import Any

from bot.cli.common import CliError, console, kb_option, print_json


def cmd_law(args: argparse.Namespace) -> int:
    from bot.cli.kb import open_kb
    from kb.consolidate import consolidate, provenance_line, render_html

    as_of = args.as_of or dt.date.today()
    law = consolidate(open_kb(args), args.law, as_of)
    wanted = {x.upper() for x in args.pasal or ()}
    shown = [p for p in law.pasal if not wanted or p.pasal.upper() in wanted]
    if args.pasal and not shown:
        raise CliError(
            f"{law.number} has no Pasal {', '.join(args.pasal)} in force on {as_of.isoformat()} "
            "in the knowledge base"
        )
    if args.html:
        path = Path(args.html)
        try:
            path.write_text(render_html(law), encoding="utf-8")
        except OSError as exc:
            raise CliError(f"{path}: cannot write the HTML page ({exc.strerror or exc})") from None
    if args.json:
        payload = law.to_json()
        if args.pasal:
            payload["pasal"] = [p.to_json() for p in shown]
        print_json(payload)
        return 0
    console.print(f"{law.number} — {law.title}", style="bold", markup=False)
    console.print(f"as it stood on {as_of.isoformat()}", style="dim", markup=False)
    for note in law.notes:
        console.print(f"note: {note}", style="yellow", markup=False)
    for p in shown:
        style = "red" if p.revoked else ("yellow" if p.changed_outside else "dim")
        console.print(f"\nPasal {p.pasal}", style="bold", markup=False)
        console.print(f"  [{provenance_line(p)}]", style=style, markup=False)
        console.print(p.text, markup=False)
    if law.not_yet and not args.pasal:
        console.print(
            "\nnot yet in force on this date: " + ", ".join(f"Pasal {x}" for x in law.not_yet),
            style="dim",
            markup=False,
        )
    if args.html:
        console.print(f"\nwrote {args.html}", style="dim", markup=False)
    return 0


def register(sub: Any) -> None:
    from bot.argtypes import iso_date

    p = sub.add_parser(
        "law",
        help='a law as it stood on a date, Pasal by Pasal (e.g. dasar law "UU PPN" --as-of 2022-05-01)',
    )
    p.add_argument("law", help='"UU PPN", "UU PPh", "UU KUP", a number like "UU 8/1983", or a document id')
    p.add_argument("--as-of", type=iso_date, help="the date YYYY-MM-DD (default: today)")
    p.add_argument("--pasal", action="append", metavar="N", help="only this Pasal (repeatable)")
    p.add_argument("--html", metavar="FILE", help="also write a standalone HTML page to FILE")
    p.add_argument("--json", action="store_true", help="the consolidated law as JSON")
    kb_option(p)
    p.set_defaults(func=cmd_law)
