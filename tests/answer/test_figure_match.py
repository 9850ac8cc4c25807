"""A figure the question quotes ("batas 7 tahun", "lebih dari 183 hari") points at the rule that sets it: the
lead quotes the provision stating that figure, not a neighbour that shares the question's other words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import figure_match, question_figures
from bot.answer.pipeline import answer_question


def test_question_figures_are_rule_figures_not_dates_or_bare_numbers() -> None:
    figures = question_figures(
        "Faktur tgl 10 Mei 2022 no 17, tarif 0,5% dan batas 7 tahun, omzet Rp4,8 miliar?"
    )
    assert len(figures) == 3  # the percent, the period, the amount; not the date or "17"
    assert figure_match(figures, "dikenai tarif 0,5% (nol koma lima persen)") == 1 / 3
    assert (
        figure_match(figures, "paling lama 7 (tujuh) Tahun Pajak; peredaran bruto Rp4.800.000.000,00")
        == 2 / 3
    )
    assert figure_match(figures, "jangka waktu 7 (tujuh) hari") == 0.0  # days are not years
    assert figure_match((), "7 (tujuh) Tahun Pajak") == 0.0


def test_a_chat_amount_meets_the_act_amount() -> None:
    # "4,8 M" and "500jt" are how staff write Rp4.800.000.000 and Rp500.000.000
    figures = question_figures("omzet sudah 4,8 M, yang 500jt gimana?")
    assert len(figures) == 2
    assert (
        figure_match(figures, "melebihi Rp4.800.000.000,00 (empat miliar delapan ratus juta rupiah)") == 0.5
    )
    assert figure_match(figures, "sampai dengan Rp500.000.000,00 (lima ratus juta rupiah)") == 0.5
    assert figure_match(question_figures("omzet sudah 4,8 juta"), "melebihi Rp4.800.000.000,00") == 0.0


def test_the_quoted_period_leads_with_the_provision_that_sets_it(services: Any) -> None:
    answer = answer_question(
        "Usaha saya pakai PP 23. Batas waktu 7 tahun itu dihitung sejak kapan?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2022, 6, 1),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-23-2018", "Pasal 5")
    assert "7 (tujuh) Tahun Pajak" in lead.quote
