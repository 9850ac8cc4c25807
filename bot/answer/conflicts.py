"""Conflicting sources: show both, apply an explicit precedence rule, say which rule decided.

Two verified claims conflict when they come from different documents in force on the as-of date,
both state the answer (role direct/policy), and state disjoint percentages.  Precedence, in order
(the first rule that separates the two decides; the name is reported as ``decided_by``):

1. ``regulation_over_policy`` -- on what the law says, a regulation beats an internal policy (the
   policy stays visible as how the company applies it);
2. ``specific_over_general`` -- the source with the narrower scope (fewer tax types, named entities)
   beats the general one;
3. ``later_effective_date`` -- for the same scope, the later effective date wins;
4. ``doc_id_order`` -- a deterministic tie-break only; flags that a person must look.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from bot.answer.model import Conflict, ConflictSource, ShownClaim
from guardrails.verify import extract_figures
from kb.model import DocumentMeta

_ANSWER_ROLES = frozenset({"direct", "policy"})


def _percents(text: str) -> frozenset[str]:
    out: set[str] = set()
    for f in extract_figures(text):
        if f.kind == "percent":
            out.update(str(k) for k in f.keys)
    return frozenset(out)


_TAX_TYPE_MENTION = re.compile(r"\bPPh\s*(?:Pasal\s*|Psl\.?\s*)?(\d{2}|4\s*\(2\))", re.IGNORECASE)


def _about_other_tax(quote: str, topic: str) -> bool:
    """True when the quote speaks of income-tax articles and none of them is the question's topic.

    "PPh 26 sebesar 20%" must not be weighed against "PPh 23 sebesar 4%": different rules, not a conflict.
    """
    wanted = re.sub(r"\s+", "", topic.upper().replace("PPH", "").replace("PASAL", ""))
    mentioned = {re.sub(r"\s+", "", m.group(1)) for m in _TAX_TYPE_MENTION.finditer(quote)}
    return bool(mentioned) and bool(wanted) and wanted not in mentioned


def _scope_size(meta: DocumentMeta) -> tuple[int, int]:
    return (len(meta.tax_types) or 99, len(meta.entities) or 99)


def decide(a: DocumentMeta, b: DocumentMeta) -> tuple[str, str]:
    """(rule, preferred doc id) for two disagreeing documents."""
    if a.layer != b.layer:
        return "regulation_over_policy", a.id if a.layer == "regulation" else b.id
    sa, sb = _scope_size(a), _scope_size(b)
    if sa != sb:
        return "specific_over_general", a.id if sa < sb else b.id
    fa, fb = a.effective_from, b.effective_from
    if fa and fb and fa != fb:
        return "later_effective_date", a.id if fa > fb else b.id
    return "doc_id_order", min(a.id, b.id)


def detect(claims: Sequence[ShownClaim], docs: dict[str, DocumentMeta], topic: str) -> tuple[Conflict, ...]:
    """Conflicts among shown claims (see module docstring); deterministic order."""
    per_doc: dict[str, tuple[set[str], set[str], str]] = {}
    for c in claims:
        if c.role not in _ANSWER_ROLES or c.is_example or c.applies:
            continue
        meta = docs.get(c.source.doc_id)
        if meta is None or meta.status != "in_force":
            continue
        if topic.upper().startswith("PPH") and _about_other_tax(c.quote, topic):
            continue
        pcts = _percents(c.quote)
        if not pcts:
            continue
        keys, surfaces, _loc = per_doc.setdefault(c.source.doc_id, (set(), set(), c.source.location))
        keys.update(pcts)
        surfaces.update(f.surface for f in extract_figures(c.quote) if f.kind == "percent")
    out: list[Conflict] = []
    for a, b in combinations(sorted(per_doc), 2):
        if per_doc[a][0] & per_doc[b][0]:
            continue
        rule, preferred = decide(docs[a], docs[b])
        sources = tuple(
            ConflictSource(
                d,
                docs[d].number,
                docs[d].status,
                docs[d].layer,
                docs[d].effective_from,
                tuple(sorted(per_doc[d][1])),
                per_doc[d][2],
            )
            for d in (a, b)
        )
        out.append(Conflict(topic, sources, rule, preferred))
    return tuple(out)
