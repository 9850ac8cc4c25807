"""The embedded default composer: builds the answer from verbatim text of the best passages, no LLM.

Every claim it drafts is a unit of a retrieved chunk -- an ayat, a list item, a sentence, a table
row -- so the quote gate and the number gate pass by construction and the answer reads like the
regulation.  Order of claims (what a tax reader expects):

1. the *direct* answer: the best-ranked relevant chunk that states a rate or obligation (cue words
   ``tarif``, ``sebesar``, ``%``, ``wajib``, ``paling lama``, ``dikenai``, ``rate``, ``must`` ...);
2. conditions and exceptions from the same Pasal (other hits sharing the lead's parent);
3. other relevant hits (company policy keeps its own layer);
4. definitions the lead uses (graph context ``graph:uses_definition``).

Dated list items ("a. sebesar 11% ... mulai berlaku pada tanggal 1 April 2022; b. sebesar 12% ...")
are narrowed to the item in effect on the as-of date.  Text that looks like instructions (a planted
"abaikan instruksi sebelumnya") is never quoted.  Units already covered by an earlier quote are
dropped, so no text is repeated.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from bot.answer.protocol import ComposeRequest, ComposedAnswer, DraftClaim
from guardrails.injection import scan_injection
from guardrails.verify import extract_figures, normalize_ws
from kb.model import Hit
from kb.query import STOPWORDS, tokenize

#: Words that make a unit state a rate or an obligation (lead candidates).
CUE = re.compile(
    r"\btarif\b|\bsebesar\b|\d\s*%|\bpersen\b|\bwajib\b|\bpaling\s+(?:lama|lambat)\b|\bdikenai\b|\bdikenakan\b"
    r"|\bdipotong\b|\bterutang\b|\bharus\b|\bbatas\s+waktu\b|\brate\b|\bmust\b|\bshall\b|\bdue\b|\bdeadline\b"
    r"|\bdilarang\b|\btidak\s+dipotong\b|\bdibebaskan\b",
    re.I,
)
EXCEPTION = re.compile(r"\bkecuali\b|\bdikecualikan\b|\btidak\s+termasuk\b|\bexcept\b|\bunless\b|\bnot\s+apply\b", re.I)
#: Question words that say nothing about the topic (kept out of relevance coverage).
GENERIC = frozenset(
    """tarif rate rates berapa persen percent ketentuan aturan rule rules bagaimana how much apa menurut
    according based dasar hukum jelaskan explain sebutkan mengenai terkait regarding about pajak tax taxes
    kena dikenakan dikenai apakah whether berlaku apply applies applicable current saat sekarang now today
    kami kita we our us company perusahaan""".split()
)
_ITEM = re.compile(r"^(?:[a-z]\.|\d{1,2}\.|[-*•])\s+")
_AYAT_MARK = re.compile(r"^\(\d{1,2}[a-z]?\)\s*")
_SENT_SPLIT = re.compile(r"(?<=[.;])\s+(?=(?:[A-Z(]|[a-z]\.\s))")
_MONTHS = {m: i for i, names in enumerate(
    ("januari january", "februari february", "maret march", "april", "mei may", "juni june", "juli july",
     "agustus august", "september", "oktober october", "november nopember", "desember december"), start=1)
    for m in names.split()}
_ITEM_DATE = re.compile(
    r"mulai\s+berlaku\s+(?:paling\s+lambat\s+)?pada\s+tanggal\s+(\d{1,2})\s+([A-Za-z]+)\s*((?:19|20)\d\d)", re.I)
MAX_CLAIMS = 6
MAX_UNIT_CHARS = 700
#: A hit is about the question when at least this share of its topic words appear in it.
MIN_COVERAGE = 0.34


@dataclass(frozen=True)
class Unit:
    """One quotable piece of a chunk: ``quote`` is verbatim chunk text."""

    quote: str
    text: str
    cue: bool
    date: dt.date | None = None


def _stem(tok: str) -> str:
    for suf in ("nya", "kan", "an", "s"):
        if len(tok) > len(suf) + 3 and tok.endswith(suf):
            return tok[: -len(suf)]
    return tok


def question_concepts(request: ComposeRequest) -> list[frozenset[str]]:
    """Topic concepts of the question: each a set of stems that count as a mention (alias-expanded)."""
    plan = request.plan
    concepts: list[frozenset[str]] = []
    covered: set[str] = set()
    for exp in plan.expansions:
        toks = [t for t in tokenize(exp.term) if t not in STOPWORDS]
        if not toks:
            continue
        alts = {_stem(t) for t in toks}
        for added in exp.added:
            alts.update(_stem(t) for t in tokenize(added) if t not in STOPWORDS and t not in GENERIC)
        covered.update(toks)
        if not all(t in GENERIC for t in toks):
            concepts.append(frozenset(alts))
    span = plan.as_of_span
    text = request.question
    if span:
        text = text[: span[0]] + " " + text[span[1]:]
    for tok in tokenize(text):
        if tok in STOPWORDS or tok in GENERIC or tok in covered or tok.isdigit() or len(tok) < 3:
            continue
        concepts.append(frozenset({_stem(tok)}))
        covered.add(tok)
    return concepts


def _stems(text: str) -> set[str]:
    return {_stem(t) for t in tokenize(text)}


def coverage(concepts: list[frozenset[str]], text: str) -> float:
    if not concepts:
        return 0.0
    stems = _stems(text)
    hit = sum(1 for c in concepts if c & stems or any(s.startswith(x) and len(x) >= 4 for x in c for s in stems))
    return hit / len(concepts)


def _item_date(text: str) -> dt.date | None:
    m = _ITEM_DATE.search(text)
    if not m or m.group(2).lower() not in _MONTHS:
        return None
    try:
        return dt.date(int(m.group(3)), _MONTHS[m.group(2).lower()], int(m.group(1)))
    except ValueError:
        return None


def _clean(text: str) -> str:
    out = _AYAT_MARK.sub("", text.strip())
    out = out.replace("**", "")
    return normalize_ws(out)


def _table_units(lines: list[str]) -> list[Unit]:
    rows = [ln for ln in lines if ln.strip().startswith("|")]
    header: list[str] = []
    units: list[Unit] = []
    for ln in rows:
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
            continue
        if not header:
            header = cells
            continue
        if len(header) == len(cells) and not any(extract_figures(h) for h in header):
            text = "; ".join(f"{h}: {c}" for h, c in zip(header, cells, strict=True) if c)
        else:
            text = " | ".join(c for c in cells if c)
        units.append(Unit(ln.strip(), text, bool(CUE.search(ln))))
    return units


def split_units(text: str) -> list[Unit]:
    """Quotable units of a chunk: list items (with their lead-in as label), sentences, table rows."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if any(ln.strip().startswith("|") for ln in lines):
        rows = _table_units(lines)
        rest = [ln for ln in lines if not ln.strip().startswith("|")]
        return [*split_units("\n".join(rest)), *rows] if rest else rows
    units: list[Unit] = []
    lead: str | None = None
    for ln in lines:
        ln = ln.strip()
        pieces = [ln] if len(ln) <= MAX_UNIT_CHARS else [p for p in _SENT_SPLIT.split(ln) if p.strip()]
        for piece in pieces:
            piece = piece.strip()
            if piece.startswith("#"):
                continue
            is_item = bool(_ITEM.match(piece))
            body = _clean(_ITEM.sub("", piece) if is_item and not re.match(r"^[a-z]\.", piece) else piece)
            if piece.endswith(":") and not is_item:
                lead = _clean(piece)
                if len(pieces) == 1 and len(lines) > 1:
                    continue
            label = lead if is_item and lead and not extract_figures(lead) else None
            claim = f"{label} {body}" if label and body != label else body
            units.append(Unit(piece, claim, bool(CUE.search(piece)), _item_date(piece) if is_item else None))
    return units


