"""A class the text names only negated is not the class the asker names: "Bukan Pegawai" is no employee.

"PPh 21 karyawan harus setor tanggal berapa?" (session 72, a probe of our own) was led by the company's
procedure for fees paid to non-employees ("Prosedur Kas Kecil dan PPh 21 atas Honorarium Bukan Pegawai"),
which covered the asker's "karyawan" through its "bukan pegawai", ahead of the closing calendar's row for
PPh 21/26 ("Setor paling lambat: tanggal 15 bulan berikutnya").  Only a noun's negations ("bukan", "non")
count: "tidak dipotong" still mentions withholding, since an exemption answers whether a thing is withheld.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from kb.lexical import coverage, question_concepts
from kb.query import understand

QUESTION = "PPh 21 karyawan harus setor tanggal berapa?"
NON_EMPLOYEES = "PPh 21 atas honorarium bukan pegawai dipotong oleh kasir kas kecil."


def _coverage(question: str, text: str) -> float:
    return coverage(question_concepts(understand(question), question), text)


def test_a_class_named_only_negated_is_not_mentioned() -> None:
    assert _coverage("Apakah pegawai dipotong PPh 21?", NON_EMPLOYEES) == 2 / 3
    assert _coverage("Apakah pegawai dipotong PPh 21?", "PPh 21 pegawai dan bukan pegawai dipotong.") == 1.0


def test_the_askers_own_negation_still_meets_it() -> None:
    assert _coverage("Apakah bukan pegawai dipotong PPh 21?", NON_EMPLOYEES) == 1.0


def test_a_negated_verb_still_mentions_the_act() -> None:
    assert _coverage("Apakah dividen dipotong PPh 23?", "Dividen tidak dipotong PPh 23.") == 1.0


def test_the_employees_deadline_is_the_calendars(services: Any) -> None:
    principal = services.cli_principal("tax.lead@sinarnusantara.co.id")
    answer = answer_question(QUESTION, principal, services, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "tax-closing-calendar", lead.source
    assert "PPh 21/26" in lead.quote and "tanggal 15" in lead.quote


def test_the_class_the_asker_rules_out_meets_the_acts_name_for_it() -> None:
    # "bukan karyawan" is the acts' "Bukan Pegawai" (the alias gives "karyawan" its law word, the negation
    # stays with it); a rule for employees names the class the asker ruled out
    question = "Kita bayar desainer freelance (bukan karyawan). PPh 21-nya gimana?"
    rule = "Dasar pengenaan PPh 21 untuk Bukan Pegawai yaitu sebesar 50% dari jumlah penghasilan bruto."
    employees = "Dasar pengenaan PPh 21 untuk Pegawai Tetap yaitu sebesar penghasilan bruto dikurangi biaya."
    assert _coverage(question, rule) > _coverage(question, employees)
