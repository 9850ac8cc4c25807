"""A company document past its review date is still quoted, but the answer says its owner has not
vouched for it again; a regulation has no review date and never gets the note."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question

QUESTION = "Berapa tarif PPh 23 untuk sewa kendaraan menurut matriks perusahaan?"
WHEN = dt.date(2025, 3, 1)


def _ask(services: Any, today: dt.date) -> Any:
    principal = services.cli_principal("ap.clerk@sinarnusantara.co.id")
    return answer_question(QUESTION, principal, services, as_of=WHEN, today=today)


def test_a_policy_past_its_review_date_is_quoted_with_a_note(behaviour_services: Any) -> None:
    answer = _ask(behaviour_services, dt.date(2026, 12, 1))
    assert answer.status == "answered"
    numbers = {c.source.number for c in answer.claims}
    assert "SNR-POL-TAX-003/2024" in numbers
    notes = [w for w in answer.warnings if "melewati tanggal tinjaunya" in w]
    assert notes == [
        "SNR-POL-TAX-003/2024 melewati tanggal tinjaunya (2025-12-31) dan belum ditinjau ulang: pastikan ke "
        "pemiliknya atau tim pajak sebelum mengandalkannya."
    ]


def test_before_its_review_date_the_policy_carries_no_note(behaviour_services: Any) -> None:
    answer = _ask(behaviour_services, dt.date(2025, 6, 1))
    assert "SNR-POL-TAX-003/2024" in {c.source.number for c in answer.claims}
    assert not [w for w in answer.warnings if "tanggal tinjau" in w]


def test_notes_name_only_documents_the_answer_quotes(services: Any) -> None:
    # the petty-cash procedure was among the passages composed but not among those shown after the cut to
    # the lead's neighbours; its review note used to be printed anyway
    principal = services.cli_principal("ap.clerk@sinarnusantara.co.id")
    answer = answer_question(
        "pph 23 masa nov 2024 setornya paling lambat tgl brp? trs kalo masa jan 2025 masih sama tgl nya?",
        principal,
        services,
        today=dt.date(2026, 12, 2),
    )
    quoted = {c.source.number for c in answer.claims}
    noted = {w.split(" ", 1)[0] for w in answer.warnings if "melewati tanggal tinjaunya" in w}
    assert noted and noted <= quoted