def _narrow_dated(units: list[Unit], as_of: dt.date) -> list[Unit]:
    """Of list items that each start on a written date, keep the one in effect on ``as_of``."""
    dated = [u for u in units if u.date is not None]
    if len(dated) < 2:
        return units
    current = [u for u in dated if u.date <= as_of]  # type: ignore[operator]
    keep = max(current, key=lambda u: u.date) if current else None  # type: ignore[arg-type,return-value]
    return [u for u in units if u.date is None or u is keep]


class ExtractiveComposer:
    """Deterministic extractive composer (see module docstring); implements ``Composer``."""

    name = "extractive"

    def __init__(self, *, max_claims: int = MAX_CLAIMS, min_coverage: float = MIN_COVERAGE) -> None:
        self.max_claims = max_claims
        self.min_coverage = min_coverage

    # -- selection ---------------------------------------------------------------------------

    def _relevant(self, hit: Hit, concepts: list[frozenset[str]]) -> float:
        named = any(v in ("routed",) for v in hit.via)
        cov = coverage(concepts, f"{hit.chunk.prefix}\n{hit.chunk.location}\n{hit.chunk.text}")
        return max(cov, 0.5 if named and cov > 0 else 0.0) if concepts else (1.0 if named else 0.5)

    def _pick_units(self, hit: Hit, concepts: list[frozenset[str]], as_of: dt.date, limit: int,
                    notes: list[str]) -> list[Unit]:
        units = _narrow_dated(split_units(hit.chunk.text), as_of)
        clean: list[Unit] = []
        for u in units:
            if scan_injection(u.quote).flagged:
                notes.append(f"skipped_instruction_text:{hit.chunk.id}")
                continue
            clean.append(u)
        if not clean:
            return []
        if len(clean) == 1:
            return clean
        scored = []
        for i, u in enumerate(clean):
            cov = coverage(concepts, u.quote) if concepts else 0.0
            scored.append((-(cov + (0.5 if u.cue else 0.0)), i, u, cov))
        scored.sort(key=lambda t: (t[0], t[1]))
        chosen = [(i, u) for _, i, u, cov in scored[:limit] if cov > 0 or u.cue]
        if not chosen:
            chosen = [(scored[0][1], scored[0][2])]
        return [u for _, u in sorted(chosen, key=lambda t: t[0])]

    def compose(self, request: ComposeRequest) -> ComposedAnswer:
        concepts = question_concepts(request)
        notes: list[str] = []
        relevant = [(h, self._relevant(h, concepts)) for h in request.hits]
        relevant = [(h, c) for h, c in relevant if c >= self.min_coverage]
        if not relevant:
            return ComposedAnswer((), 0.0, ("no_relevant_passage",))
        head = relevant[:3]
        lead_hit, lead_cov = next(((h, c) for h, c in head if CUE.search(h.chunk.text)), head[0])
        ordered: list[tuple[Hit, str]] = [(lead_hit, "direct")]
        for h, _ in relevant:
            if h is lead_hit:
                continue
            same_pasal = bool(h.chunk.parent_id and h.chunk.parent_id == lead_hit.chunk.parent_id)
            role = "condition" if same_pasal else "direct"
            ordered.append((h, role))
        # same-Pasal conditions first, then the rest in rank order (stable)
        ordered = [ordered[0], *sorted(ordered[1:], key=lambda t: 0 if t[1] == "condition" else 1)]
        for h in request.context:
            if "graph:uses_definition" in h.via and h.chunk.kind == "definition":
                ordered.append((h, "definition"))

        claims: list[DraftClaim] = []
        shown: list[str] = []
        for hit, role in ordered:
            if len(claims) >= self.max_claims:
                break
            limit = 2 if role in ("direct", "condition") else 1
            for u in self._pick_units(hit, concepts, request.as_of, limit, notes):
                norm = normalize_ws(u.quote)
                if any(norm in s or s in norm for s in shown):
                    continue
                this_role = role
                if hit.chunk.is_example:
                    this_role = "example"
                elif role != "definition" and EXCEPTION.search(u.quote):
                    this_role = "exception"
                elif role == "direct" and hit.doc.layer == "policy":
                    this_role = "policy"
                claims.append(DraftClaim(text=u.text, quote=u.quote, source_chunk_id=hit.chunk.id,
                                         layer="policy" if hit.doc.layer == "policy" else "regulation",
                                         role=this_role, is_example=hit.chunk.is_example))
                shown.append(norm)
                if len(claims) >= self.max_claims:
                    break
        cue = 1.0 if CUE.search(lead_hit.chunk.text) else 0.8
        self_score = round(min(1.0, (0.4 + 0.6 * lead_cov) * cue), 6) if claims else 0.0
        return ComposedAnswer(tuple(claims), self_score, tuple(dict.fromkeys(notes)))
