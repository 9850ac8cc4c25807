"""The ``answer`` text: plain markdown-ish text every front end can show as is.

Labels follow the question's language (Indonesian or English); quotes stay in the source language.
Layers are kept apart: what the regulation says, how company policy applies it, what is unknown
about the asker's case.  Examples from regulations are labelled as examples, never as the rule.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from bot.answer.model import ClarifyingQuestion, Conflict, ShownClaim, UnsupportedClaim

LABELS: dict[str, dict[str, str]] = {
    "answer": {"id": "Jawaban", "en": "Answer"},
    "legal_basis": {"id": "Dasar hukum", "en": "Legal basis"},
    "policy": {"id": "Kebijakan perusahaan", "en": "Company policy"},
    "unknown": {"id": "Belum diketahui tentang kasus Anda", "en": "Unknown about your case"},
    "unsupported": {
        "id": "Klaim tidak didukung (tidak ditampilkan sebagai jawaban)",
        "en": "Claims not supported (not shown as the answer)",
    },
    "as_of": {"id": "berdasarkan sumber per {d}", "en": "based on sources as of {d}"},
    "example": {"id": "contoh, bukan ketentuan", "en": "example, not the rule"},
    "condition": {"id": "syarat", "en": "condition"},
    "exception": {"id": "pengecualian", "en": "exception"},
    "definition": {"id": "definisi", "en": "definition"},
    "clarify": {
        "id": "Jawabannya bergantung pada beberapa fakta. Mohon jelaskan:",
        "en": "The answer depends on a few facts. Please tell me:",
    },
    "conflicts": {"id": "Sumber yang berbeda", "en": "Sources that disagree"},
    "decided": {"id": "diputuskan oleh aturan", "en": "decided by rule"},
    "preferred": {"id": "diutamakan", "en": "preferred"},
    "no_source": {
        "id": "Saya tidak menemukan sumber untuk itu di basis pengetahuan.",
        "en": "I don't have a source for that in the knowledge base.",
    },
    "offer": {
        "id": "Saya bisa meneruskan pertanyaan ini ke tim pajak.",
        "en": "I can pass this question to the tax team.",
    },
    "advice": {
        "id": "Ini memerlukan pertimbangan tim pajak (saran/perencanaan pajak). Berikut yang dikatakan aturan:",
        "en": "This needs the tax team (tax advice or planning). Here is what the rules say:",
    },
    "protected": {
        "id": "Penentuan ini hanya dapat dibuat oleh tim pajak. Berikut yang dikatakan aturan:",
        "en": "This determination can only be made by the tax team. Here is what the rules say:",
    },
    "out_of_scope": {
        "id": "Pertanyaan ini di luar cakupan (perpajakan Indonesia dan kebijakan keuangan perusahaan).",
        "en": "This question is outside my scope (Indonesian tax and company finance policy).",
    },
    "low": {
        "id": "Keyakinan rendah: mohon verifikasi dengan tim pajak.",
        "en": "Low confidence: please verify with the tax team.",
    },
    "period": {"id": "berlaku", "en": "applies"},
    "in_force": {"id": "berlaku", "en": "in force"},
    "warnings": {"id": "Catatan", "en": "Notes"},
}


def label(key: str, language: str) -> str:
    return LABELS[key].get(language) or LABELS[key]["id"]


def _fmt_date(d: dt.date | None) -> str:
    return d.isoformat() if d else "…"


def _claim_line(c: ShownClaim, language: str) -> str:
    s = c.source
    tags: list[str] = []
    if c.role in ("condition", "exception", "definition"):
        tags.append(label(c.role, language))
    if c.is_example:
        tags.append(label("example", language))
    if c.applies:
        tags.append(f"{label('period', language)} {c.applies}")
    tag = f"[{', '.join(tags)}] " if tags else ""
    window = f"{_fmt_date(s.effective_from)} – {_fmt_date(s.effective_to) if s.effective_to else 'now'}"
    cite = f"{s.number} {s.location} ({s.status}, {window})"
    return f'- {tag}{c.text}\n  > "{c.quote}"\n  — {cite}'


def render_claims(claims: Sequence[ShownClaim], language: str) -> list[str]:
    lines: list[str] = []
    reg = [c for c in claims if c.layer == "regulation"]
    pol = [c for c in claims if c.layer != "regulation"]
    if reg:
        lines.append(f"**{label('legal_basis', language)}**")
        lines.extend(_claim_line(c, language) for c in reg)
    if pol:
        lines.append(f"**{label('policy', language)}**")
        lines.extend(_claim_line(c, language) for c in pol)
    return lines


def render(
    *,
    status: str,
    language: str,
    as_of: dt.date,
    claims: Sequence[ShownClaim],
    unsupported: Sequence[UnsupportedClaim],
    questions: Sequence[ClarifyingQuestion],
    conflicts: Sequence[Conflict],
    unknowns: Sequence[str],
    warnings: Sequence[str],
    escalation_reason: str | None,
    low_confidence: bool,
    headline: str | None = None,
) -> str:
    """The whole answer text (deterministic)."""
    lines: list[str] = []
    if status == "clarify":
        lines.append(label("clarify", language))
        for q in questions:
            opts = f" ({' / '.join(q.options)})" if q.options else ""
            lines.append(f"- {q.question}{opts}")
    elif escalation_reason == "out_of_scope":
        lines.append(label("out_of_scope", language))
        lines.append(label("offer", language))
    elif status == "abstained":
        lines.append(headline or label("no_source", language))
        lines.append(label("offer", language))
    else:
        if escalation_reason in ("advice", "protected_determination"):
            lines.append(label("advice" if escalation_reason == "advice" else "protected", language))
        else:
            lines.append(f"**{label('answer', language)}**")
        if low_confidence:
            lines.append(label("low", language))
        lines.extend(render_claims(claims, language))
        if not claims and escalation_reason:
            lines.append(label("no_source", language))
        if escalation_reason:
            lines.append(label("offer", language))
    if conflicts:
        lines.append(f"**{label('conflicts', language)}**")
        for cf in conflicts:
            srcs = "; ".join(
                f"{s.number} {s.location} ({s.status}): {', '.join(s.figures)}" for s in cf.sources
            )
            lines.append(
                f"- {srcs} — {label('decided', language)} {cf.decided_by}, "
                f"{label('preferred', language)}: {cf.preferred}"
            )
    if unknowns and status != "clarify":
        lines.append(f"**{label('unknown', language)}**")
        lines.extend(f"- {u}" for u in unknowns)
    if unsupported:
        lines.append(f"**{label('unsupported', language)}**")
        lines.extend(f"- {u.text} [{', '.join(u.codes)}]" for u in unsupported)
    if warnings:
        lines.append(f"**{label('warnings', language)}**")
        lines.extend(f"- {w}" for w in warnings)
    lines.append(f"({label('as_of', language).format(d=as_of.isoformat())})")
    return "\n".join(lines)
