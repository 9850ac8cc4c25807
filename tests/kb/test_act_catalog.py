"""Acts cited without their year ("PP 23", "PMK 168") name the one act of that type and number."""

from __future__ import annotations

from typing import Any

from kb.query import act_catalog, understand

NUMBERS = ["PP 23/2018", "PMK 168/2023", "UU 7/1983", "UU 7/2021", "PP 55/2022", "SNR-POL-TAX-003/2024"]


def test_catalog_keeps_only_numbers_unique_in_the_corpus() -> None:
    assert act_catalog(NUMBERS) == {"PMK 168": "PMK 168/2023", "PP 23": "PP 23/2018", "PP 55": "PP 55/2022"}


def test_bare_numbers_resolve_through_the_catalog_only() -> None:
    catalog = act_catalog(NUMBERS)
    plan = understand("boleh tetap pakai pp 23 tahun ini? lalu PMK 168 mengatur apa", catalog=catalog)
    assert plan.doc_refs == ("PP 23/2018", "PMK 168/2023")
    assert understand("tarif PP No. 55 untuk UMKM", catalog=catalog).doc_refs == ("PP 55/2022",)
    # without the catalog (or for an ambiguous number) nothing is guessed
    assert understand("boleh tetap pakai pp 23 tahun ini?").doc_refs == ()
    assert understand("UU 7 pasal 4 ayat (1)", catalog=catalog).doc_refs == ()
    # a full reference, a tax type and a percentage are not bare act numbers
    assert understand("Menurut PP 23/2018, berapa tarifnya?", catalog=catalog).doc_refs == ("PP 23/2018",)
    assert understand("PPh 23 atas jasa teknik", catalog=catalog).doc_refs == ()
    assert understand("diskon PMK 168% itu apa", catalog=catalog).doc_refs == ()


def test_the_pipeline_answers_from_the_act_a_bare_number_names(behaviour_services: Any) -> None:
    import datetime as dt

    from bot.answer.pipeline import answer_question

    assert behaviour_services.retriever.catalog()["PP 23"] == "PP 23/2018"
    answer = answer_question(
        "pp 23 itu jangka waktunya berapa tahun untuk wp orang pribadi?",
        behaviour_services.cli_principal(None),
        behaviour_services,
        as_of=dt.date(2021, 6, 1),
    )
    # without the catalog the question names no act and no tax type, and is escalated as out of scope
    assert answer.status == "answered"
    assert ("pp-23-2018", "Pasal 5") in {(c.source.doc_id, c.source.location) for c in answer.claims}
