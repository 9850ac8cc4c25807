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

from bot.answer.extractive import asked_procedures, deadline_of_asked_act, procedure_unasked
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
