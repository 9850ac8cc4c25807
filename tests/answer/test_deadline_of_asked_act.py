"""A deadline question is answered by the time limit of the act it asks about (session 55, a probe of ours).

"Dalam berapa bulan keberatan harus diajukan?" was led by PP 50/2022 Pasal 33 -- the tax office's 12 months
to decide an objection, which shares every word of the question ("keberatan yang diajukan ... dalam jangka
waktu") -- over UU KUP Pasal 25 ayat (3), the taxpayer's 3 months to file it.  Two causes: the rule the asker
wanted was marked as bound to an unasked procedure (it counts the months from the assessment objected to),
and nothing read which act a time limit binds.  Passages are the acts' own sentences; the questions are ours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.answer.extractive import (
    asked_procedures,
    deadline_of_asked_act,
    procedure_unasked,
    states_fact,
    time_limits_of,
)
from kb.lexicon import DEFAULT_LEXICON_PATH, LexiconError, load
from tests.answer.chunk_sample import anonymous_answer

TAXPAYER_FILES = (
    "(3) Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan sejak tanggal dikirim surat ketetapan "
    "pajak atau sejak tanggal pemotongan atau pemungutan pajak"
)
OFFICE_DECIDES = (
    "Direktur Jenderal Pajak harus menyelesaikan keberatan yang diajukan oleh Wajib Pajak dalam jangka waktu "
    "paling lama 12 (dua belas) bulan"
)


@pytest.mark.parametrize(
    "question",
    ["Dalam berapa bulan keberatan harus diajukan?", "batas waktu mengajukan keberatan berapa lama?"],
)
def test_the_time_limit_of_the_asked_act(question: str) -> None:
    assert deadline_of_asked_act(question, TAXPAYER_FILES)  # either voice of the verb
    assert not deadline_of_asked_act(question, OFFICE_DECIDES)  # "diajukan" only in a relative clause


def test_an_objection_rule_names_its_assessment_without_being_bound_elsewhere() -> None:
    asked = asked_procedures("Dalam berapa bulan keberatan harus diajukan?")
    assert {"objection", "assessment"} <= asked
    assert not procedure_unasked(asked, TAXPAYER_FILES)
    # a question naming no procedure still reads the same rule as bound to the objection
    assert procedure_unasked(asked_procedures("berapa lama jangka waktunya?"), TAXPAYER_FILES)


def test_the_objection_deadline_question_is_led_by_the_taxpayers_time(services: Any) -> None:
    answer = anonymous_answer(services, "Dalam berapa bulan keberatan harus diajukan?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 25 ayat (3) UU 6/1983")
    assert "3 (tiga) bulan" in lead.quote


def test_a_concern_must_name_a_procedure(tmp_path: Path) -> None:
    data = yaml.safe_load(DEFAULT_LEXICON_PATH.read_text(encoding="utf-8"))
    data["procedures"]["objection"]["concerns"] = ["assesment"]
    bad = tmp_path / "lexicon.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"lexicon.yaml: procedures.objection.concerns must be a list of"):
        load(bad)


# --- session 56: a time limit bound to the asked act without "harus" ---------------------------------------
LOSS_CARRIED = (
    "(2) Apabila penghasilan bruto setelah pengurangan sebagaimana dimaksud pada ayat (1) didapat kerugian, "
    "kerugian tersebut dikompensasikan dengan penghasilan mulai tahun pajak berikutnya berturut-turut sampai "
    "dengan 5 (lima) tahun."
)
CONDITION_OF_ANOTHER_ACT = (
    "f. menghitung kembali pajak yang seharusnya terutang ... atau melaporkan rugi usaha secara tidak wajar "
    "meskipun Wajib Pajak telah melakukan penjualan secara komersial selama 5 (lima) tahun dan melaporkan "
    "kerugian fiskal selama 3 (tiga) tahun berturut-turut;"
)
DATED_BY_THE_VERB = (
    "Ketentuan ini dimaksudkan untuk melindungi pembeli dengan menegaskan bahwa Faktur Pajak yang dibuat "
    "lebih dari 3 (tiga) bulan sejak saat Faktur Pajak seharusnya dibuat tidak dapat dikreditkan."
)
AGE_ONLY = (
    "(8) Wajib Pajak orang pribadi dalam negeri yang tidak memiliki Nomor Pokok Wajib Pajak dan telah "
    "berusia 21 (dua puluh satu) tahun yang bertolak ke luar negeri wajib membayar pajak."
)


def test_the_asked_verb_as_the_predicate_of_the_limit() -> None:
    question = "Berapa lama kerugian fiskal boleh dikompensasikan?"
    assert deadline_of_asked_act(question, LOSS_CARRIED)
    assert not deadline_of_asked_act(question, CONDITION_OF_ANOTHER_ACT)  # the 5 years bind "penjualan"


def test_a_verb_after_the_limit_or_in_a_relative_clause_binds_nothing() -> None:
    assert not deadline_of_asked_act("Faktur pajak dibuat kapan?", DATED_BY_THE_VERB)


def test_an_age_is_no_time_limit() -> None:
    assert not states_fact("deadline", AGE_ONLY)
    assert states_fact("deadline", LOSS_CARRIED)
    assert time_limits_of(AGE_ONLY) != AGE_ONLY and len(time_limits_of(AGE_ONLY)) == len(AGE_ONLY)


def test_the_loss_carry_forward_question_is_led_by_the_act_that_sets_it(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa lama kerugian fiskal boleh dikompensasikan?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021"
    assert lead.source.location.startswith("Pasal 6 ayat (2) UU 7/1983")
    assert "5 (lima) tahun" in lead.quote


def test_a_capitalised_name_is_no_asked_verb() -> None:
    # "meterai" starts like a meN- verb; the act writes the duty's name capitalised
    limitation = (
        "Bea Meterai yang terutang menjadi kedaluwarsa setelah jangka waktu 5 (lima) tahun sejak saat "
        "terutang."
    )
    assert not deadline_of_asked_act("Kapan bea meterai terutang?", limitation)
