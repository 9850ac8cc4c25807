"""Root causes of wrong leading claims found on outside users' chat questions (2026-12-02): how a question is
read (its kind, its topic words), not how passages are weighted.  Each test names the character- or word-level
rule that was wrong; the questions are written for the test, not copied from an eval set."""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import asked_fact, asks_rate, window_closed
from kb.lexical import coverage, question_concepts
from kb.lexicon import plain_question
from kb.query import understand


def _concepts(question: str) -> list[frozenset[tuple[str, ...]]]:
    return question_concepts(understand(question), question, keep_named_refs=True, focus_ask=True)


def _words(question: str) -> set[str]:
    return {phrase[0] for c in _concepts(question) for phrase in c if len(phrase) == 1}


# -- the kind of fact asked reads chat spellings and the enclitic -nya ------------------------------------


def test_a_tax_named_twice_by_alias_and_acronym_is_one_topic() -> None:
    # "VAT (PPN)": the alias VAT already expands to "PPN"; the acronym written beside it was a second concept
    # that only a passage writing the acronym covers, so UU PPN's own "Tarif Pajak Pertambahan Nilai ..."
    # covered half the question and a PMK whose short title says "PPN" covered all of it
    concepts = _concepts("Which VAT (PPN) rate do we print on our invoices?")
    tax = [c for c in concepts if ("ppn",) in c]
    assert len(tax) == 1 and ("vat",) in tax[0]
    rule = "Tarif Pajak Pertambahan Nilai yaitu sebesar 12% (dua belas persen)"
    assert coverage(concepts, rule, "id") == coverage(
        _concepts("Which VAT rate do we print on our invoices?"), rule, "id"
    )


def test_plain_question_writes_out_chat_spellings_and_detaches_nya() -> None:
    assert plain_question("pph final tarifnya brp?") == "pph final tarif nya berapa?"
    assert plain_question("hanya punya NPWP") == "hanya punya NPWP"  # -nya needs three letters before it


def test_plain_question_detaches_nya_written_after_a_hyphen() -> None:
    # chat writes the enclitic after an abbreviation with a hyphen: "PPN-nya" is "PPN nya"
    assert plain_question("sewa alat, PPN-nya brp?") == "sewa alat, PPN nya berapa?"
    assert plain_question("NPWP-nya sudah ada") == "NPWP nya sudah ada"
    assert plain_question("masing-masing pihak") == "masing-masing pihak"  # a reduplication is no enclitic


def test_a_rate_asked_as_tax_hyphen_nya_berapa_is_a_rate_question() -> None:
    # "PPh-nya berapa?" asked no rate: "\bpph\b ... (nya)? berapa" never met the hyphen
    assert asks_rate("jual gudang ke PT lain, PPh-nya berapa?")
    assert asked_fact("jual gudang ke PT lain, PPh-nya berapa?") == "rate"


def test_a_rate_asked_with_tarifnya_brp_is_a_rate_question() -> None:
    # "\btarif\b" did not match "tarifnya", "\bberapa\b" not "brp": the lead was not required to state a rate
    assert asks_rate("sewa gudang, tarifnya brp?")
    assert asked_fact("sewa gudang, tarifnya brp?") == "rate"


def test_brp_lama_asks_a_period_like_berapa_lama() -> None:
    assert asked_fact("brp lama arsip faktur disimpan?") == asked_fact("berapa lama arsip faktur disimpan?")
    assert asked_fact("brp lama arsip faktur disimpan?") == "deadline"


def test_nilainya_brp_asks_an_amount() -> None:
    assert asked_fact("kalau kena, nilainya brp?") == "amount"


# -- topic words: what a passage must contain -----------------------------------------------------------


def test_an_amount_with_rupiah_written_on_is_no_topic_word() -> None:
    # "Rp7.500.000" tokenizes to "rp7": no passage contains it
    assert not any(w.startswith("rp") for w in _words("kuitansi Rp7.500.000 kena bea meterai?"))


def test_month_names_are_dates_of_the_case() -> None:
    words = _words("faktur masukan bulan Juni belum dikreditkan, sekarang Agustus")
    assert not words & {"juni", "agustus"}


def test_waktu_itu_points_back_to_a_date() -> None:
    assert "waktu" not in _words(
        "faktur tanggal 3 Mei 2021, waktu itu ppn berapa persen dan ke mana disetor?"
    )


def test_chat_spelling_of_a_generic_word_is_generic() -> None:
    assert _words("skrg tarif ppn berapa? iya") == _words("sekarang tarif ppn berapa? ya")


def test_reduplicated_plural_and_chat_suffix_in_meet_the_formal_word() -> None:
    concepts = _concepts("bukti2 pembelian yg belum dikreditin gmn?")
    passage = "Bukti pembelian yang belum dikreditkan dapat dikreditkan pada Masa Pajak berikutnya."
    assert coverage(concepts, passage) == 1.0


def test_a_glued_tax_name_still_searches_the_spaced_form() -> None:
    # "pph21" matched the alias "PPh 21" for lookup only; the spaced form was left out of the added terms, so
    # neither the search nor the coverage test found a passage that writes "PPh 21"
    plan = understand("pph21 atas honor dipotong brp?")
    assert "pph 21" in plan.terms
    assert coverage(_concepts("pph21 atas honor dipotong brp?")[:1], "pemotongan PPh 21 atas honor") == 1.0


def test_api_is_the_importer_number() -> None:
    plan = understand("impor pakai API, pph 22 brp?")
    assert "angka pengenal impor" in plan.terms
    assert "angka pengenal impor" not in understand("integrasi api e-faktur").terms  # lower-case: no alias


def test_berapa_lama_is_the_frame_of_a_period_question() -> None:
    # "lama" of "brp lama" made a passage saying "paling lama 1 (satu) bulan" cover the question better than
    # the rule "disimpan selama 10 (sepuluh) tahun"
    assert "lama" not in _words("brp lama dokumen pembukuan wajib disimpan?")
    assert "lama" in _words("invoice lama belum dibayar, ppn terutang kapan?")


def test_a_transitional_window_counted_from_commencement_closes() -> None:
    # "1 (satu) tahun setelah Undang-Undang ini mulai berlaku" (old stamps, minimum Rp9.000) led a question
    # about today's stamp duty: the window was not dated, so window_closed never saw it
    text = (
        "Pada saat Undang-Undang ini mulai berlaku: Meterai tempel yang masih tersisa masih dapat digunakan "
        "sampai dengan jangka waktu 1 (satu) tahun setelah Undang-Undang ini mulai berlaku. Meterai tempel "
        "dapat digunakan dengan nilai total paling sedikit Rp9.000,00 (sembilan ribu rupiah)."
    )
    start = dt.date(2021, 1, 1)
    assert window_closed(text, dt.date(2024, 6, 1), start)
    assert not window_closed(text, dt.date(2021, 6, 1), start)
    assert not window_closed(text, dt.date(2024, 6, 1))  # the act's start unknown: nothing to count from


def test_katanya_is_a_chat_hearsay_marker() -> None:
    # "katanya" (reportedly) was a topic word no rule contains: the marketplace rate Pasal covered 3 of 8
    # concepts and the question was declined
    assert not any(w.startswith("kata") for w in _words("katanya pph 22 marketplace tarif berapa?"))
