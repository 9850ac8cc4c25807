"""Clarify/scope rules, confidence and the extractive unit splitter: pure functions, no index."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.answer.clarify import check, load_topics, parse_topics
from bot.answer.confidence import ConfidenceConfig, band_of, combine
from bot.answer.errors import AnswerConfigError
from bot.answer.extractive import _narrow_dated, split_units
from bot.answer.scope import classify, parse_rules

PPN7 = (
    "Pasal 7\n(1) Tarif Pajak Pertambahan Nilai yaitu:\n"
    "a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;\n"
    "b. sebesar 12% (dua belas persen) yang mulai berlaku paling lambat pada tanggal 1 Januari2025."
)


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("tarif jasa berapa?", "withholding_rate_service"),
        ("Berapa potongan pajak untuk sewa?", "withholding_rate_rent"),
        ("Berapa tarif PPh?", "pph_type_missing"),
        ("Which rate applies to this vendor?", "vendor_facts_missing"),
        ("Dipotong berapa persen?", "rate_without_subject"),
        # Slack spellings read as the formal words the topics are written in
        ("pph brp utk sewa?", "withholding_rate_rent"),
        ("pph sewa berapa?", "withholding_rate_rent"),
        ("tarif pph nya brp ya min?", "pph_type_missing"),
        # a deadline of nothing named, a payment to "an individual" without saying what for
        ("deadline nya kapan?", "deadline_without_subject"),
        ("batas waktunya kapan?", "deadline_without_subject"),
        # being late, or worried to be, names no tax
        ("paling lambat kapan sih? khawatir terlambat", "deadline_without_subject"),
        ("tarifnya brp?", "rate_without_subject"),
        ("transfer ke orang pribadi 3 juta, dipotong pph berapa?", "payment_to_individual"),
        # the asker's own computation without its figures
        ("gaji saya dipotong pph berapa ya?", "personal_computation"),
        ("How much income tax do I owe this year?", "personal_computation"),
    ],
)
def test_ambiguous_questions_block(question: str, topic: str) -> None:
    result = check(question, has_date=False)
    assert result is not None and result.topic == topic and result.blocking


@pytest.mark.parametrize(
    "question",
    [
        "tarif PPh 23 jasa teknik",
        "Berapa tarif PPh 23 atas jasa?",
        "Ekspor jasa kena pajak dikenai tarif PPN berapa?",
        "Tarif PPh final UMKM tahun 2024 berapa?",
        "PPh 23 brp utk jasa teknik?",
        "Kapan jatuh tempo setor PPh 23?",
        "telat lapor SPT Masa PPN kena denda berapa?",
        "Berapa tarif PPh orang pribadi menurut Pasal 17?",
        "honor narasumber orang pribadi berapa pph nya?",
        "Penghasilan Kena Pajak orang pribadi sampai Rp60 juta dikenai tarif berapa?",
        # the turnover or the 0.5% names the small-business final tax
        "Omzet PT kami 3 miliar, boleh pakai tarif PPh final 0,5%? batasnya berapa?",
        # a payee abroad: PPh 26 takes 20% of the gross whatever the service, with or without an NPWP
        "Jasa dari perusahaan luar negeri tanpa BUT dipotong berapa persen?",
        "Which rate is withheld on services bought from a foreign vendor?",
        "withholding rate for consulting services from a non-resident with no PE?",
        # a rate the asker writes, a turnover in billions, a third party's case: no salary or PTKP to ask for
        "usaha saya sdh bayar pph final 0,5%, brp lama boleh dipakai?",
        "Tarifnya pph saya 2% itu sudah benar berapa?",
        "omzet usaha saya 2,1 M, pph nya berapa?",
        "klien saya toko kecil, pph nya dihitung berapa?",
        "How much tax does my client owe on its dividends?",
    ],
)
def test_specific_questions_are_not_clarified(question: str) -> None:
    result = check(question, has_date=True)
    assert result is None or not result.blocking


def test_named_pasal_is_never_clarified() -> None:
    assert check("tarif jasa berapa?", has_date=False, specific=True) is None


def test_clarifying_questions_follow_language_and_list_options() -> None:
    result = check("What is the withholding rate for services?", has_date=False)
    assert result is not None
    qs = result.questions("en")
    assert qs[0].slot == "service_type" and qs[0].question.startswith("Which service")
    assert "jasa teknik" in qs[0].options
    assert [q.slot for q in qs][1:] == ["counterparty_residency", "has_npwp", "transaction_date"]


def test_clarify_yaml_errors_name_the_entry() -> None:
    bad = {
        "topics": [
            {
                "id": "t1",
                "triggers": [["(unclosed"]],
                "slots": [],
                "reviewed_by": "x",
                "reviewed_on": "2026-01-01",
            }
        ]
    }
    with pytest.raises(AnswerConfigError, match=r"entry 't1'.*bad regular expression"):
        parse_topics(bad, "clarify.yaml")
    with pytest.raises(AnswerConfigError, match="must be reviewed"):
        parse_topics({"topics": [{"id": "t2", "triggers": [["x"]], "slots": []}]}, "clarify.yaml")
    slot = {"id": "s", "blocking": True, "question": {"id": "?", "en": "?"}, "filled_by": "date"}
    unknown_kind = {
        "id": "t3",
        "triggers": [["x"]],
        "unless_kinds": ["no_such_kind"],
        "slots": [slot],
        "reviewed_by": "x",
        "reviewed_on": "2026-01-01",
    }
    with pytest.raises(AnswerConfigError, match=r"entry 't3'.*unless_kinds.*no_such_kind"):
        parse_topics({"topics": [unknown_kind]}, "clarify.yaml")
    assert [t.id for t in load_topics()][:4] == [
        "personal_computation",
        "construction_rate",
        "withholding_rate_rent",
        "withholding_rate_service",
    ]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which method should we choose to pay less tax?", "advice"),
        ("Bagaimana caranya supaya PPh kita lebih kecil tahun ini?", "advice"),
        ("Apakah vendor software Singapura kami adalah pemilik manfaat (beneficial owner)?", "protected"),
        ("Can we apply the treaty rate? Please confirm the final position.", "protected"),
        # whether a particular person will be jailed is a judgement of that person's case (session 53); the
        # offence's sanction in general stays a rule question
        ("Bu Rina lupa setor PPN yang sudah dipungut, beliau bisa dipenjara gak?", "protected"),
        ("Our ex-director kept the withheld tax. Could he be prosecuted for that?", "protected"),
        ("Apa ancaman pidana bagi wajib pajak yang tidak menyetorkan pajak yang dipotong?", "in_scope"),
        ("How is the weather in Jakarta this afternoon?", "out_of_scope"),
        ("Berapa tarif PPN?", "in_scope"),
        # avoidance requests: hiding from the tax office, splitting under a threshold, the "best" structure
        ("Kalau tagihan 15 juta kita pecah jadi tiga invoice biar ga kena meterai, boleh?", "advice"),
        ("Omzet mau lewat 4,8 M, bisa gak usahanya dipecah ke dua CV supaya tetap di bawah batas?", "advice"),
        ("What's the best way to structure the royalty payments to our parent company?", "advice"),
        ("Can we book the boss's family trip as business travel so the tax office won't notice?", "advice"),
        ("Gimana caranya bayar bonus direksi tanpa ketahuan pajak?", "advice"),
        # ... and the rule questions that share their words stay questions
        ("Apakah transaksi yang dipecah tetap kena PPN?", "in_scope"),
        ("Invoice vendor bisa dipecah per termin pembayaran?", "in_scope"),
        ("Kapan batas waktu lapor SPT supaya tidak kena denda?", "in_scope"),
        ("Tarif bea meterai untuk kwitansi di bawah 5 juta berapa?", "in_scope"),
        # restructuring the asker would do is advice; a restructuring project a service is about is not
        ("How can we restructure our group so we pay less tax?", "advice"),
        ("Bagaimana sebaiknya restrukturisasi utang antar-perusahaan kita?", "advice"),
        ("Jasa konsultan untuk proyek restrukturisasi organisasi dipotong PPh 23 berapa?", "in_scope"),
        ("Is a fee for advising on a debt restructuring subject to PPh 23?", "in_scope"),
        # approving a scheme: backdating a document, an entity set up for a treaty rate
        ("Boleh ga kita minta vendor mundurin tanggal faktur ke bulan lalu?", "advice"),
        ("Can we ask the supplier to backdate the invoice to December?", "advice"),
        ("gmn caranya biar vendor ga kena potong PPh 23?", "advice"),
        # the same request in another chat spelling of "tidak" (session 46: "gk" slipped through)
        ("gmn caranya biar vendor gk kena potong PPh 23?", "advice"),
        ("bagaimana agar honor konsultan kami gk kena pph?", "advice"),
        ("Should we set up a company in the Netherlands so the royalties get the treaty rate?", "advice"),
        (
            "Kalau bayar bunga lewat anak usaha di Singapura biar dapat tarif P3B yang lebih rendah, aman?",
            "advice",
        ),
        ("Tanggal faktur pajak harus sama dengan tanggal penyerahan?", "in_scope"),
        ("What documents does a Dutch company need to use the treaty rate?", "in_scope"),
        # getting round a company control, a smaller tax or profit as the purpose, "nobody will find out"
        ("Tagihan 80 juta mau dipecah dua supaya tidak perlu persetujuan tax team, boleh?", "advice"),
        ("biar ga usah direview, invoice nya kita pisah aja?", "advice"),
        ("gimana supaya PPh badan tahun ini turun?", "advice"),
        ("Bisa ga biaya royalti dinaikkan biar laba anak usaha lebih kecil?", "advice"),
        ("kalau pakai tarif treaty dulu, DJP ga akan tau kan?", "advice"),
        ("We could split it into two invoices to avoid the tax team review, right?", "advice"),
        ("Apakah invoice di atas 50 juta harus direview tax team dulu?", "in_scope"),
        ("Kalau omzet turun, PPh final UMKM ikut turun?", "in_scope"),
        # a fee, a payment out of petty cash, a residence certificate are AP/tax topics
        ("honor moderator webinar 2jt boleh dibayar tunai?", "in_scope"),
        ("Can a certificate of residence replace the DGT form?", "in_scope"),
        # money kept back from a payment is a tax question even when no tax is named
        ("Our customer deducted 2% from the invoice amount, what is that deduction for?", "in_scope"),
        ("Kenapa ada potongan dari pencairan dana toko online kita di marketplace?", "in_scope"),
        # the topics of UU PPh's articles on taxable income name no tax word (session 41)
        ("perusahaan rugi 2 tahun berturut2, bisa dikompensasi ke laba tahun ini?", "in_scope"),
        ("mobil operasional disusutkan berapa tahun? penyusutannya pakai metode apa?", "in_scope"),
        ("Can last year's fiscal loss be carried forward?", "in_scope"),
        ("karyawan dapat natura berupa mess, dihitung sebagai penghasilan?", "in_scope"),
        # "WP" is how staff write Wajib Pajak (session 49)
        ("orang asing yang menetap setengah tahun di sini jadi WP sini ga?", "in_scope"),
    ],
)
def test_scope_classification(question: str, kind: str) -> None:
    assert classify(question, has_tax_signal=False).kind == kind


def test_scope_yaml_must_be_reviewed() -> None:
    with pytest.raises(AnswerConfigError, match="reviewed_by"):
        parse_rules({"in_scope": ["x"], "advice": ["y"], "protected": ["z"]}, "scope.yaml")


def test_confidence_weights_bands_and_judge_cap() -> None:
    # contract level (the weights are fitted elsewhere): the band follows the score, an answer nobody
    # judged is never high, weak signals are low, and more support never lowers the score
    cfg = ConfidenceConfig()
    c = combine(1.0, 1.0, 1.0)
    assert c.band == band_of(c.score, cfg) and c.band != "low"
    assert combine(None, 1.0, 1.0).band != "high"
    assert combine(0.2, 0.2, 0.2).band == "low"
    assert combine(1.0, 0.5, 0.8).score <= combine(1.0, 1.0, 0.8).score
    assert combine(1.0, 0.8, 0.5).score <= combine(1.0, 0.8, 1.0).score


def test_split_units_labels_items_and_narrows_dated_items() -> None:
    units = split_units(PPN7)
    assert [u.quote for u in units] == [
        "a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;",
        "b. sebesar 12% (dua belas persen) yang mulai berlaku paling lambat pada tanggal 1 Januari2025.",
    ]
    assert units[0].text.startswith("Tarif Pajak Pertambahan Nilai yaitu: a. sebesar 11%")
    assert [u.date for u in units] == [dt.date(2022, 4, 1), dt.date(2025, 1, 1)]
    assert [u.quote[:2] for u in _narrow_dated(units, dt.date(2022, 5, 1))] == ["a."]
    assert [u.quote[:2] for u in _narrow_dated(units, dt.date(2026, 1, 1))] == ["b."]


def test_split_units_table_rows_get_header_labels() -> None:
    table = "| Jenis | Pasal PPh | Tarif |\n|---|---|---|\n| Jasa teknik | PPh 23 | 2% |"
    (unit,) = split_units(table)
    assert unit.quote == "| Jasa teknik | PPh 23 | 2% |"
    assert unit.text == "Jenis: Jasa teknik; Pasal PPh: PPh 23; Tarif: 2%"
