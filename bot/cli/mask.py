"""``dasar mask TEXT``: what the inbound guardrail would mask or refuse (the operator's preview).

Only this command loads presidio; the analyzer is built once per process.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.cli.common import UsageError, console


def cmd_mask(args: argparse.Namespace) -> int:
    from guardrails.inbound import inspect
    from guardrails.pii import MaskingSession

    text = args.text if args.text != "-" else sys.stdin.read()
    if not text.strip():
        raise UsageError("nothing to mask: TEXT is empty (pass the text, or '-' to read stdin)")
    result = inspect(text, MaskingSession())
    if args.json:
        sys.stdout.write(result.to_json() + "\n")
        return 0
    data: dict[str, Any] = dict(result.to_dict())
    if data["refused"]:
        kinds = ", ".join(data.get("refusal_kinds", []))
        console.print(
            f"refused: contains a secret ({kinds}); the message would not be processed or stored",
            style="red",
            markup=False,
        )
    else:
        console.print(data["masked"], markup=False)
    for ent in data["entities"]:
        console.print(f"  {ent['type']} at {ent['start']}-{ent['end']} (score {ent['score']})", style="dim")
    inj = data.get("injection") or {}
    if inj.get("flagged"):
        console.print(f"  instruction-like text: {', '.join(inj.get('rule_ids', []))}", style="yellow")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("mask", help="show what would be masked or refused in TEXT ('-' reads stdin)")
    p.add_argument("text")
    p.add_argument("--json", action="store_true", help='{"masked", "refused", "entities": [...]}')
    p.set_defaults(func=cmd_mask)
