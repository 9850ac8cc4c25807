"""List items read with their lead-in, a PDF line wrap inside a cross-reference is not a new ayat, and a
question that names a rate but asks for its conditions is not answered with the rate."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import asked_fact, split_units, states_fact
from bot.answer.model import Answer
from bot.answer.pipeline import answer_question


def ask(services: Any, question: str, as_of: dt.date | None = None) -> Answer:
    """``question`` asked anonymously (documents open to everyone), as of ``as_of`` or today."""
    return answer_question(question, services.cli_principal(None), services, as_of=as_of)


# PMK 112/2025 Pasal 2 ayat (4) as the corpus holds it: the PDF wraps "pada ayat" / "(3) huruf b"
TREATY_CONDITIONS = (
    "(4) Wajib Pajak Luar Negeri sebagaimana dimaksud pada ayat\n"
    "(3) huruf b berhak memperoleh manfaat Persetujuan\n"
    "Penghindaran Pajak Berganda dengan syarat Wajib Pajak\nLuar Negeri tersebut:\n"
    "a. bukan subjek pajak dalam negeri Indonesia;\nb. merupakan penduduk Mitra Persetujuan\n"
    "Penghindaran Pajak Berganda untuk tujuan\nperpajakan; dan\nc. tidak melakukan penyalahgunaan"
)


def test_a_wrapped_cross_reference_is_not_a_new_ayat_and_items_keep_their_lead_in() -> None:
    units = split_units(TREATY_CONDITIONS)
    assert [u.quote for u in units] == [
        "a. bukan subjek pajak dalam negeri Indonesia;",
        "b. merupakan penduduk Mitra Persetujuan Penghindaran Pajak Berganda untuk tujuan perpajakan; dan",
        "c. tidak melakukan penyalahgunaan",
    ]
    lead_in = (
        "Wajib Pajak Luar Negeri berhak memperoleh manfaat Persetujuan Penghindaran Pajak Berganda dengan "
    )
    assert all(u.text.startswith(lead_in) for u in units)
    assert "(3)" not in units[0].text  # the cross-reference is dropped: no number the quote lacks


def test_a_rate_named_in_a_question_about_conditions_is_not_the_asked_fact() -> None:
    assert asked_fact("Apa syarat supaya vendor luar negeri bisa pakai tarif tax treaty?") is None
    assert asked_fact("Which documents does a vendor need for the treaty rate?") is None
    assert asked_fact("Berapa tarif PPh 26 kalau syarat treaty tidak terpenuhi?") == "rate"
    assert asked_fact("tarif PPh 23 jasa teknik?") == "rate"
    # "berapa" that asks neither a rate nor a period asks an amount, which a lead must state
    assert asked_fact("Berapa PTKP untuk wajib pajak kawin?") == "amount"
    # ... but "berapa <a tax>" asks how much the tax is: its rate
    assert asked_fact("Berapa bea meterai untuk dokumen perjanjian?") == "rate"
    assert states_fact("amount", "dikenakan Bea Meterai dengan tarif tetap sebesar Rp10.000,00")
    assert not states_fact("amount", "Bea Meterai dikenakan atas Dokumen yang bersifat perdata")
    # a rate may be a fixed amount: Bea Meterai's "tarif tetap sebesar Rp10.000,00" states the asked rate
    assert states_fact(
        "rate", "dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00 (sepuluh ribu rupiah)"
    )
    assert not states_fact("rate", "batas nilai nominal Dokumen lebih dari Rp5.000.000,00")


def test_treaty_conditions_question_is_answered_with_the_conditions(services: Any) -> None:
    answer = ask(services, "Apa syarat supaya vendor luar negeri bisa pakai tarif tax treaty?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-112-2025", "Pasal 2 ayat (4)")
    assert "tarifnya" not in answer.answer
    assert answer.answer.startswith("Menurut PMK 112/2025: Wajib Pajak Luar Negeri berhak memperoleh manfaat")


def test_a_conditions_question_is_answered_in_the_rules_words_not_with_a_pulled_out_rate(
    services: Any,
) -> None:
    """Before PMK 112/2025 (in force 2025-12-30) the passage found is PMK 168/2023's PPh 26 rate rule; the
    line quotes it ("... 20% ... atau sesuai dengan ketentuan persetujuan ...") instead of "tarifnya 20%"."""
    answer = ask(
        services, "Apa syarat supaya vendor luar negeri bisa pakai tarif tax treaty?", dt.date(2024, 6, 1)
    )
    assert answer.status == "answered"
    assert "tarifnya" not in answer.answer
    assert answer.answer.startswith(f"Menurut {answer.claims[0].source.number}: ")


def test_a_period_in_the_rule_is_not_called_the_deadline_when_none_was_asked(hashing_services: Any) -> None:
    """ "Berapa sanksi ...?" asks no deadline: a "paling lama 24 (dua puluh empat) bulan" in the lead is part
    of the rule, not "batas waktunya"."""
    from bot.answer.render import answer_line
    from tests.answer.test_user_reads import claim

    kup19 = claim(hashing_services, "uu-6-2023", "paling lama 24 (dua puluh empat) bulan", at="Pasal 19")
    line = answer_line([kup19], "id", "Berapa sanksi bunga kalau SKPKB telat dibayar?")
    assert "batas waktunya" not in line and line.startswith("Menurut UU 6/2023: ")
    asked = answer_line([kup19], "id", "Berapa lama paling lama bunga SKPKB dihitung?")
    assert asked.startswith("Menurut UU 6/2023, batas waktunya paling lama 24 (dua puluh empat) bulan")


def test_the_unit_that_states_the_asked_rate_leads_its_passage(services: Any) -> None:
    """PP 23/2018 Pasal 2 ranks first but its best-covering unit is the lead-in without the rate; the unit
    with "0,5%" must lead, not UU PPh Pasal 25 ayat (7)'s "paling tinggi 0,75%" for "pengusaha tertentu".
    Since session 66 the Pasal is read ayat by ayat (its markers stood above its heading), so the rate is
    cited at its ayat (2)."""
    answer = ask(services, "Berapa tarif PPh final UMKM atas peredaran bruto selama tahun 2021?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-23-2018", "Pasal 2 ayat (2)")
    assert "0,5% (nol koma lima persen)" in lead.quote
    assert answer.answer.startswith("Menurut PP 23/2018, tarifnya 0,5% [1].")


def test_a_passage_of_the_named_law_covers_the_laws_name(services: Any) -> None:
    """ "undang-undang PPN" is covered by every passage of UU PPN (its short name), so Pasal 7's rate is not
    outranked by a passage that happens to repeat "Undang-undang ... Pajak Pertambahan Nilai"."""
    answer = ask(services, "Dalam undang-undang PPN yang asli, tarif PPN tahun 1989 berapa persen?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-8-1983", "Pasal 7")
    assert answer.answer.startswith("Menurut UU 8/1983, tarifnya 10% [1].")  # was "tarifnya 0%" (exports)
