"""What the user reads (issue 16): the answer line, conflicts only between like claims, the regime that
applies leads, advice/premises/missing facts, withheld claims in words -- on the sample corpus's real text."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from bot.answer import conflicts as conflicts_mod
from bot.answer.extractive import is_padding, split_units
from bot.answer.model import Answer, Confidence, ShownClaim, SourceRef, UnsupportedClaim
from bot.answer.pipeline import answer_question
from bot.answer.render import answer_line, render_terminal, withheld_summary
from guardrails.verify import extract_figures, normalize_ws

TODAY = dt.date(2026, 11, 30)
LEAD = "tax.lead@sinarnusantara.co.id"


def ask(svc: Any, q: str, user: str | None = LEAD, **kw: Any) -> Answer:
    return answer_question(q, svc.cli_principal(user), svc, today=TODAY, **kw)


def claim(svc: Any, doc_id: str, needle: str, role: str = "direct", at: str = "") -> ShownClaim:
    """A verified-looking claim: the real unit of ``doc_id`` (at location ``at...``) containing ``needle``."""
    meta = svc.retriever.documents()[doc_id]
    for ch in svc.store.chunks_of(doc_id, indexed_only=True):
        if not ch.location.startswith(at):
            continue
        for u in split_units(ch.text):
            if needle in u.quote:
                assert normalize_ws(u.quote) in normalize_ws(ch.text)
                src = SourceRef(
                    doc_id, meta.number, meta.title, ch.location, meta.effective_from, meta.effective_to,
                    meta.status, meta.source_url, meta.ocr_noisy, ch.id,
                )  # fmt: skip
                return ShownClaim(u.text, u.quote, meta.layer, False, "supported", src, role, 1.0)
    raise AssertionError(f"{needle!r} not in {doc_id}")


def _assert_gates(svc: Any, a: Answer) -> None:
    chunks = svc.store.get_chunks([c.source.chunk_id for c in a.claims])
    for c in a.claims:
        assert normalize_ws(c.quote) in normalize_ws(chunks[c.source.chunk_id].text)
        keys = {k for f in extract_figures(c.quote) for k in f.provides()}
        for fig in extract_figures(c.text):
            assert fig.keys & keys, (fig.surface, c.quote)


# -- 2. conflicts only between like claims ------------------------------------------------------


def test_pph26_rate_and_no_npwp_surcharge_are_not_a_conflict(hashing_services: Any) -> None:
    svc = hashing_services
    rate = claim(svc, "pmk-168-2023", "Tarif pemotongan Pajak Penghasilan Pasal 26")
    surcharge = claim(svc, "uu-36-2008", "lebih tinggi 100% (seratus persen) daripada tarif", at="Pasal 23")
    docs = svc.retriever.documents()
    kinds = [f.kind for f in conflicts_mod.facts(surcharge, docs["uu-36-2008"])]
    assert kinds == ["surcharge"]
    assert conflicts_mod.detect([rate, surcharge], docs, "PPh 26") == ()


def test_petty_cash_pph23_and_final_construction_rate_are_different_regimes(hashing_services: Any) -> None:
    svc = hashing_services
    petty = claim(svc, "petty-cash-vendor-payments", "4% (empat persen)", role="policy")
    construction = claim(svc, "wht-matrix-2024", "pelaksana kualifikasi kecil/perseorangan", role="policy")
    docs = svc.retriever.documents()
    (fp,) = conflicts_mod.facts(petty, docs["petty-cash-vendor-payments"])
    (fc,) = conflicts_mod.facts(construction, docs["wht-matrix-2024"])
    assert (fp.tax, fp.final) == ("PPh 23", False)
    assert (fc.tax, fc.final, "construction" in fc.objects) == ("PPh 4(2)", True, True)
    assert conflicts_mod.detect([petty, construction], docs, "PPh 23") == ()


def test_a_sanction_percentage_under_a_list_lead_in_is_no_rival_rate(hashing_services: Any) -> None:
    # KUP's 100% increase on underpaid VAT (UU 11/2020 restating KUP Pasal 13 ayat (3)) names the sanction
    # only in the lead-in of its list ("sanksi administrasi berupa kenaikan sebesar: c. ... (seratus persen)
    # dari Pajak Pertambahan Nilai ..."): it must not "win" against the VAT rate as a later law (session 30)
    svc = hashing_services
    docs = svc.retriever.documents()
    vat = claim(svc, "uu-42-2009", "Tarif Pajak Pertambahan Nilai adalah 10%")
    increase = claim(svc, "uu-11-2020", "(seratus persen) dari Pajak Pertambahan Nilai")
    assert "kenaikan sebesar" in increase.text and "kenaikan" not in increase.quote
    assert [f.kind for f in conflicts_mod.facts(increase, docs["uu-11-2020"])] == ["sanction"]
    assert [f.kind for f in conflicts_mod.facts(vat, docs["uu-42-2009"])] == ["rate"]
    assert conflicts_mod.detect([vat, increase], docs, "PPN") == ()
    line = answer_line([vat, increase], "id", "PPN tahun 2021 berapa persen?")
    assert line == "Menurut UU 42/2009, tarifnya 10% [1]."


def test_petty_cash_4_percent_loses_to_the_matrix_and_to_the_law(hashing_services: Any) -> None:
    svc = hashing_services
    docs = svc.retriever.documents()
    petty = claim(svc, "petty-cash-vendor-payments", "4% (empat persen)", role="policy")
    matrix = claim(svc, "wht-matrix-2024", "| Jasa teknik, jasa manajemen", role="policy")
    (cf,) = conflicts_mod.detect([petty, matrix], docs, "PPh 23", language="en")
    assert (cf.decided_by, cf.preferred) == ("higher_level", "wht-matrix-2024")
    assert cf.explanation.startswith("SNR-POL-TAX-003/2024 (2%) applies because it ranks higher")
    assert "[" not in cf.explanation and "_" not in cf.explanation  # words, not codes
    law = claim(svc, "uu-36-2008", "imbalan sehubungan dengan jasa teknik, jasa manajemen", at="Pasal 23")
    (cf2,) = conflicts_mod.detect([petty, law], docs, "PPh 23")
    assert (cf2.decided_by, cf2.preferred) == ("regulation_over_policy", "uu-36-2008")
    assert "praktik perusahaan" in cf2.explanation and "4%" in cf2.explanation
    # the answer line leads with the law, says the procedure differs, never leads with the procedure's 4%
    line = answer_line([petty, law], "id", "Berapa tarif PPh 23 atas jasa servis AC?", (cf2,))
    assert line.startswith("Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [2].")
    assert "SNR-PRO-FIN-007 menyebut 4% [1], tetapi UU 36/2008 yang berlaku." in line


def test_later_law_wins_in_words(hashing_services: Any) -> None:
    docs = hashing_services.retriever.documents()
    rule, preferred = conflicts_mod.decide(docs["uu-42-2009"], docs["uu-7-2021"])
    assert (rule, preferred) == ("later_effective_date", "uu-7-2021")
    text = conflicts_mod.explain(
        rule, docs["uu-7-2021"], docs["uu-42-2009"], {"uu-7-2021": ("11%",), "uu-42-2009": ("10%",)}, "en"
    )
    assert text.startswith("UU 7/2021 (11%) applies because it took effect later (")


# -- 1. the answer line, premises, withheld claims ------------------------------------------------


def test_a_surcharge_never_answers_a_rate_premise(hashing_services: Any) -> None:
    # the surcharge for a payee without an NPWP ("lebih tinggi 100% ... daripada tarif") is no rate: led by
    # it, "PPh 23 jasa servis 4% kan?" got "Tidak: aturannya 100%, bukan 4%" (outside tester, session 30)
    surcharge = claim(
        hashing_services, "uu-36-2008", "lebih tinggi 100% (seratus persen) daripada tarif", at="Pasal 23"
    )
    line = answer_line([surcharge], "id", "Vendor jasa servis sudah ber-NPWP, PPh 23-nya dipotong 4% kan?")
    assert not line.startswith(("Tidak:", "Ya.")) and "aturannya 100%" not in line
    rate = claim(
        hashing_services, "uu-36-2008", "c. sebesar 2% (dua persen) dari jumlah bruto atas", at="Pasal 23"
    )
    assert answer_line(
        [rate], "id", "Vendor jasa servis sudah ber-NPWP, PPh 23-nya dipotong 4% kan?"
    ).startswith("Tidak: aturannya 2%, bukan 4%.")


def test_answer_line_carries_figure_marker_and_corrects_a_false_premise(hashing_services: Any) -> None:
    law = claim(
        hashing_services, "uu-36-2008", "c. sebesar 2% (dua persen) dari jumlah bruto atas", at="Pasal 23"
    )
    line = answer_line([law], "id", "Tarif PPh 23 untuk jasa teknik itu 1% kan?")
    assert line == "Tidak: aturannya 2%, bukan 1%. Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [1]."
    en = answer_line([law], "en", "The PPh 23 rate for technical services is 1%, right?")
    assert en.startswith(
        "No: the rule says 2%, not 1%. Under UU 36/2008, the rate is 2% of the gross amount [1]"
    )
    assert answer_line([law], "id", "Tarif PPh 23 jasa teknik 2%, benar?").startswith(
        "Ya. Menurut UU 36/2008"
    )


def test_answer_line_does_not_stop_at_an_item_letter(hashing_services: Any) -> None:
    """ "paling sedikit: b. Rp4.500.000,00 ..." is one sentence; the line used to end at "b"."""
    ptkp = claim(hashing_services, "uu-7-2021", "b. Rp4.500.000,00", at="Pasal 7 ayat (1)")
    line = answer_line([ptkp], "id", "Apa tambahan PTKP untuk wajib pajak kawin?")
    assert line.startswith("Menurut UU 7/2021: ")
    assert "paling sedikit: b. Rp4.500.000,00" in line and line.endswith("yang kawin [1].")
    # "berapa ...?" asks the amount: the line gives it with what it is for
    line = answer_line([ptkp], "id", "Berapa tambahan PTKP untuk wajib pajak kawin?")
    assert line == (
        "Menurut UU 7/2021, jumlahnya Rp4.500.000,00 (empat juta lima ratus ribu rupiah) tambahan untuk "
        "Wajib Pajak yang kawin [1]."
    )


def test_multi_part_question_gets_one_sentence_per_part(hashing_services: Any) -> None:
    svc = hashing_services
    law = claim(svc, "uu-36-2008", "imbalan sehubungan dengan jasa teknik, jasa manajemen", at="Pasal 23")
    due = claim(svc, "tax-closing-calendar", "| PPh 23/26 dan PPh 4(2)", role="policy")
    q = "Berapa tarif PPh 23 untuk jasa teknik dan kapan paling lambat disetor?"
    assert answer_line([law, due], "id", q) == (
        "Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [1]. "
        "Menurut SNR-PRO-TAX-004, batas waktunya tanggal 15 bulan berikutnya [2]."
    )
    # a part no claim states is said, not guessed
    assert answer_line([law], "en", "What is the PPh 23 rate on technical services and when is it due?") == (
        "Under UU 36/2008, the rate is 2% of the gross amount [1]. "
        "The sources found do not state the deadline."
    )


def test_withheld_claims_are_a_count_with_reasons_in_words(hashing_services: Any) -> None:
    law = claim(
        hashing_services, "uu-36-2008", "c. sebesar 2% (dua persen) dari jumlah bruto atas", at="Pasal 23"
    )
    withheld = (
        UnsupportedClaim(
            "Tarif 2% tidak berlaku.", law.quote, law.source.chunk_id, ("DUKUNGAN_BERTENTANGAN",), ()
        ),
        UnsupportedClaim("Tarif 3%.", "x", None, ("KUTIPAN_TIDAK_COCOK", "ANGKA_TANPA_DASAR"), ()),
    )
    assert withheld_summary(withheld, "en") == (
        "2 claims withheld: 1 because its quote is not the source's exact text, "
        "1 because the source says something different."
    )
    a = Answer(
        "answered", "Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [1].", (law,), withheld, (), (),
        Confidence(0.9, "high", None, 0.9, 0.9), TODAY, "v1", None, (), "id",
    )  # fmt: skip
    assert a.withheld_summary.startswith("2 klaim tidak ditampilkan: 1 karena")
    assert a.to_json()["withheld_summary"] == a.withheld_summary
    shown = render_terminal(a)
    assert "**" not in shown and "DUKUNGAN" not in shown and "KUTIPAN" not in shown
    assert shown.count("berdasarkan sumber per 2026-11-30") == 1


def test_padding_never_leads() -> None:
    assert is_padding("Cukup jelas.")
    assert is_padding("Pada saat Peraturan Pemerintah ini mulai berlaku:")
    assert is_padding("Contoh: servis AC oleh CV Sejuk Abadi Rp2.000.000.")
    assert not is_padding("c. sebesar 2% (dua persen) dari jumlah bruto atas:")
    # the placeholder parties of a worked example, wherever the unit starts
    assert is_padding(
        "Atas kesalahan tersebut, PT A melakukan pembetulan Faktur Pajak pada tanggal 20 September."
    )
    assert is_padding("Tuan D menerima gaji Rp9.500.000,00 selama bulan Januari.")
    assert not is_padding("PT SNR memotong PPh Pasal 23 sebesar 2%.")


def test_passages_that_are_all_worked_examples_give_no_claims(hashing_services: Any) -> None:
    from bot.answer.extractive import ExtractiveComposer
    from bot.answer.protocol import ComposeRequest
    from kb.model import Hit
    from kb.query import understand

    svc = hashing_services
    docs = svc.retriever.documents()
    examples = [
        c
        for c in svc.store.chunks_of("pp-44-2022", indexed_only=True)
        if "PT A" in c.text and "Faktur Pajak pengganti" in c.text
    ]
    assert examples, "the sample corpus's PP 44/2022 elucidation has a worked example about PT A"
    q = "Faktur Pajak pengganti dibuat kapan?"
    hits = tuple(Hit(c, docs["pp-44-2022"], 0.5, ("bm25",)) for c in examples[:2])
    composed = ExtractiveComposer().compose(ComposeRequest(q, "id", TODAY, understand(q), hits))
    assert composed.claims == () and composed.notes == ("only_examples",)


# -- 3. the right regime leads; 5. advice, missing facts, out of scope (whole pipeline) ------------


def test_office_rent_leads_with_the_final_land_and_building_rate(hashing_services: Any) -> None:
    a = ask(
        hashing_services,
        "Kami menyewa ruko untuk kantor cabang, berapa persen PPh yang dipotong atas sewanya?",
    )
    assert a.status == "answered"
    lead = a.claims[0]
    assert "tanah dan/atau bangunan" in lead.quote and "10%" in lead.quote
    assert "10%" in a.answer and "[1]" in a.answer and "\n" not in a.answer
    assert not any(cf.preferred != lead.source.doc_id and lead.source.doc_id in
                   {s.doc_id for s in cf.sources} for cf in a.conflicts)  # fmt: skip
    _assert_gates(hashing_services, a)


def test_construction_by_small_contractor_leads_with_the_construction_rate(hashing_services: Any) -> None:
    a = ask(
        hashing_services, "Kontraktor kecil perseorangan mengerjakan renovasi gudang, tarif PPh-nya berapa?"
    )
    assert a.status == "answered"
    assert "konstruksi" in a.claims[0].quote.lower() and "1,75%" in a.claims[0].quote
    assert "1,75%" in a.answer
    # the petty-cash 4% PPh 23 is never "preferred" over the final construction rate
    assert not any(cf.preferred == "petty-cash-vendor-payments" for cf in a.conflicts)
    _assert_gates(hashing_services, a)


@pytest.mark.parametrize(
    "question",
    [
        "Could we restructure the service agreement so that we avoid PPh 26 on it?",
        "Gimana caranya supaya kita nggak kena PPh 26 waktu bayar lisensi ke vendor luar negeri?",
        "Apa yang harus kami ubah di kontrak supaya pajaknya kecil?",
        "How do we avoid withholding tax when paying a foreign consultant?",
    ],
)
def test_planning_questions_are_escalated_as_advice(hashing_services: Any, question: str) -> None:
    a = ask(hashing_services, question)
    assert a.status == "escalated"
    assert a.escalation is not None and a.escalation.reason == "advice" and a.escalation.offered
    assert "tim pajak" in a.answer or "tax team" in a.answer


@pytest.mark.parametrize(
    "question", ["Berapa PPh 21 saya?", "How much income tax do I owe on my salary this month?"]
)
def test_personal_computation_without_inputs_asks_for_them(hashing_services: Any, question: str) -> None:
    a = ask(hashing_services, question)
    assert a.status == "clarify"
    assert a.claims == ()
    assert [q.slot for q in a.clarifying_questions][:2] == ["gross_income", "ptkp_status"]


def test_out_of_scope_is_declined_without_offering_the_tax_team(hashing_services: Any) -> None:
    a = ask(hashing_services, "Which city is the capital of Australia?")
    assert a.status == "escalated"
    assert a.escalation is not None and a.escalation.reason == "out_of_scope"
    assert a.escalation.offered is False
    assert "tax team" not in a.answer and "tim pajak" not in a.answer
    assert a.to_json()["escalation"]["offered"] is False


def test_answers_are_deterministic_and_in_the_question_language(hashing_services: Any) -> None:
    q = "What is the PPh 26 rate on services paid to a foreign vendor?"
    one = json.dumps(ask(hashing_services, q).to_json(include_timings=False), ensure_ascii=False)
    two = json.dumps(ask(hashing_services, q).to_json(include_timings=False), ensure_ascii=False)
    assert one == two
    a = ask(hashing_services, q)
    assert a.status == "answered" and a.answer.startswith("Under ") and "20%" in a.answer
    _assert_gates(hashing_services, a)


def test_zero_rate_for_exported_services_is_quoted_from_its_lead_in(hashing_services: Any) -> None:
    a = ask(hashing_services, "Ekspor jasa kena pajak ke luar negeri dikenai PPN berapa persen?", user=None)
    assert a.status == "answered"
    lead = a.claims[0]
    assert "0% (nol persen)" in lead.quote and "ekspor" in lead.quote.lower()
    assert "tarifnya 0%" in a.answer and "[1]" in a.answer
    _assert_gates(hashing_services, a)


def test_general_vat_question_is_not_led_by_the_export_rate(hashing_services: Any) -> None:
    a = ask(hashing_services, "Sekarang PPN berapa persen untuk barang kena pajak?", user=None)
    assert a.status == "answered"
    assert "12% (dua belas persen)" in a.claims[0].quote
    assert "tarifnya 12%" in a.answer
    shown = render_terminal(a)
    assert "**" not in shown and shown.count("berdasarkan sumber per") == 1
    _assert_gates(hashing_services, a)


def test_a_straddled_period_gets_one_sentence_per_side(hashing_services: Any) -> None:
    import dataclasses

    svc = hashing_services
    old = claim(svc, "uu-42-2009", "Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen)")
    new = claim(svc, "uu-7-2021", "a. sebesar 11% (sebelas persen) yang mulai berlaku")
    old = dataclasses.replace(old, applies="2022-01-01..2022-03-31")
    new = dataclasses.replace(new, applies="2022-04-01..2022-12-31")
    line = answer_line([old, new], "id", "Berapa tarif PPN sepanjang 2022?")
    assert line == (
        "Untuk 2022-01-01 – 2022-03-31: menurut UU 42/2009, tarifnya 10% [1]. "
        "Untuk 2022-04-01 – 2022-12-31: menurut UU 7/2021, tarifnya 11% [2]."
    )


def test_when_the_lead_does_not_state_the_rate_the_claim_that_does_answers(hashing_services: Any) -> None:
    svc = hashing_services
    scope = claim(
        svc, "pp-23-2018", "Atas penghasilan dari usaha yang diterima atau diperoleh Wajib Pajak dalam negeri"
    )
    rate = claim(svc, "pp-23-2018", "(nol koma lima persen)", at="Pasal 2")
    assert "persen" not in scope.quote
    line = answer_line([scope, rate], "id", "UMKM kena PPh final berapa persen?")
    # the source's OCR reads "0,57o (nol koma lima persen)": the figure is taken as the source spells it
    assert line.startswith("Menurut PP 23/2018, tarifnya ") and line.endswith(" [2].")
    assert "0,5%" in line or "nol koma lima persen" in line


def test_plain_vat_rate_question_is_led_by_the_law_not_a_special_base(hashing_services: Any) -> None:
    """PMK 11/2025's "10% dikali 11/12 dari tarif PPN" is a special base that presupposes the rate."""
    from bot.answer.extractive import only_unasked_regime_rates

    special = claim(hashing_services, "pmk-11-2025", "dikali 11/12")
    assert only_unasked_regime_rates("Berapa tarif PPN?", special.quote)
    assert not only_unasked_regime_rates("Berapa besaran tertentu PPN agen asuransi?", special.quote)
    a = ask(hashing_services, "Berapa tarif PPN?", user=None)
    assert a.status == "answered"
    assert a.claims[0].source.doc_id == "uu-7-2021" and "12% (dua belas persen)" in a.claims[0].quote
    assert a.answer.startswith("Menurut UU 7/2021, tarifnya 12% [1].")


def test_pasal_23_rate_question_is_not_answered_with_the_no_npwp_surcharge(hashing_services: Any) -> None:
    a = ask(hashing_services, "Berapa tarif PPh Pasal 23?", user=None)
    assert a.status == "answered"
    lead = a.claims[0]
    assert "Pasal 23 ayat (1)" in lead.source.location and "lebih tinggi" not in lead.quote
    assert "100%" not in a.answer.split("\n")[0]
    # the surcharge is still shown, as the condition it is, when the question names the missing NPWP
    b = ask(hashing_services, "Berapa tarif PPh Pasal 23 kalau vendor tidak punya NPWP?", user=None)
    assert any("lebih tinggi 100%" in c.quote for c in b.claims)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Apa isi Pasal 9?", "Pasal 9 dari undang-undang mana yang Anda maksud"),
        ("What does Pasal 7 ayat 1 say?", "Pasal 7 of which law do you mean"),
    ],
)
def test_a_bare_pasal_asks_which_law(hashing_services: Any, question: str, expected: str) -> None:
    a = ask(hashing_services, question, user=None)
    assert a.status == "clarify" and not a.claims
    [q] = a.clarifying_questions
    assert q.question.startswith(expected) and q.options == ("KUP", "PPN", "PPh")
