"""The embedded default composer: builds the answer from verbatim text of the best passages, no LLM.

Every claim it drafts is a unit of a retrieved chunk -- an ayat, a list item, a sentence, a table
row -- so the quote gate and the number gate pass by construction and the answer reads like the
regulation.  Order of claims (what a tax reader expects):

1. the *direct* answer: the best-ranked relevant chunk that states a rate or obligation (cue words
   ``tarif``, ``sebesar``, ``%``, ``wajib``, ``paling lama``, ``dikenai``, ``rate``, ``must`` ...);
2. conditions and exceptions from the same Pasal (other hits sharing the lead's parent);
3. other relevant hits (company policy keeps its own layer);
4. definitions the lead uses (graph context ``graph:uses_definition``).

Dated list items ("a. sebesar 11% ... mulai berlaku pada tanggal 1 April 2022; b. sebesar 12% ...")
are narrowed to the item in effect on the as-of date.  Text that looks like instructions (a planted
"abaikan instruksi sebelumnya") is never quoted.  Units already covered by an earlier quote are
dropped, so no text is repeated.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from bot.answer.conflicts import mentioned_taxes
from bot.answer.protocol import ComposedAnswer, ComposeRequest, DraftClaim, Layer, Role
from guardrails.injection import scan_injection
from guardrails.verify import extract_figures, normalize_ws
from guardrails.verify.numbers import FigureKey, provided_keys
from kb import lexical, lexicon
from kb.amounts import spelled_formally
from kb.brackets import ASKS_CATEGORY, bracket_rows, classes_named, row_holding
from kb.chunking.regulation import AYAT_OPENING, defined_terms
from kb.dates import MONTH_PATTERN, MONTHS, parse_indonesian_date
from kb.lexical import EN_ONLY, Concept, coverage
from kb.model import DocumentMeta, Hit
from kb.ptkp import PTKP_ITEMS, ptkp_items_taken, status_patterns
from kb.query import (
    FRAME_WORDS,
    STOPWORDS,
    UU_PPH,
    article_tax_type,
    asks_definition,
    chunk_tax_name,
    detect_language,
    tokenize,
    understand,
)
from kb.refs import key_from_doc_id
from kb.retrieve import asked_term_words, heads_asked_term, is_general_elucidation

#: Words that make a unit state a rate or an obligation (lead candidates): kb/data/lexicon.yaml
#: ``passage_cues.rule``.
CUE = lexicon.passage_cue("rule")
# What a question asks is data: the word patterns live in kb/data/lexicon.yaml (``question_kinds``, with why
# each exists and where it came from), compiled once by kb.lexicon.
#: the question names a rate ("tarif", "%", "berapa bea meterai ...?", "how much is the stamp duty ...?")
RATE_QUESTION = lexicon.question_kind("rate")
#: A question that names a rate but asks for something else: the conditions or documents for a treaty rate,
#: the procedure, how to do it ("apa syarat ... tarif tax treaty?" asks for requirements, not "20%").
ASKS_OTHER_THAN_RATE = lexicon.question_kind("other_than_rate")
#: ... unless it asks the amount outright ("berapa tarif", "what rate")
ASKS_RATE_OUTRIGHT = lexicon.question_kind("rate_outright")
#: a percentage figure ("2%", "0,5 %"), whole number included
PERCENT = re.compile(r"\d+(?:[.,]\d+)?\s*%")
#: a rate stated as a fixed amount ("tarif tetap sebesar Rp10.000,00": Bea Meterai; see :func:`states_rate`)
_RATE_AMOUNT = re.compile(r"\btarif\b[^.;]{0,60}?\bRp\s?\d", re.I)
#: a percentage that is a threshold, a share or a formula's term, not a rate: listed shares "paling
#: sedikit 40% (empat puluh persen)" or "paling rendah 40%" (PP 55/2022 Pasal 65; "tarifnya 40%" answered a
#: probe of our own in session 50), dividends invested "lebih dari 30% (tiga puluh persen) dari jumlah
#: laba setelah pajak", a reduction ("3% lebih rendah dari tarif"), the rate of a customs duty ("dikenakan
#: tarif bea masuk sebesar 0%"), not the tax asked about, a price formula ("T/(100%+T)"), or a share of the
#: output tax ("80% ... dari Pajak Keluaran").  An outside tester got "tarifnya 40%" for a dividend question
#: and "tarifnya 0%" for PPh 22 on imports.
NOT_A_RATE = re.compile(
    r"(?:paling\s+sedikit|paling\s+rendah|sekurang-kurangnya|lebih\s+dari|kurang\s+dari|melebihi|minimal|at\s+least"
    r"|more\s+than"
    r"|less\s+than|exceeding)\s+(?:sebesar\s+)?(?P<threshold>\d+(?:[.,]\d+)?\s*%)"
    r"|(?P<share>\d+(?:[.,]\d+)?\s*%)(?:\s*\([a-z\s]+\))?\s+(?:dari\s+)?(?:jumlah\s+)?(?:keseluruhan\s+)?"
    r"(?:saham|modal\s+disetor|laba\s+setelah|hak\s+suara"
    # a share of the output or input tax ("pedoman pengkreditan Pajak Masukan sebesar 80% (delapan puluh
    # persen) dari Pajak Keluaran", UU PPN Pasal 9 ayat (9a)): a credit, read as "tarifnya 80%" for a question
    # whether input tax before registration may be credited (session 60, a probe of our own)
    r"|pajak\s+(?:keluaran|masukan))"
    r"|\bbea\s+(?:masuk|keluar)\s+(?:\w+\s+){0,2}(?P<duty>\d+(?:[.,]\d+)?\s*%)"
    # a reduction of a rate ("tarif sebesar 3% (tiga persen) lebih rendah dari tarif ..."), not the rate
    r"|(?P<reduction>\d+(?:[.,]\d+)?\s*%)(?:\s*\([a-z\s]+\))?\s+lebih\s+rendah"
    # a term of a formula ("formula T/(100%+T) dari harga": the tax inside a price), not a rate
    r"|(?P<formula>\d+(?:[.,]\d+)?\s*%)(?=\s*\+)",
    re.I,
)


def not_rate_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` states a percentage that is no rate (:data:`NOT_A_RATE`)."""
    groups = ("threshold", "share", "duty", "reduction", "formula")
    return [m.span(g) for m in NOT_A_RATE.finditer(text) for g in groups if m.group(g)]


def states_rate(text: str) -> bool:
    """The text states a rate: a percentage that is not a threshold, a share or a customs duty, or a fixed
    amount called a rate ("tarif tetap sebesar Rp10.000,00")."""
    spans = not_rate_spans(text)
    for m in PERCENT.finditer(text):
        if not any(lo <= m.start() < hi for lo, hi in spans):
            return True
    return bool(_RATE_AMOUNT.search(text))


#: a percentage that is a sanction ("sanksi administratif berupa kenaikan sebesar 100% (seratus persen)"),
#: not a tax rate
SANCTION_RATE = re.compile(
    r"\b(?:sanksi|denda|kenaikan|bunga)\b[^.;]{0,80}?\d+(?:[.,]\d+)?\s*%(?:\s*\([a-z\s]+\))?", re.I
)
#: the question asks about a sanction (then a sanction percentage is what it asks)
ASKS_SANCTION = lexicon.question_kind("sanction")
#: Words that make a unit state an exception: kb/data/lexicon.yaml ``passage_cues.exception``.
EXCEPTION = lexicon.passage_cue("exception")

#: What a question asks for (the fact the leading quote must contain): a deadline.
ASK_DEADLINE = lexicon.question_kind("deadline")
#: a length of time written out in ``units`` ("3 (tiga) bulan", "10 (sepuluh) tahun"); "1 (satu) Tahun Pajak"
#: is a tax year, not a length of time, but several of them are one ("paling lama: a. 7 (tujuh) Tahun Pajak
#: bagi Wajib Pajak orang pribadi", PP 55/2022 Pasal 59: how long a facility lasts)
PERIOD_OF = (
    r"(?:\d+\s*\([a-z\s]+\)\s*(?:{units})\b(?!\s+(?:pajak|takwim|kalender))"
    r"|(?:[2-9]|\d\d+)\s*\([a-z\s]+\)\s*(?:{units})\s+(?:pajak|takwim|kalender)\b)"
)
PERIOD_TEXT = PERIOD_OF.format(units="hari|minggu|bulan|tahun")
DEADLINE = re.compile(
    rf"paling\s+(?:lama|lambat)|tanggal\s+\d{{1,2}}\b|{PERIOD_TEXT}"
    r"|\bjangka\s+waktu\s+\d|\bbatas\s+waktu|\bdue\b|\bdeadline",
    re.I,
)
#: A deadline with its time: "paling lama 4 (empat) bulan", "tanggal 15", "3 (tiga) bulan", "due by the 15th".
#: The bare words "batas waktu" / "deadline" name a time limit without stating one ("tidak ada ketentuan
#: batas waktu penyampaian Surat Pemberitahuan Tahunan" states none): a lead candidate that only names it
#: does not state what a deadline question asks.
DEADLINE_VALUE = re.compile(
    rf"paling\s+(?:lama|lambat)|tanggal\s+\d{{1,2}}\b|{PERIOD_TEXT}|\bjangka\s+waktu\s+\d"
    # the older acts' "at the latest": "b. Untuk Surat Pemberitahuan Tahunan, selambat-lambatnya tiga bulan
    # setelah akhir Tahun Pajak" (UU 6/1983 Pasal 3 ayat (3), its number in words; session 70, a probe of
    # our own was led by an elucidation restating it, the rule itself read as stating no time)
    r"|\bselambat-\s*lambatnya\b"
    r"|\b(?:batas\s+waktu|due|deadline)\b[^.;|]{0,60}?\d"
    # the moment a tax falls due, stated by its event: "Bea Meterai terutang pada saat: a. Dokumen dibubuhi
    # Tanda Tangan", "Terutangnya pajak terjadi pada saat: a. penyerahan Barang Kena Pajak" (what "kapan
    # ... terutang?" asks; session 43)
    r"|\bterutang(?:nya)?\b[^.;|]{0,40}?\bpada\s+saat\b"
    # ... and the moment a duty is done at: "Faktur Pajak ... harus dibuat pada: a. saat penyerahan", "wajib
    # dibuat oleh Pengusaha Kena Pajak pada saat penyerahan" (what "when must ... be issued?" asks; session
    # 61, a probe of our own was answered with the 3-month limit on a late invoice)
    r"|\b(?:harus|wajib)\s+(?:[a-z]+\s+){1,6}?pada\s*:?\s*(?:[a-z]\.\s*)?saat\b"
    # ... and the day a rule starts to hold: "Sejak 1 Juli 2024 layanan administrasi perpajakan menggunakan
    # NPWP format 16 digit" states when, as "NPWP 16 digit mulai dipakai kapan?" asks (session 68, a probe of
    # our own; it is still led by a deadline for matching an employee's NIK beside it)
    rf"|\b(?:sejak|mulai)\s+(?:(?:berlaku|tanggal|tgl)\s+)*\d{{1,2}}\s+(?:{MONTH_PATTERN})\s+\d{{4}}\b",
    re.I,
)
#: Any word of time (a date, a period, a moment, a month's name): a lead without one cannot state what "kapan
#: ...?" asks (:func:`misses_asked`; kb/data/lexicon.yaml ``passage_cues.names_time`` and kb.dates.MONTHS)
NAMES_TIME = re.compile(rf"{lexicon.passage_cue('names_time').pattern}|\b(?:{MONTH_PATTERN})\b", re.I)
#: A time limit asked ("paling lambat", "batas waktu setor") and a limit, date or moment a passage names:
#: kb/data/lexicon.yaml ``question_kinds.time_limit`` and ``passage_cues.names_limit``
TIME_LIMIT = lexicon.question_kind("time_limit")
NAMES_LIMIT = lexicon.passage_cue("names_limit")
#: A criminal sentence: "dipidana dengan pidana penjara paling lama 3 (tiga) tahun", "pidana kurungan paling
#: singkat 6 (enam) bulan dan paling lama 6 (enam) tahun" (OCR writes "pidaha" and page numbers inside it).
#: It states how long a convict is imprisoned, never a time limit an asker must keep: "kapan bea meterai
#: terutang?" was answered "batas waktunya paling lama 3 (tiga) tahun" from UU Bea Meterai's penal Pasal 26.
CRIMINAL_TERM = re.compile(
    r"\bpida[nh]a\s+(?:penjara|kurungan)\b[^.;:]{0,12}?"
    r"(?:\s*(?:dan\s+)?paling\s+(?:lama|singkat)\s+(?:\d+\s+)?\d+\s*\([a-z\s]+\)\s*(?:hari|minggu|bulan|tahun))+",
    re.I,
)

#: An age: "telah berusia 21 (dua puluh satu) tahun", "berumur paling rendah 18 tahun".  It says who a rule is
#: for, never when an act is due: "Kapan batas waktu pembayaran PPh Pasal 25?" was led by UU PPh Pasal 25 ayat
#: (8) (a resident of 21 leaving the country) as if it stated a time limit (session 56, a probe of our own).
AGE = re.compile(
    r"\b(?:berusia|berumur|usia|umur)\b[^.;:]{0,30}?\d+\s*(?:\([a-z\s]+\)\s*)?tahun\b",
    re.I,
)


def time_limits_of(text: str) -> str:
    """``text`` with its criminal sentences and ages blanked (same length: spans found in it are spans of
    ``text``)."""
    blank = CRIMINAL_TERM.sub(lambda m: " " * len(m.group(0)), text)
    return AGE.sub(lambda m: " " * len(m.group(0)), blank)


#: Units that never lead: elucidation padding, transitional and procedural lead-ins, headings.
#: the opening of a transitional clause: "Pada saat Peraturan Menteri ini mulai berlaku"
TRANSITIONAL = r"pada\s+saat\s+(?:undang-undang|peraturan|[a-z ]{0,40})\s*ini\s+mulai\s+berlaku\s*"
#: an elucidation's "Cukup jelas." (its ayat mark allowed): says nothing, never a lead nor a list's opener
CUKUP_JELAS = re.compile(r"(?:\(\d+[a-z]?\)\s*)?cukup\s+jelas\.?", re.I)
PADDING = re.compile(
    r"^\s*(?:\(\d+[a-z]?\)\s*)?(?:cukup\s+jelas\.?\s*$"
    rf"|{TRANSITIONAL}[,:]?\s*$"
    r"|ketentuan\s+(?:dalam\s+)?pasal\s+[^.]{0,80}\s+diubah(?:\s+sehingga)?\s+berbunyi\s+sebagai\s+berikut\s*:?\s*$"
    r"|di\s*antara\s+pasal\s+[^.]{0,80}disisipkan"
    # an amending act's instructions on its chapters ("4. Menambah BAB baru di antara BAB II ...", "Judul
    # Bab III diubah ...") and its opening ("Mengubah beberapa ketentuan dalam Undang-undang ... sebagai
    # berikut:")
    r"|(?:\d{1,3}\.\s*)?(?:menambah\s+bab\s+baru|judul\s+bab\s+[ivx]+[a-z]?\s*,?\s+diubah)"
    r"|(?:pasal\s+i\s+)?mengubah\s+beberapa\s+ketentuan\b[^:]{0,300}sebagai\s+berikut\s*:?\s*$)",
    re.I,
)
EXAMPLE_TEXT = re.compile(r"^\s*(?:contoh|misalnya|ilustrasi|example)\b", re.I)
#: a regulation's scope clause and its items ("Lingkup pengaturan dalam Peraturan Pemerintah ini meliputi: a.
#: Impor dan/atau Penyerahan Barang Kena Pajak tertentu ... yang dibebaskan ..."): it lists what the act is
#: about and states no rule.  PP 49/2022 Pasal 2 led "Apakah jasa catering kena PPN?" (session 60, a probe of
#: our own).  A company policy's "Ruang Lingkup" section says which entities and dates it binds: not this.
SCOPE_CLAUSE = re.compile(
    r"^\s*(?:pasal\s+\d+[a-z]?\s+)?(?:ruang\s+)?lingkup(?:\s+pengaturan)?\s+dalam\s+(?:peraturan|undang-undang)"
    r"\b[^.:]{0,80}?\bini\s+(?:meliputi|terdiri\s+atas|mencakup)",
    re.I | re.M,
)
#: The placeholder parties of a worked example ("PT A", "Tuan D", "Nyonya B", and the lettered names of the
#: PMK attachments: "PT FQ", "Tuan WY", "Nyonya NLG"): a rule never names them.  A company is named by one
#: or two capitals only in an example; three capitals may be the company's own abbreviation in its policies
#: ("PT SNR"), so a person's initials count up to three, a company's up to two (and up to three in a
#: regulation: :data:`REGULATION_PLACEHOLDER`).
HYPOTHETICAL_PARTY = re.compile(
    r"\b(?:(?:PT|CV)\.?\s+[A-Z]{1,2}|(?:Tuan|Nyonya|Nona|Sdr|Bapak|Ibu)\.?\s+[A-Z]{1,3})\b(?![.\w])"
)
#: a company named by three capitals in a regulation ("PT ABC", "CV ISL"): a law names no company, so it is
#: an example's placeholder
REGULATION_PLACEHOLDER = re.compile(r"\b(?:PT|CV)\.?\s+[A-Z]{3}\b(?![.\w])")
#: a row of a month-by-month computation ("Juli 8.000.000 1,50% 120.000 ..."): a Lampiran that holds three
#: such rows works one employee's case through a year, it states no rule (the PTKP of its case is no answer
#: to "PTKP setahun berapa?", UU PPh Pasal 7 ayat (1) is)
_MONTH_ROW = re.compile(
    r"\b(?:Januari|Februari|Pebruari|Maret|April|Mei|Juni|Juli|Agustus|September|Oktober|November|Desember)"
    r"\s+(?:Rp\s*)?\d{1,3}(?:\.\d{3})+\b"
)

#: How a passage states that it is about an object a question can name (the question side -- how the question
#: names it -- is data: kb/data/lexicon.yaml ``question_objects``).  The provision whose scope is the named
#: object leads, not a general rule that mentions it only in an exclusion ("kecuali sewa ... yang telah
#: dikenai Pajak Penghasilan sebagaimana dimaksud dalam Pasal 4 ayat (2)").
_OBJECTS_IN_PASSAGE: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "land_building_rent",
        re.compile(
            r"(?:sewa|persewaan)\w*\s+(?:\w+\s+){0,3}(?:tanah|bangunan)|tanah\s+dan/atau\s+bangunan",
            re.I,
        ),
    ),
    ("construction", re.compile(r"konstruksi", re.I)),
    # a lottery prize: a final tax of UU PPh Pasal 4 ayat (2) huruf b, set by its own rule
    ("lottery_prize", re.compile(r"hadiah\s+undian", re.I)),
    # severance pay: taxed finally at the rates of its own regulation (UU PPh Pasal 21 delegates them)
    ("severance", re.compile(r"pesangon", re.I)),
    # interest on deposits and savings, and share sales on the stock exchange: final taxes of UU PPh Pasal 4
    # ayat (2) whose rates their own regulations set
    (
        "deposit_interest",
        re.compile(r"bunga\s+deposito|dari\s+deposito|bunga\s+tabungan|deposit\s+interest", re.I),
    ),
    ("stock_exchange_sale", re.compile(r"saham\b[^.;]{0,60}?\bbursa\b|\bstock\s+exchange\b", re.I)),
    # a tax treaty (P3B): the rate for a payee abroad that each treaty sets
    (
        "treaty_rate",
        re.compile(r"persetujuan\s+penghindaran\s+pajak\s+berganda|\bP3B\b|\btax\s+treaty", re.I),
    ),
    (
        "no_npwp",
        re.compile(
            r"tidak\s+(?:memiliki|mempunyai)\s+(?:Nomor\s+Pokok\s+Wajib\s+Pajak|NPWP)|NO-NPWP|tanpa\s+NPWP"
            r"|tidak\s+dapat\s+menunjukkan\s+NPWP",
            re.I,
        ),
    ),
    # an importer without an API: "barang ... yang tidak menggunakan angka pengenal impor, sebesar 7,5%"
    ("no_api", re.compile(r"tidak\s+menggunakan\s+angka\s+pengenal\s+impor", re.I)),
    (
        # a payment to a bank: PPh 23 ayat (4) huruf a leaves it out ("tidak dilakukan atas: a. penghasilan
        # yang dibayar atau terutang kepada bank"); the rate of ayat (1) does not answer it
        "paid_to_bank",
        re.compile(r"kepada\s+bank\b", re.I),
    ),
    (
        # a payee abroad: PPh 26 ("Wajib Pajak luar negeri selain bentuk usaha tetap"), not PPh 23's "Wajib
        # Pajak dalam negeri"
        "foreign_payee",
        re.compile(r"(?:wajib\s+pajak|vendor|penerima|subjek\s+pajak)\s+luar\s+negeri|Pasal\s+26\b", re.I),
    ),
    # a company by its legal form: "Wajib Pajak badan berbentuk perseroan terbatas"
    ("limited_company", re.compile(r"perseroan\s+terbatas", re.I)),
    ("partnership", re.compile(r"persekutuan\s+komanditer|\bfirma\b", re.I)),
    # an income by its kind: the rule naming it ("a. dividen;", "royalti atau imbalan sehubungan dengan ...")
    ("dividend", re.compile(r"\bdividen", re.I)),
    ("royalty", re.compile(r"\broyalti", re.I)),
)
#: (name, how a question names the object, how a passage is about it)
QUESTION_OBJECTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (name, lexicon.question_object(name), about) for name, about in _OBJECTS_IN_PASSAGE
)
#: the surcharge for a payee without an NPWP ("lebih tinggi 100% daripada tarif", "100% lebih tinggi")
_SURCHARGE = re.compile(r"lebih\s+tinggi\s+\d+\s*%|\d+\s*%\s*(?:\([^)]{0,40}\)\s*)?lebih\s+tinggi", re.I)
#: Special regimes a question that does not name them should not be answered with: a general PPN question
#: is not answered with the 0% rate for exports.  These patterns match the regime's own rate statement in a
#: passage, not an incidental mention in a list ("jasa teknik, jasa konstruksi, ..."); how a question names
#: the regime is data (kb/data/lexicon.yaml ``special_regimes``).
_REGIMES_IN_PASSAGE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("export", re.compile(r"\b0\s*%[^;]{0,200}?\bekspor\b|\bekspor\b[^;]{0,100}?\b0\s*%", re.I)),
    (
        # a percentage *of the tax rate* ("10% dikali 11/12 dari tarif PPN"): a special base that
        # presupposes the general rate, so it never answers a plain "what is the rate?"
        "derived_rate",
        re.compile(r"\d\s*%\s*(?:\([^)]{0,40}\)\s*)?dikali\b|\d\s*%[^.;]{0,60}?\bdari\s+tarif\b", re.I),
    ),
    (
        # the surcharge for a payee without an NPWP ("lebih tinggi 100% daripada tarif"): a rate on top
        # of the rule's rate, never the rate a plain question asks for
        "no_npwp_surcharge",
        _SURCHARGE,
    ),
    (
        # the rate for dividends an individual receives (UU PPh Pasal 17 ayat (2c)), not the income rate
        "dividend",
        re.compile(r"\bpenghasilan\s+berupa\s+dividen\b[^.;]{0,160}?\d\s*%", re.I),
    ),
)
#: the regimes that are another income's rate, not a condition on the asked one (a sibling ayat stating only
#: such a rate is left out of the answer)
_OTHER_CASES = frozenset({"dividend"})
#: (name, how a question names the regime, how a passage states its rate)
_SPECIAL_REGIMES: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (name, lexicon.special_regime(name), about) for name, about in _REGIMES_IN_PASSAGE
)
_NEGATED_BEFORE = re.compile(r"(?:kecuali|selain|tidak\s+termasuk|except|other\s+than)\b[^.;|]{0,80}$", re.I)


#: "berapa ...?" / "how much ...?" that asks neither a rate nor a period asks an amount ("berapa bea meterai
#: untuk perjanjian?", "berapa PTKP ...?", "berapa denda ...?")
ASK_AMOUNT = lexicon.question_kind("amount")
#: "berapa juta?", "sampai berapa rupiah?": an amount asked outright, also beside a rate the question states
ASK_AMOUNT_OUTRIGHT = lexicon.question_kind("amount_outright")


def asked_fact(question: str) -> str | None:
    """What the question asks: ``deadline``, ``rate``, ``amount`` or None (a definition, obligation, ...).

    The question is read as the rules are written (:func:`kb.lexicon.plain_question`): "brp lama" asks a
    period and "tarifnya brp?" a rate, as "berapa lama" and "tarif berapa?" do."""
    question = lexicon.plain_question(question)
    if ASK_DEADLINE.search(question):
        return "deadline"
    if ASK_AMOUNT_OUTRIGHT.search(question):
        return "amount"
    if lexical.limited_word(question) is not None:
        # "batas omzet UMKM utk PPh final brp?" asks the turnover bound, not the rate its regime names
        return "amount"
    if asks_rate(question):
        return "rate"
    if ASK_AMOUNT.search(question) and not ASKS_OTHER_THAN_RATE.search(question):
        return "amount"
    return None


#: a percentage stated as a rule's threshold ("kurang dari 75%"): kb/data/lexicon.yaml
#: ``question_kinds.threshold``
THRESHOLD = lexicon.question_kind("threshold")


def asks_rate(question: str) -> bool:
    """The question asks for a rate: it names one and does not ask for the conditions or procedure of it.  A
    percentage the question states as a threshold ("kurang dari 75% dari ...") names no rate."""
    question = THRESHOLD.sub(" ", lexicon.plain_question(question))
    if not RATE_QUESTION.search(question):
        return False
    return not ASKS_OTHER_THAN_RATE.search(question) or bool(ASKS_RATE_OUTRIGHT.search(question))


#: a rate the question states to name a regime ("pakai tarif 0,5%", "PPh final 0,5%"): a fact of the case
STATED_RATE = re.compile(r"(?:\btarif\s+(?:nya\s+)?)?\d+(?:[.,]\d+)?\s*(?:%|persen\b)", re.I)
#: the question asks whether what it states is right ("tarif 0,5% itu benar?"): kb/data/lexicon.yaml
#: ``question_kinds.confirm_outright``
ASKS_CONFIRM = lexicon.question_kind("confirm_outright")


def asked_facts(question: str) -> tuple[str, ...]:
    """Every kind of fact a multi-part question asks, in order ("berapa tarif ... dan kapan ...").

    A rate the question only states while it asks a time limit ("boleh pakai tarif 0,5% sampai berapa
    tahun?") names the regime the period is about; it is no second ask unless the question asks to confirm
    it."""
    question = THRESHOLD.sub(" ", lexicon.plain_question(question))
    found = []
    for kind, pattern in (("rate", RATE_QUESTION), ("deadline", ASK_DEADLINE)):
        m = pattern.search(question)
        if m and (kind != "rate" or asks_rate(question)):
            found.append((m.start(), kind))
    kinds = [kind for _, kind in sorted(found)]
    if (
        "rate" in kinds
        and "deadline" in kinds
        and not asks_rate(STATED_RATE.sub(" ", question))
        and not ASKS_CONFIRM.search(question)
    ):
        kinds.remove("rate")
    return tuple(kinds)


#: figure kinds a question states as facts of its case that the governing rule states too ("7 tahun",
#: "183 days", "0.5%", "Rp4,8 miliar"); dates and bare numbers describe the case, not the rule
_RULE_FIGURES = frozenset({"percent", "duration", "amount"})


@functools.lru_cache(maxsize=256)  # asked once per candidate passage and unit of one question
def _rule_figures(question: str) -> tuple[tuple[frozenset[FigureKey], str | None], ...]:
    """The question's rule-like figures, each as the keys that back it and the side of a bound the question
    places it on (:func:`bound_before`; None when it places it on none).  Its amounts are read in their chat
    forms too ("4,8 M", "15k": :func:`kb.amounts.spelled_formally`), as the act's "Rp4.800.000.000,00"."""
    text = spelled_formally(question, detect_language(question))
    return tuple((keys, side) for kind, keys, side in bounded_figures(text) if kind in _RULE_FIGURES)


#: the question asks a limit (kb/data/lexicon.yaml ``question_kinds.asks_limit``): a bound is then the answer
ASKS_LIMIT = lexicon.question_kind("asks_limit")
#: the question asks whether a cost is deductible (kb/data/lexicon.yaml ``question_kinds.asks_deduction``)
ASKS_DEDUCTION = lexicon.question_kind("asks_deduction")
#: a question asking who owes or pays a levy, and a rule naming that party ("terutang oleh pihak yang ...")
ASKS_LIABLE = lexicon.question_kind("asks_liable")
NAMES_LIABLE = lexicon.passage_cue("names_liable")


@functools.lru_cache(maxsize=256)  # asked per candidate lead, per unit and per answer line of a question
def asks_liable(question: str) -> bool:
    """The question asks who owes, bears, pays or withholds a levy (:data:`ASKS_LIABLE`, read as the rules
    are written: :func:`kb.lexicon.plain_question`)."""
    return bool(ASKS_LIABLE.search(lexicon.plain_question(question)))


#: a question asking what is not taxed or exempt, and a rule excluding from a levy ("tidak dikenakan atas")
ASKS_EXEMPTION = lexicon.question_kind("asks_exemption")
STATES_EXEMPTION = lexicon.passage_cue("states_exemption")
ASKS_CHARGED = lexicon.question_kind("asks_charged")
#: ... and whether one thing is ("Apakah ekspor barang dikenai PPN?"): the charging rule answers only when it
#: names the thing (every concept of the question)
ASKS_WHETHER_CHARGED = lexicon.question_kind("asks_whether_charged")
STATES_CHARGE = lexicon.passage_cue("states_charge")


@functools.lru_cache(maxsize=256)  # asked per candidate lead and per hit's units of a question
def charge_asked(question: str) -> str | None:
    """``"what"`` when the question asks what a levy is charged on (:data:`ASKS_CHARGED`), ``"whether"``
    when it asks whether one thing is (:data:`ASKS_WHETHER_CHARGED`), else None: read once per question, not
    per candidate and unit."""
    plain = lexicon.plain_question(question)
    if ASKS_CHARGED.search(plain):
        return "what"
    return "whether" if ASKS_WHETHER_CHARGED.search(plain) else None


#: a rule returning an excess, and a question asking about one (kb/data/lexicon.yaml
#: ``passage_cues.refunds_excess``, ``question_kinds.asks_refund``)
REFUNDS_EXCESS = lexicon.passage_cue("refunds_excess")
ASKS_REFUND = lexicon.question_kind("asks_refund")


def sets_amount(text: str) -> bool:
    """The text states a rupiah amount that is no condition's bound: "tarif tetap sebesar Rp10.000,00" sets
    one, "nilai nominal lebih dari Rp5.000.000,00" bounds a case (session 49, a stamp-duty probe of our own
    was led by the bound)."""
    figures = [(keys, side) for kind, keys, side in bounded_figures(text) if kind == "amount"]
    bounds = frozenset().union(*(keys for keys, side in figures if side is not None))
    # the words after a figure ("(lima juta rupiah)") name the same amount: a bound too
    return any(side is None and not (keys & bounds) for keys, side in figures)


@functools.lru_cache(maxsize=1024)  # a passage is read by bound_side and bound_near, per hit and per unit
def bounded_figures(text: str) -> tuple[tuple[str, frozenset[FigureKey], str | None], ...]:
    """Every figure of ``text`` as its kind, its keys and the side of the bound it is (:func:`bound_before`;
    None when it is no condition's bound)."""
    return tuple(
        (f.kind, frozenset(f.keys), bound[1] if (bound := bound_before(text, f.start)) is not None else None)
        for f in extract_figures(text)
    )


def question_figures(question: str) -> tuple[frozenset[FigureKey], ...]:
    """The question's rule-like figures, each as the keys that back it (:func:`_rule_figures`)."""
    return tuple(keys for keys, _ in _rule_figures(question))


def figure_match(figures: tuple[frozenset[FigureKey], ...], text: str) -> float:
    """Share of the question's figures the text states ("7 tahun" ~ "7 (tujuh) Tahun Pajak"): the threshold,
    period or rate a questioner quotes is written in the provision that sets it."""
    if not figures:
        return 0.0
    provided = provided_keys(text)
    return sum(1 for keys in figures if keys & provided) / len(figures)


#: the words that make the figure after them a condition's bound ("nilai nominal lebih dari Rp5.000.000,00",
#: "tidak lebih dari 183 (seratus delapan puluh tiga) hari"), each with the side of it a value must be on:
#: kb/data/lexicon.yaml ``passage_cues.bound_*``; "up to" first: "tidak lebih dari" ends with "lebih dari" too
BOUNDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (lexicon.passage_cue(f"bound_{side}"), side) for side in ("up_to", "above", "below")
)


def bound_before(text: str, start: int) -> tuple[str, str] | None:
    """(the bound's words, its side) when the figure at ``start`` of ``text`` is a condition's bound."""
    before = text[max(0, start - 40) : start]
    for pattern, side in BOUNDS:
        if m := pattern.search(before):
            return m.group(0).strip(), side
    return None


def question_bounds(question: str) -> tuple[tuple[frozenset[FigureKey], str], ...]:
    """The question's rule-like figures it places on a side of a bound ("sudah lebih dari 183 hari", "omzet
    melebihi 4,8 M"), each as its keys and side."""
    return tuple((keys, side) for keys, side in _rule_figures(question) if side is not None)


def bound_side(bounds: tuple[tuple[frozenset[FigureKey], str], ...], text: str) -> float:
    """+1 per figure the question places on a side of a bound that the text bounds on the same side, -1 per
    one it bounds on the other side, averaged.  "lebih dari 183 hari" is the resident's rule (UU PPh Pasal 2
    ayat (3)), "tidak lebih dari 183 hari" the non-resident's (ayat (4)): both state the question's figure,
    only one is its case."""
    if not bounds:
        return 0.0
    found = bounded_figures(text)
    score, compared = 0.0, 0
    for keys, asked in bounds:
        sides = {side for _, k, side in found if side is not None and keys & k}
        if not sides:
            continue
        compared += 1
        above = asked == "above"
        score += sum(1.0 if (side == "above") == above else -1.0 for side in sides) / len(sides)
    return score / compared if compared else 0.0


#: how far from a rule's bound an amount of the case may be for the rule to decide it: "kwitansi
#: Rp4.600.000" against "nilai nominal lebih dari Rp5.000.000,00", "gaji 6,5 juta" against "tidak lebih dari
#: Rp10.000.000,00" (a factor of three either way; an amount a hundred times the bound is another rule's case)
BOUND_NEAR = 3


@functools.lru_cache(maxsize=256)  # read per hit by relevance, lead order and units (_bracket_row)
def question_amounts(question: str) -> tuple[Decimal, ...]:
    """The amounts of money the question states as facts of its case without placing them at a bound
    ("nilainya Rp 4.600.000", "gaji 6,5jt"; not "omzet melebihi 4,8 M", which :func:`bound_side` reads)."""
    return tuple(
        value
        for keys, side in _rule_figures(question)
        if side is None
        for key in keys
        if (value := _amount_of(key)) is not None
    )


def _amount_of(key: FigureKey) -> Decimal | None:
    """The value of an amount-of-money key (("amount", value); a period's key also has its unit)."""
    value = key[1] if len(key) > 1 else None
    return value if key[0] == "amount" and isinstance(value, Decimal) and value > 0 else None


def bound_near(amounts: tuple[Decimal, ...], text: str) -> float:
    """1.0 when the text bounds an amount of money within :data:`BOUND_NEAR` of one the question states:
    the threshold that decides the asker's case ("lebih dari Rp5.000.000,00" for a receipt of Rp4.600.000,
    which it then does not reach)."""
    if not amounts:
        return 0.0
    for kind, keys, side in bounded_figures(text):
        if kind != "amount" or side is None:
            continue
        for key in keys:
            value = _amount_of(key)
            if value is not None and any(value / BOUND_NEAR <= a <= value * BOUND_NEAR for a in amounts):
                return 1.0
    return 0.0


PERSON_PARTY = lexicon.question_kind("person_party")
ENTITY_PARTY = lexicon.question_kind("entity_party")
#: a list item about one kind of taxpayer: "a. orang pribadi yang ...", "d. badan yang tidak didirikan ..."
_ITEM_PARTY = {
    "person": re.compile(r"\s*(?:[a-z]\.\s*)?(?:orang\s+pribadi|warga\s+negara)\b", re.I),
    "entity": re.compile(r"\s*(?:[a-z]\.\s*)?badan\b", re.I),
}


def asked_party(question: str) -> str | None:
    """``person`` or ``entity``: the kind of taxpayer the question is about, when it names only one kind."""
    person, entity = bool(PERSON_PARTY.search(question)), bool(ENTITY_PARTY.search(question))
    if person == entity:
        return None
    return "person" if person else "entity"


def other_party(party: str | None, quote: str) -> float:
    """1 when the quote is a list item about the other kind of taxpayer than the one asked about."""
    if party is None:
        return 0.0
    return float(bool(_ITEM_PARTY["entity" if party == "person" else "person"].match(quote)))


def question_objects(question: str) -> tuple[str, ...]:
    """The objects the question names (rent of land/buildings, construction, a payee without NPWP), in the
    order the question first names them."""
    found = [(m.start(), name) for name, ask, _ in QUESTION_OBJECTS if (m := ask.search(question))]
    return tuple(name for _, name in sorted(found))


def object_match(objects: tuple[str, ...], text: str) -> float:
    """+1 per named object the text is about, -1 per object it mentions only in an exclusion; an object the
    question names after another counts half ("PT ... sampai berapa tahun? kalau CV?": the PT's item
    first)."""
    score = 0.0
    for name, _, about in QUESTION_OBJECTS:
        if name in objects:
            score += (1.0 if name == objects[0] else 0.5) * _mentions(about, text)
    return score


def _mentions(about: re.Pattern[str], text: str) -> int:
    """1 when the text is about what ``about`` matches, -1 when it mentions it only negated -- before the
    match ("kecuali sewa tanah ...") or inside it ("sewa harta selain tanah") --, 0 when it does not."""
    hits = list(about.finditer(text))
    if not hits:
        return 0
    return 1 if any(not _NEGATED_BEFORE.search(text[max(0, m.start() - 120) : m.end()]) for m in hits) else -1


#: How a passage states the rule of an income object whose rate its own regulation sets (PPh final
#: Pasal 4 ayat (2): rent of land or buildings, construction services, lottery prizes; severance pay, whose
#: rates UU PPh Pasal 21 leaves to a regulation).  The others are read as :data:`_OBJECTS_IN_PASSAGE` reads
#: them; the rent is stricter than there: the transfer of "tanah dan/atau bangunan" is another object than
#: its rent, and the rent of any asset ("sewa dan penghasilan lain sehubungan dengan penggunaan harta", PPh
#: 23) is not the rent of land or buildings.
_RATE_OBJECTS: dict[str, re.Pattern[str]] = {
    "land_building_rent": re.compile(
        r"\b(?:sewa|persewaan|menyewakan|disewakan)\s+(?:\w+\s+){0,3}(?:tanah|bangunan)"
        r"|\brent(?:al)?\s+of\s+(?:\w+\s+){0,2}(?:land|buildings?)",
        re.I,
    ),
    **{
        name: about
        for name, about in _OBJECTS_IN_PASSAGE
        if name in ("construction", "lottery_prize", "severance", "deposit_interest", "stock_exchange_sale")
    },
    # a treaty's rate is stated with the treaty it belongs to ("P3B Indonesia-Jepang", "the tax treaty between
    # Indonesia and Japan"); "sesuai dengan tarif berdasarkan persetujuan penghindaran pajak berganda" (PP
    # 9/2021 Pasal 3) or a worked example's "Negara X" names no partner and states no treaty's rate
    "treaty_rate": re.compile(
        r"(?i:persetujuan\s+penghindaran\s+pajak\s+berganda|\bP3B\b|tax\s+treaty)\s+(?i:antara\s+)?"
        r"(?i:Republik\s+)?Indonesia\s*(?:-|(?i:dan|dengan|and))\s*(?!Negara\s+[A-Z]\b)[A-Z][a-z]+"
    ),
}
#: objects whose rate 7b declines only when the question asks its value ("berapa", "what rate", a figure to
#: confirm): "bisa pakai tarif P3B?" asks whether a treaty may be used, which PMK 112/2025 answers
_VALUE_ASKED_OBJECTS = frozenset({"treaty_rate"})


#: UU PPh's Pasal 23 (its own text or a later law's restatement of it): a withholding credited against the
#: year's tax, never a final tax
_PPH23_LOCATION = re.compile(r"^Pasal 23\b.*?\bUU 7/1983\b")
#: the question asks for a final income tax ("PPh final jasa konstruksi", "final ga?")
_ASKS_FINAL = re.compile(r"\bfinal\b", re.IGNORECASE)


#: the question asks a rate's figure ("berapa", "what rate", "how much") or asks to confirm one ("caps
#: royalties at 10%, can you confirm?"); a figure it only names ("can we apply the 10% treaty rate?") asks
#: whether the rate may be used (lexicon ``question_kinds.rate_value``)
_ASKS_RATE_VALUE = lexicon.question_kind("rate_value")
#: the question names income tax itself (kb/data/lexicon.yaml ``question_kinds.income_tax_named``)
_NAMES_INCOME_TAX = lexicon.question_kind("income_tax_named")


#: the question asks who, when or how, not whether (kb/data/lexicon.yaml ``question_kinds.open_question``)
_OPEN_QUESTION = lexicon.question_kind("open_question")


def unstated_object_rate(
    question: str, lead_quote: str, lead_source: str = "", tax_types: Sequence[str] = ()
) -> str | None:
    """The income object whose rate the question asks ("tarif PPh final persewaan tanah berapa persen?",
    "jasa konstruksi brp persen?") when the leading quote does not state a rate for it, else None.

    Such an object's rate is set by its own rule; a quote about another object (the transfer of land, the
    PPh 23 services list) that shares the question's other words states another rate, and a list that only
    names the object ("atas persewaan tanah dan/atau bangunan, usaha jasa konstruksi") states none.  The
    best the knowledge base holds then does not state the asked rate, and saying so is the answer.

    Kept apart from :func:`misses_asked` on purpose: a fact missing there escalates with the quotes shown
    under a doubt, and here those quotes state another object's rate (PP 34/2016's 2,5% for a transfer),
    which a reader would take for the answer; the pipeline declines without them instead.  ``tax_types``
    are the question plan's (:func:`kb.query.understand`), where the reviewed aliases name stamp duty.
    ``lead_source`` is the lead's location and document number ("Pasal 23 ayat (1) UU 7/1983 (...) UU
    36/2008"): a final tax asked for and UU PPh Pasal 23 leading is another regime's rate however literally
    it names the object."""
    rate_asked = asks_rate(question)
    if not rate_asked and (not states_rate(lead_quote) or _OPEN_QUESTION.search(question)):
        # no rate asked: only a yes/no question whose lead states a rate is read as asking it (below)
        return None
    taxes = asked_tax_names(question)
    # the question's tax types (its plan, read with the reviewed aliases) name stamp duty, which the tax names
    # of the text do not: "tarif bea meterai untuk kontrak sewa gedung berapa?" asks the lease's stamp duty
    other_tax = (bool(taxes) and not any(t.startswith("PPh") for t in taxes)) or "Bea Meterai" in tax_types
    if other_tax and not _NAMES_INCOME_TAX.search(question):
        return None  # the PPN or stamp duty charged on the object, whose rate is its tax's general one
    named = [name for name in question_objects(question) if name in _RATE_OBJECTS]
    if not rate_asked:
        # a yes/no question ("Apakah sewa gedung kantor dipotong PPh 23?") is read as a rate when its lead
        # states one: "tarifnya 2%" of the PPh 23 list, whose rent item excepts the rent already taxed under
        # Pasal 4 ayat (2), answered it (session 61, a probe of our own).  Only the rent of land or buildings:
        # the other objects are named loosely ("subkontraktor pelayaran" names a contractor)
        named = [name for name in named if name == "land_building_rent"]
    if (
        named
        and named[0] in _VALUE_ASKED_OBJECTS
        and not _ASKS_RATE_VALUE.search(lexicon.plain_question(question))
    ):
        named = named[1:]
    if not named:
        return None
    if _ASKS_FINAL.search(question) and _PPH23_LOCATION.search(lead_source):
        # the PPh 23 list names "jasa konstruksi" beside its 2%, but the final tax asked for is set by the
        # object's own rule (UU PPh Pasal 4 ayat (2)); Pasal 23's withholding is never final
        return named[0]
    if states_rate(lead_quote) and _mentions(_RATE_OBJECTS[named[0]], lead_quote) == 1:
        return None
    return named[0]


def unasked_regime(question: str, text: str) -> float:
    """-1 per special regime (the 0% export rate) the text states and the question does not name."""
    return -float(
        sum(1 for _, ask, about in _SPECIAL_REGIMES if about.search(text) and not ask.search(question))
    )


#: the specific things a list item is about: "barang be rupa kedelai, gandum, dan tepung terigu sebesar 0,5%",
#: "barang berupa emas batangan, sebesar 0,25%" (PMK 51/2025 Pasal 3; OCR splits "berupa"), "penghasilan
#: berupa bunga deposito ..." -- up to the rate, the condition or the end of the item
_SPECIFIED_THINGS = re.compile(
    r"\b(?:barang|jasa|harta|penghasilan)(?:\s+kena\s+pajak)?\s+be\s?rupa\s+"
    r"(?P<what>[^;:%]{3,120}?)(?=\s*,?\s*\b(?:sebesar|dengan|yang|dari|atas)\b|\s*[;:]|$)",
    re.I,
)


def unasked_specifics(question: str, text: str) -> bool:
    """The text is an item about specific things ("barang berupa kedelai, gandum, ...") of which the question
    names none.  Why: PMK 51/2025 lists import rates by goods; an importer of general goods with an API is
    answered by the residual item ("barang selain ... yang menggunakan angka pengenal impor, sebesar 2,5%"),
    not by the soybean item that shares the same words and comes first (session 56, a probe of our own and
    devchat DC037's answer text)."""
    return any(_names_none_of(question, m.group("what")) for m in _SPECIFIED_THINGS.finditer(text))


def _names_none_of(question: str, span: str, known: frozenset[str] = frozenset()) -> bool:
    """``span`` has content words (stems, less ``known``) and the question names none of them."""
    words = {lexical.stem(t) for t in tokenize(span) if t not in STOPWORDS and len(t) >= 3} - known
    return bool(words) and not words & lexical.word_stems(question)


def charges_asked_levy(asked: frozenset[str], text: str) -> bool:
    """The text says what a levy is charged on (``passage_cues.states_charge``), and when the question names a
    tax, the sentence saying so names that tax: "Yang menjadi objek pajak adalah penghasilan" (UU PPh Pasal 4)
    is no answer to "Apa saja yang menjadi objek PPN?" (session 57, a probe of our own)."""
    m = STATES_CHARGE.search(text)
    if m is None:
        return False
    if not asked:
        return True
    start = max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
    return bool(asked & set(mentioned_taxes(text[start : m.end()])))


#: a provision extending another one's rule to further parties or cases, or carving cases out of it:
#: "Kewajiban mendaftarkan diri sebagaimana dimaksud pada ayat (1) berlaku pula terhadap wanita kawin yang
#: dikenai pajak secara terpisah" (PP 50/2022 Pasal 2 ayat (4)), "Jasa pendidikan yang dibebaskan ...
#: sebagaimana dimaksud pada ayat (1) tidak termasuk jasa pendidikan yang menjadi satu kesatuan ... dengan
#: penyerahan barang" (PP 49/2022 Pasal 16 ayat (6)) -- the words after the cue name the cases
_EXTENDS_RULE = re.compile(
    r"\bsebagaimana\s+dimaksud\s+(?:pada|dalam)\s+(?:ayat|Pasal)\b[^.;:]{0,80}?"
    r"\b(?:berlaku\s+(?:pula|juga)\s+(?:terhadap|bagi|atas|untuk)|tidak\s+termasuk)\s+(?P<whom>[^.;:]{3,160})",
    re.I,
)


#: a provision opening with the carve-out of a rule stated elsewhere: "Dikecualikan dari ketentuan sebagaimana
#: dimaksud pada ayat (1), warga negara asing yang telah menjadi subjek pajak dalam negeri dikenai Pajak
#: Penghasilan hanya atas ..." (UU PPh Pasal 4 ayat (1a)) -- the cases are the subject after the comma, up to
#: its predicate (a passive verb not opening a relative clause, or a modal)
_CARVES_OUT = re.compile(
    r"^\W*(?:(?:Pasal\s+\d+\w*|\(\d+[a-z]?\))\s+)*Dikecualikan\s+dari\s+ketentuan\s+sebagaimana\s+dimaksud\s+"
    r"(?:pada|dalam)\s+(?:ayat|Pasal)\b[^,.;:]{0,80},\s*"
    r"(?P<whom>(?:(?!(?<!yang\s)\bdi[a-z]{3,}(?:kan|i)\b|\b(?:wajib|dapat|harus|hanya|berlaku|adalah)\b)"
    r"[^.;:]){3,160}?)(?=\s+(?:di[a-z]{3,}(?:kan|i)|wajib|dapat|harus|hanya|berlaku|adalah)\b)",
    re.I,
)


#: a provision opening with a case the rule before it named: "(5) Dalam hal wanita kawin yang dikenai pajak
#: secara terpisah sebagaimana dimaksud pada ayat (4) ..."
_CASE_OF_EXTENSION = re.compile(
    r"^\W*(?:\(\d+[a-z]?\)\s+)?Dalam\s+hal\s+(?P<whom>[^.;:,]{3,120}?)\s+sebagaimana\s+dimaksud\s+"
    r"(?:pada|dalam)\s+ayat\b",
    re.I,
)


def extends_to_unasked(question: str, text: str) -> bool:
    """The text extends a rule stated elsewhere to cases, or carves cases out of it, of which the question
    names none (the words that set the cases apart from the rule's own subject).  Why: it shares the rule's
    words and adds the case's, so coverage ranks it over the rule itself: "Siapa yang wajib mendaftarkan diri
    untuk memperoleh NPWP?" was answered with PP 50/2022 Pasal 2 ayat (4)'s married women, and "Apakah jasa
    pendidikan dikenai PPN?" with the education bundled with goods that PP 49/2022 Pasal 16 ayat (6) leaves
    out of the exemption (session 57, probes of our own), not with the rules themselves."""
    m = _EXTENDS_RULE.search(text[:400])
    if m is not None:
        return _names_none_of(question, m.group("whom"), lexical.word_stems(text[: m.start()]))
    # the carve-out opening the provision, of cases the question names none of: "Who is a tax resident in
    # Indonesia?" was led by PP 55/2022 Pasal 3's expatriates taxed on Indonesian income only (session 62, a
    # probe of our own)
    m = _CARVES_OUT.match(text[:400])
    if m is not None:
        return _names_none_of(question, m.group("whom"))
    # the case of a rule's extension, opening the provision: "(5) Dalam hal wanita kawin yang dikenai pajak
    # secara terpisah sebagaimana dimaksud pada ayat (4) telah memiliki ... tidak perlu mendaftarkan diri"
    # (PP 50/2022 Pasal 2, read as an ayat of its own since session 65)
    m = _CASE_OF_EXTENSION.match(text[:400])
    return m is not None and _names_none_of(question, m.group("whom"))


@functools.lru_cache(maxsize=256)  # read once per unit of every relevant passage (_pick_units)
def question_pairs(question: str) -> frozenset[tuple[str, str]]:
    """Adjacent content words of the question ("angkutan umum", "seluruh pegawai"), as written -- not the
    words of one named term ("Barang Kena Pajak"): a term is a concept coverage already counts, and every item
    of its list says it ("ekspor Barang Kena Pajak Berwujud" had answered a question on the general VAT rate
    with the export rate's 0%)."""
    in_terms = {p for exp in understand(question).expansions for p in itertools.pairwise(tokenize(exp.term))}
    return frozenset(lexical.content_pairs(question, STOPWORDS | FRAME_WORDS)) - in_terms


def phrase_match(pairs: frozenset[tuple[str, str]], text: str) -> bool:
    """The text holds one of the question's word pairs as written.

    Why: items of one list share the lead-in's words, so coverage ties them and a rule word of one item
    decides: "Apakah natura berupa makanan untuk seluruh pegawai dikecualikan dari objek PPh?" quoted PP
    55/2022 Pasal 24 huruf c ("natura ... yang harus disediakan oleh pemberi kerja") over huruf a, the food
    "bagi seluruh Pegawai" asked about (session 56, a probe of our own).  One pair is enough: counting two let
    a FAQ's side remark sharing "vendor lama" outweigh its answer (eval a116)."""
    return bool(pairs & lexical.word_pairs(text))


def names_regime(question: str) -> bool:
    """The question names a special regime (export, a derived base, a payee without an NPWP): the general
    rate is not its rate."""
    return any(ask.search(question) for _, ask, _ in _SPECIAL_REGIMES)


def only_unasked_regime_rates(question: str, text: str, regimes: frozenset[str] | None = None) -> bool:
    """The text states percentages, and each of them sits inside a special regime the question does not name
    (PMK 11/2025's "10% dikali 11/12 dari tarif PPN" for a plain "berapa tarif PPN?"; the general rule's
    Pasal, which also lists the 0% export rate, still states 11% and 12% outside it).  ``regimes``: only
    these regimes count (all when None)."""
    if not PERCENT.search(text):
        return False
    rest = text
    for name, ask, about in _SPECIAL_REGIMES:
        if regimes is not None and name not in regimes:
            continue
        if not ask.search(question):
            rest = about.sub(" ", rest)
    return rest != text and not PERCENT.search(rest)


#: special parties a rule may be for, each as (the rule naming it, a question naming it): a joint operation
#: (KSO) and its members (lexicon ``passage_cues.joint_operation`` / ``question_kinds.joint_operation``); a
#: party is added here with its two lexicon entries, not as another lead feature
_SPECIAL_SUBJECTS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (lexicon.passage_cue("joint_operation"), lexicon.question_kind("joint_operation")),
)
#: a party in Indonesia the question is about ("dalam negeri", a PT or CV), a party abroad, a treaty
_ASK_IN_INDONESIA = lexicon.question_kind("works_in_indonesia")
_ASK_DOMESTIC = lexicon.question_kind("domestic_party")
_ASK_ABROAD = lexicon.question_object("foreign_payee")
_ASK_TREATY = lexicon.question_kind("treaty")
_ASK_PERMANENT_ESTABLISHMENT = lexicon.question_kind("permanent_establishment")
#: the rule for a payee abroad: PPh 26's "kepada Wajib Pajak luar negeri selain bentuk usaha tetap"
_PAYEE_ABROAD = lexicon.passage_cue("payee_abroad")
#: income from a company abroad, and from home (``passage_cues.income_from_abroad`` / ``income_from_home``)
_FROM_ABROAD = lexicon.passage_cue("income_from_abroad")
_FROM_HOME = lexicon.passage_cue("income_from_home")


def payee_abroad_unasked(question: str, text: str) -> bool:
    """The text is the rule for a payee abroad (PPh 26) while the question is about a party in Indonesia (a
    PT, "dalam negeri") and names no party abroad, no treaty, no permanent establishment and not PPh 26.

    Who receives the income decides the rule: PPh 26 is withheld from "Wajib Pajak luar negeri selain bentuk
    usaha tetap"; what a PT or another domestic taxpayer receives is governed by the domestic rules (PPh 23,
    the exemptions of Pasal 4 ayat (3)), however many of the question's words the foreign-payee rule
    shares."""
    plain = lexicon.plain_question(question)  # chat spellings read as words: "dlm negeri" is "dalam negeri"
    # a foreigner who works or lives in Indonesia is a party in Indonesia: "foreign" names the nationality
    in_country = bool(_ASK_IN_INDONESIA.search(plain))
    if not (_ASK_DOMESTIC.search(plain) or in_country) or _ASK_TREATY.search(plain):
        return False
    if _ASK_ABROAD.search(plain) and not in_country:
        return False
    if _ASK_PERMANENT_ESTABLISHMENT.search(plain) or "PPh 26" in mentioned_taxes(question):
        return False
    # the payee-abroad rule, or a rule only about income from a company abroad (a rule naming income from home
    # too, such as UU PPh Pasal 4 ayat (3) huruf f's two kinds of dividend, may answer the question)
    return bool(_PAYEE_ABROAD.search(text)) or bool(_FROM_ABROAD.search(text) and not _FROM_HOME.search(text))


@functools.lru_cache(maxsize=256)
def asked_procedures(question: str) -> frozenset[str]:
    """The tax procedures (lexicon ``procedures``) the question names, with those their rules are about
    (``concerns``): "mau pembetulan" -> correction; "batas waktu keberatan" -> objection, assessment."""
    plain = lexicon.plain_question(question)
    named = {name for name, words in lexicon.procedures().items() if words.search(plain)}
    # and what their rules are about: a rule of the objection names the assessment objected to
    concerns = lexicon.procedure_concerns()
    return frozenset(named.union(*(concerns.get(name, frozenset()) for name in named)))


#: the act a rule imposes: the verb after its modal ("Keberatan harus diajukan ...", "wajib disetor ...")
_MODAL_VERB = re.compile(r"\b(?:harus|wajib|paling\s+lambat)\s+(\w+)", re.I)


def deadline_of_asked_act(question: str, text: str) -> bool:
    """The text's time limit binds the act the question asks about: the verb after its "harus / wajib" is
    one of the question's verbs, in either voice.  "Dalam berapa bulan keberatan harus diajukan?" is
    answered by "Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan" (UU KUP Pasal 25 ayat (3)),
    not by "Direktur Jenderal Pajak harus menyelesaikan keberatan yang diajukan ... paling lama 12 (dua
    belas) bulan" (PP 50/2022 Pasal 33), which shares every word but sets the tax office's time (session 55,
    a probe of our own).  A rule without "harus" binds the verb that is the predicate of the clause stating
    its limit (:func:`_predicate_with_limit`)."""
    state = lexical.asked_state(question)
    if state and states_moment_of(state, text):
        return True
    verbs = _asked_verbs(question)
    if not verbs:
        return False
    if any(lexical.stem(m.group(1).lower()) in verbs for m in _MODAL_VERB.finditer(text)):
        return True
    limits = time_limits_of(text)
    if any(_predicate_with_limit(clause, verbs) for clause in _CLAUSE_BREAK.split(limits)):
        return True
    # the limit named by the asked act's noun: "Batas waktu pengajuan surat keberatan ditentukan dalam waktu 3
    # (tiga) bulan" (UU KUP's elucidation of Pasal 25 ayat (3)) for "Kapan batas waktu pengajuan keberatan?".
    # The noun may open a list whose items state the limits ("Batas waktu penyampaian Surat Pemberitahuan
    # adalah: a. ... paling lama 20 (dua puluh) hari ..."): the limit follows within the next lines
    nouns = set(lexical.pen_nouns(question))
    if any(
        m.group(1).lower() in nouns and DEADLINE_VALUE.search(limits, m.end(), m.end() + 300)
        for m in _LIMIT_NOUN.finditer(limits)
    ):
        return True
    # ... or by its noun as the subject of the duty limited: "pembetulan Surat Pemberitahuan harus disampaikan
    # paling lama 2 (dua) tahun sebelum daluwarsa penetapan" (UU KUP Pasal 8 ayat (1a)) limits the correction
    # "Berapa batas waktu pembetulan SPT?" asks about, though its verb is the filing's (session 60)
    return bool(nouns & _limited_subjects(text, _MODAL_LIMIT))


#: verbs that name no act of their own ("Pembayaran ... wajib dilakukan ..."): the act is their subject's
#: (kb/data/lexicon.yaml ``light_verbs``, generic words for coverage too)
_LIGHT_VERBS = lexicon.light_verbs()


def deadline_of_other_act(question: str, text: str, *, asked_bound: bool | None = None) -> bool:
    """The text's duty with a time limit ("harus menyelesaikan", "wajib menyampaikan") is another act than
    the one the question asks about, and none of the asked acts is bound (:func:`deadline_of_asked_act`;
    ``asked_bound``: its value, when the caller has it).  Why: "Direktur Jenderal Pajak harus menyelesaikan
    keberatan yang diajukan ... paling lama 12 (dua belas) bulan" (PP 50/2022 Pasal 33) shares every word of
    "Kapan batas waktu pengajuan keberatan?" and sets the tax office's time, not the asker's (session 57, a
    probe of our own)."""
    verbs = _bound_act(question)
    if not verbs:
        return False
    duties = _limit_verbs(text)
    if any(lexical.stem(d) in verbs for d in duties):
        return False
    if any(PAYS.search(d) for d in duties) and any(PAYS.search(v) for v in verbs):
        return False  # paying, settling and depositing a tax are one duty ("pembayaran" ~ "disetor")
    if any(_ASKS_FILING.search(v) for v in verbs) and FILES.search(text):
        return False  # reporting and filing a return are one duty ("dilapor" ~ "penyampaian SPT")
    # ... or the limit names another act by its noun: "jangka waktu pelunasan pajak ... tertangguh sampai
    # dengan 1 (satu) bulan" (UU KUP Pasal 25 ayat (7)) for a question on when to file an objection
    nouns = _limit_nouns(text)
    if any(form in verbs for n in nouns for form in lexical.verbs_of_pen_noun(n)):
        return False
    if not (duties or nouns):
        # a limit with no duty beside it ("sisa lebih ... yang ditanamkan kembali dalam bentuk sarana ...,
        # dalam jangka waktu paling lama 4 (empat) tahun", UU PPh Pasal 4 ayat (3) huruf m) is another act's
        # when the text never names the asked one, in either voice or by its noun (session 63, a probe of our
        # own on when PPh Pasal 4 ayat (2) is paid was answered with it)
        return bool(DEADLINE_VALUE.search(time_limits_of(text))) and not _names_act(verbs, text)
    return not (deadline_of_asked_act(question, text) if asked_bound is None else asked_bound)


@functools.lru_cache(maxsize=256)  # the pipeline's two deadline checks read the same lead text
def _names_act(verbs: frozenset[str], text: str) -> bool:
    """The text names one of the asked act's stems (:func:`_bound_act`), as a verb or by its peN-an noun, or
    (for paying) any word of paying: "pembayaran" and "disetor" are one duty."""
    words = tokenize(text)
    if any(lexical.stem(w) in verbs for w in words):
        return True
    if any(form in verbs for w in words if lexical.is_pen_noun(w) for form in lexical.verbs_of_pen_noun(w)):
        return True
    return any(PAYS.search(v) for v in verbs) and bool(PAYS.search(text))


def _limit_verbs(text: str) -> set[str]:
    """The verbs of the duties the text's time limits bind ("harus menyelesaikan", "disetor paling lambat"),
    light verbs left out."""
    return {
        m.group(1).lower()
        for pattern in (_MODAL_VERB, _VERB_BEFORE_LIMIT)
        for m in pattern.finditer(text)
        if m.group(1)[:1].islower() and m.group(1).startswith(("me", "di"))
    } - _LIGHT_VERBS


def _limit_nouns(text: str) -> set[str]:
    """The nouns of the acts the text's time limits name ("jangka waktu pelunasan", "pelunasan ... dilakukan
    paling lama")."""
    return {m.group(1).lower() for m in _LIMIT_NOUN.finditer(text)} | _light_verb_subjects(text)


def limit_binds_unasked_duty(question: str, text: str) -> bool:
    """The text's time limit binds paying or filing, which the question's act is not: the day found is that
    duty's, never the asked one.  Narrower than :func:`deadline_of_other_act`, whose other verbs may be the
    asked act in other words ("diterbitkan" for the acts' "dibuat" of a Faktur Pajak): a decline needs it."""
    verbs = _bound_act(question)
    if not verbs:
        return False
    bound = _limit_verbs(text) | _limit_nouns(text)
    if any(
        any(cue.search(d) for d in bound) and not any(asks.search(v) for v in verbs)
        for cue, asks in ((PAYS, _ASKS_PAYING), (FILES, _ASKS_FILING))
    ):
        return True
    # ... or a payment is asked and the text never names paying, in any of its words: its limit is some other
    # act's (the acts name paying in few words, so no other wording of the asked act can hide in it)
    return any(PAYS.search(v) for v in verbs) and not _names_act(verbs, text)


#: the act a deadline question asks the limit of: the noun after "batas waktu" / "jangka waktu"
#: ("batas waktu pengajuan keberatan"), or the verb after "kapan" or a modal ("kapan harus diajukan")
_BOUND_ACT = re.compile(
    rf"\b(?:(?:batas|jangka)\s+waktu\s+(?P<noun>{lexical.PEN_NOUN})"
    # "Berapa lama pemeriksaan pajak dilakukan?" asks the span of the act its noun names
    rf"|berapa\s+lama\s+(?P<span_noun>{lexical.PEN_NOUN})"
    r"|(?:kapan|harus|wajib|paling\s+lambat)\s+(?:\w+\s+)?(?P<verb>(?:di|me)[a-z]{4,}))\b",
    re.I,
)


@functools.lru_cache(maxsize=256)
def _bound_act(question: str) -> frozenset[str]:
    """The stems of the act the question asks the deadline of (:data:`_BOUND_ACT`), in both voices; empty
    when it names none so plainly.  A verb of the story ("SKPKB ... dikirim tgl 10 Feb") is no such act: a
    limit binding another verb then says nothing of whether it answers."""
    out: set[str] = set()
    for m in _BOUND_ACT.finditer(lexicon.plain_question(question)):
        noun = m.group("noun") or m.group("span_noun")
        if noun:
            out.update(lexical.verbs_of_pen_noun(noun.lower()))
        else:
            out.update(_asked_verbs(m.group("verb")))
    state = lexical.asked_state(question)
    if state:
        out.add(state)
    return frozenset(out)


def states_moment_of(state: str, text: str) -> bool:
    """The text says when ``state`` occurs: "<state>(nya) ... pada saat" in one clause, or "saat <state>nya"
    ("Terutangnya pajak terjadi pada saat ...", "saat terutangnya pajak adalah pada saat pembayaran")."""
    word = re.escape(state)
    return bool(
        re.search(rf"\b{word}(?:nya)?\b[^.;:]{{0,60}}?\bpada\s+saat\b|\bsaat\s+{word}nya\b", text, re.I)
    )


#: the verb a time limit follows: "PPh 23 ... disetor paling lambat tanggal 20", "Bukti potong ... dibuat
#: paling lambat akhir bulan"
_VERB_BEFORE_LIMIT = re.compile(r"\b((?:di|me)[a-z]{3,})\s+paling\s+(?:lambat|lama)\b")
#: a verb's time limit right after it, or after its agent ("Pembayaran ... wajib dilakukan oleh Wajib Pajak,
#: orang pribadi, atau badan dalam jangka waktu paling lama 1 (satu) bulan")
_LIMIT_AFTER_VERB = r"(?:\s+oleh\s+[^.;:]{1,80}?)?\s+(?:paling\s+(?:lambat|lama)|dalam\s+jangka\s+waktu)\b"
#: a light verb with a time limit ("pelunasan ... dilakukan paling lama 1 (satu) bulan"): the act limited is
#: its subject's (:func:`_light_verb_subjects`)
_LIGHT_VERB_LIMIT = re.compile(
    rf"\b(?:{'|'.join(sorted(v for v in _LIGHT_VERBS if v.startswith('di')))}){_LIMIT_AFTER_VERB}", re.I
)
#: where the clause before a light verb opens
_CLAUSE_OPEN = re.compile(r"[,;:]|\.\s")


def _light_verb_subjects(text: str) -> set[str]:
    """The acts whose time limit a light verb states (:func:`_limited_subjects`).  "Dalam hal Wajib Pajak
    mengajukan permohonan banding, pelunasan atas jumlah pajak ... dilakukan paling lama 1 (satu) bulan" (PP
    50/2022 Pasal 47 ayat (2)) limits the payment, not the audit its words name (session 58, "Berapa lama
    pemeriksaan pajak dilakukan?")."""
    return _limited_subjects(text, _LIGHT_VERB_LIMIT)


#: a duty with a time limit ("harus disampaikan paling lama", "wajib disetor dalam jangka waktu"); its agent
#: may come between, as after a light verb
_MODAL_LIMIT = re.compile(rf"\b(?:harus|wajib)\s+(?:di|me)[a-z]{{3,}}{_LIMIT_AFTER_VERB}", re.I)


def _limited_subjects(text: str, limit: re.Pattern[str]) -> set[str]:
    """The subjects of the verbs ``limit`` finds with their time limit: the first peN-an noun of each one's
    clause, in lower case ("Hasil Pemeriksaan" names a document)."""
    out: set[str] = set()
    for m in limit.finditer(text):
        opens = [c.end() for c in _CLAUSE_OPEN.finditer(text, 0, m.start())]
        clause = text[opens[-1] if opens else 0 : m.start()]
        words = re.findall(r"\b[A-Za-z]+\b", clause)
        # the clause's first word is capitalised as a sentence's ("(5) Pembayaran Pajak ... wajib dilakukan
        # oleh ..."); any later capitalised one names a document ("Hasil Pemeriksaan")
        words[:1] = [w.lower() for w in words[:1]]
        first = next((t for t in words if t.islower() and lexical.is_pen_noun(t)), None)
        if first:
            out.add(first)
    return out


#: a time limit named by the act it limits: "jangka waktu pelunasan", "batas waktu penyampaian"
_LIMIT_NOUN = re.compile(rf"\b(?:batas|jangka)\s+waktu\s+({lexical.PEN_NOUN})\b", re.I)


#: where one statement of a passage ends: a full stop or semicolon that is no thousands mark ("Rp1.000")
_CLAUSE_BREAK = re.compile(r"[.;](?!\d)")
#: a verb after "yang" (perhaps with one word between: "yang telah diajukan") describes a thing: no predicate
_RELATIVE_BEFORE = re.compile(r"\b(?:yang|yg)\s+(?:\w+\s+)?$", re.I)
_WORD = re.compile(r"\w+")


def _predicate_with_limit(clause: str, verbs: frozenset[str]) -> bool:
    """The clause states a time limit and one of the asked verbs, before it, is its predicate, not a relative
    clause's.

    Why: a rule can bind its act without "harus": "kerugian tersebut dikompensasikan dengan penghasilan mulai
    tahun pajak berikutnya berturut-turut sampai dengan 5 (lima) tahun" (UU PPh Pasal 6 ayat (2)) answers
    "berapa lama kerugian boleh dikompensasikan?", while a duration that is only a condition of another act
    ("telah melakukan penjualan secara komersial selama 5 (lima) tahun", PP 55/2022 Pasal 32 ayat (2) huruf f,
    which led; session 56, a probe of our own) or the office's time to decide "keberatan yang diajukan" does
    not; nor does a verb after the limit, which dates it ("lebih dari 3 (tiga) bulan sejak saat Faktur Pajak
    seharusnya dibuat"), nor a capitalised name that reads like a verb: "Bea Meterai yang terutang menjadi
    kedaluwarsa setelah jangka waktu 5 (lima) tahun" had answered "Kapan bea meterai terutang?"."""
    limit = DEADLINE_VALUE.search(clause)
    if limit is None:
        return False
    conditions = [m.span() for m in _CONDITION_OPENER.finditer(clause, 0, limit.start())]
    return any(
        m.group()[0].islower()  # the acts write verbs in lower case, names capitalised ("Bea Meterai")
        and lexical.stem(m.group().lower()) in verbs
        and not _RELATIVE_BEFORE.search(clause, 0, m.start())
        and not any(a <= m.start() < b for a, b in conditions)
        for m in _WORD.finditer(clause, 0, limit.start())
    )


#: a clause's condition up to its comma ("Dalam hal Wajib Pajak mengajukan keberatan, jangka waktu
#: pelunasan ... tertangguh sampai dengan 1 (satu) bulan ..."): a verb in it is the case the rule applies to,
#: not the act its limit binds (UU KUP Pasal 25 ayat (7) had answered "Kapan batas waktu pengajuan
#: keberatan?", session 57)
CONDITION_WORDS = r"\b(?:dalam\s+hal|apabila|jika|bila)\b"
_CONDITION_OPENER = re.compile(rf"(?:{CONDITION_WORDS}|\bdalam\s+rangka\b)[^,]{{0,200}},", re.I)


@functools.lru_cache(maxsize=256)  # read once per candidate passage of a question (lead_features)
def _asked_verbs(question: str) -> frozenset[str]:
    """The stems of the question's di-/me- verbs, in both voices ("diajukan" -> "diaju", "mengaju"), and of
    the verbs its peN-an nouns name the act of ("pengajuan" -> "mengaju", "diaju"; "pembayaran" ->
    "membayar", "dibayar"): "Kapan batas waktu pengajuan keberatan?" asks when an objection must be filed
    (session 57, a probe of our own answered with the office's 12 months to decide one)."""
    words = tokenize(question)
    # "dilakukan" names no act of its own: the act is its subject ("pemeriksaan ... dilakukan"), and as an
    # asked verb it bound every "harus dilakukan" of other acts (PP 50/2022 Pasal 47's payment after an
    # appeal answered "Berapa lama pemeriksaan pajak dilakukan?", session 57)
    toks = [t for t in words if t.startswith(("di", "me")) and len(t) >= 6 and t not in _LIGHT_VERBS]
    acts = [lexical.verbs_of_pen_noun(t) for t in lexical.pen_nouns(question)]
    return frozenset(
        {lexical.stem(t) for t in toks}
        | {p[0] for t in toks for p in lexical.voice_partners(t)}
        | {form for forms in acts for form in forms}
    )


def procedure_unasked(asked: frozenset[str], text: str) -> bool:
    """The text is bound to a tax procedure the question does not name.

    Why: UU KUP sets a sanction per procedure, in the same words -- "dikenai sanksi administratif berupa bunga
    ... dihitung sejak jatuh tempo" is the sanction for paying late (Pasal 9 ayat (2a)) and, under
    "membetulkan sendiri Surat Pemberitahuan", the one after correcting a return (Pasal 8 ayat (2a)).  A
    question about a late payment is not answered by the correction rule, however many words they share.  A
    procedure the rule rules out ("sepanjang ... belum dilakukan pemeriksaan") does not bind it."""
    return any(
        name not in asked
        and any(
            not _PROCEDURE_NEGATED.search(text, max(0, m.start() - 60), m.start())
            for m in words.finditer(text)
        )
        for name, words in lexicon.procedures().items()
    )


def chapter_levy_unasked(question: str, hit: Hit) -> bool:
    """The passage stands in a chapter an act gives a levy of its own (its section heading names it: "BAB
    XIII PELAKSANAAN HAK DAN PEMENUHAN KEWAJIBAN PAJAK KARBON") that the question does not name.

    Why: such a chapter restates general rules for its levy in the general rule's words, and its subject
    sits in the heading or an earlier ayat, not in the passage: PP 50/2022 Pasal 69 ayat (6) ("Batas waktu
    penyampaian Surat Pemberitahuan sebagaimana dimaksud pada ayat (5) adalah: ... paling lama 20 (dua puluh)
    hari setelah akhir Masa Pajak", the carbon tax's returns) led "Kapan batas lapor SPT?" over UU KUP Pasal
    3 ayat (3) once the Pasal was read ayat by ayat (session 66)."""
    section = hit.chunk.prefix
    return any(
        levy.search(section) and not levy.search(question) for levy in lexicon.chapter_levies().values()
    )


#: a negation (or "sebelum") a few words before a procedure's name ("belum dilakukan pemeriksaan", "sebelum
#: Direktur Jenderal Pajak menerbitkan surat ketetapan pajak"): the rule holds outside that procedure
_PROCEDURE_NEGATED = re.compile(r"\b(?:belum|sebelum|tidak|tanpa|bukan)\b(?:\s+\w+){0,4}\s+$", re.I)


#: A condition the question rules out: "beli ruko, bukan rumah sederhana", "jasa selain konstruksi", "a payee
#: other than a bank".  The words after the negation (up to a comma, a conjunction or three content words)
#: name what the asker's case is NOT; a passage that states exactly that case (the rumah-sederhana row) is the
#: neighbour the asker excluded, and the one that excludes it too ("selain ... Rumah Sederhana") is theirs.
_QUESTION_NEGATION = re.compile(
    r"\b(?:bukan|bkn|selain|kecuali|tidak\s+termasuk|other\s+than|except(?:\s+for)?|excluding|rather\s+than"
    r"|instead\s+of|not\s+(?:an?|the))\s+(?P<what>[^,.;:?!()]{2,80})",
    re.I,
)
#: where the ruled-out phrase ends: a conjunction, or the question going on to the tax and what it asks
#: ("bukan pegawai kena PPh 21 berapa?" rules out "pegawai")
_PHRASE_END = re.compile(
    r"\b(?:dan|tapi|tetapi|namun|melainkan|atau|yang|yg|but|and|or|which|that|who|kena|dikena\w*|dipotong"
    r"|dipungut|wajib|pph|ppn|pajak\w*|tarif\w*|berapa|apa\w*|bagaimana|gimana|how|what|is|are|do|does|tax"
    r"|rates?|withh\w*)\b",
    re.I,
)
#: a mention of a thing inside a negation in a passage ("selain pengalihan ... berupa Rumah Sederhana",
#: "bukan pegawai", "other than ...")
_NEGATED_MENTION = re.compile(
    r"(?:\bkecuali|\bselain|\bbukan|\btidak\s+termasuk|\bexcept|\bother\s+than|\bexcluding|\bnon-?)"
    r"[^.;|]{0,110}$",
    re.I,
)


@functools.lru_cache(maxsize=256)
def negated_conditions(question: str) -> tuple[tuple[str, ...], ...]:
    """The phrases the question rules out, each as the stems of the content words that tell the excluded case
    from the asker's ("bukan rumah sederhana" -> ("rumah", "sederhana"); "sewa gudang, bukan gudang
    berpendingin" -> ("berpendingin",): "gudang" is the asker's case too)."""
    out = []
    for m in _QUESTION_NEGATION.finditer(question):
        what = _PHRASE_END.split(m.group("what"))[0]
        # a two-letter abbreviation ("bukan WP kriteria tertentu": the acts write "Wajib Pajak") is the
        # asker's kind of party, never written so by the rule that names the excluded case
        words = [
            t
            for t in tokenize(what)
            if t not in STOPWORDS and t not in FRAME_WORDS and not t.isdigit() and len(t) > 2
        ]
        rest = {lexical.stem(t) for t in tokenize(question[: m.start()] + " " + question[m.end("what") :])}
        stems = [lexical.stem(t) for t in words[:3]]
        telling = tuple(st for st in stems if st not in rest)
        if telling:
            out.append(telling)
    return tuple(dict.fromkeys(out))


def negated_match(negated: tuple[tuple[str, ...], ...], text: str) -> float:
    """+1 per ruled-out phrase the text mentions only inside a negation (it excludes what the asker excluded),
    -1 per phrase it states as its own case (the neighbour the asker ruled out), 0 when it does both or
    neither."""
    score = 0.0
    for phrase in negated:
        if not lexical.writes_stems(phrase, text):
            continue  # the phrase is not all there: the text is not about it
        # the last telling word anchors the mention: the modifier that names the case ("Rumah Sederhana")
        first = re.compile(rf"\b{re.escape(phrase[-1])}\w*", re.I)
        inside = bare = 0
        for m in first.finditer(text):
            if _NEGATED_MENTION.search(text[max(0, m.start() - 120) : m.start()]):
                inside += 1
            else:
                bare += 1
        if inside and not bare:
            score += 1.0
        elif bare and not inside:
            score -= 1.0
    return score


#: the items an exclusion names by reference: "... dimaksud dalam huruf a), huruf b), huruf c), dan huruf d)"
_REFERENCED_ITEMS = (
    r"(?:(?:,\s*|\s+)(?:dan\s+|atau\s+|sampai\s+dengan\s+)?(?:huruf|ayat|angka|pasal)\s+\(?\w+\)?)+"
)
#: where a passage names a case only to exclude it: "persewaan gudang selain gudang berpendingin ...;",
#: "kecuali ...", up to the end of the clause -- or up to the end of the reference that names the excluded
#: cases, when it has one: in "barang selain barang sebagaimana dimaksud dalam huruf a), ..., dan huruf d)
#: yang menggunakan angka pengenal impor, sebesar 2,5%" (PMK 51/2025 Pasal 3) the "yang" clause is the item's
#: own condition, the one an importer with an API asks about (session 56, a probe of our own)
_EXCLUSION_SPAN = re.compile(
    r"\b(?:selain|kecuali|tidak\s+termasuk|other\s+than|except(?:\s+for)?|excluding)\b"
    rf"(?:[^.;|]{{0,110}}?\bdimaksud\s+(?:dalam|pada){_REFERENCED_ITEMS}|[^.;|]{{0,110}})",
    re.I,
)

#: a condition the rule holds either way: "sebesar 10% dari nilai impor dengan atau tanpa menggunakan angka
#: pengenal impor" applies whether the importer has an API or not, so it is not the item for an asker who
#: names one; the item requiring it ("yang menggunakan angka pengenal impor, sebesar 2,5%") is (session 56)
_INDIFFERENT_SPAN = re.compile(r"\b(?:dengan\s+atau\s+tanpa|with\s+or\s+without)\b[^.;|,]{0,80}", re.I)


def affirmed_text(question: str, text: str) -> str:
    """The text without the cases it names only to exclude them, for a question that rules nothing out: an
    item "... gudang selain gudang berpendingin" does not cover a question about "gudang berpendingin" with
    the words it excludes; nor with a condition it holds either way ("dengan atau tanpa ...").  A question
    that itself rules a case out ("bukan ...") keeps its exclusions (:func:`negated_match` weighs them)."""
    text = _INDIFFERENT_SPAN.sub(" ", text)
    if _QUESTION_NEGATION.search(question):
        return text
    return _EXCLUSION_SPAN.sub(" ", text)


def asked_statuses(question: str) -> tuple[re.Pattern[str], ...]:
    """How the regulations write each PTKP status the question names, by code or in words (:mod:`kb.ptkp`)."""
    return status_patterns(question)


#: a question about the PTKP ("berapa PTKP K/2?", "penghasilan tidak kena pajak", "non-taxable income")
_ASKS_PTKP = re.compile(r"\bptkp\b|\bpenghasilan\s+tidak\s+kena\s+pajak\b|\bnon-?taxable\s+income\b", re.I)


def asks_ptkp(question: str) -> bool:
    """The question asks about the PTKP (not a PTKP status's rate category, nor its withholding)."""
    return bool(_ASKS_PTKP.search(question)) and not asks_rate(question)


@functools.lru_cache(maxsize=256)  # read per candidate lead, per unit and by the answer line of a question
def asked_ptkp_items(question: str) -> tuple[str, ...]:
    """The PTKP items (``kb.ptkp.PTKP_ITEMS``) the question's status takes, when it asks about the PTKP
    ("Berapa PTKP untuk status K/2?": the taxpayer's own, being married, dependants); empty otherwise."""
    return ptkp_items_taken(question) if asks_ptkp(question) else ()


def ptkp_item_match(items: tuple[str, ...], quote: str) -> float:
    """1.0 when the quote is an item of a PTKP the asker's status takes (``kb.ptkp.ptkp_items_taken``)."""
    return float(any(PTKP_ITEMS[name].search(quote) for name in items))


def status_match(statuses: tuple[re.Pattern[str], ...], text: str) -> float:
    """1.0 when the text writes out a PTKP status the question names."""
    return float(any(p.search(text) for p in statuses))


#: What a yes/no or who question asks about: the verb after the modal ("boleh dibayar?", "can we pay?",
#: "wajib dipotong?") or after "siapa yang" / "who" ("siapa yang menyetujui?").  Of a passage's sentences or
#: rows the one stating that action answers ("... tidak dapat dibayar sampai ...", "Disetujui oleh: CFO"),
#: not a neighbour sharing the question's other words.
_ASKED_ACTION = re.compile(
    r"\b(?:boleh(?:kah)?|bisa(?:kah)?|dapat(?:kah)?|harus(?:kah)?|wajib(?:kah)?|perlu(?:kah)?|can|may|must"
    r"|should|could|siapa\s+(?:yang|yg)|who)\s+(?:(?:we|i|you|it|they|kita|saya|kami|ini|still|masih|tetap|be)\s+)*"
    r"(?P<verb>[a-z]{3,})",
    re.I,
)
_PREFIX3 = ("mem", "men", "pem", "pen", "ber", "ter", "per")


def _root(tok: str) -> str:
    """A verb without its Indonesian prefix ("menyetujui" and "disetujui" -> "setujui", "dibayar" ->
    "bayar"); the light stemmer of :mod:`kb.lexical` strips suffixes only."""
    tok = tok.lower()
    if tok.startswith("meny") and len(tok) > 6:
        return "s" + tok[4:]
    if tok.startswith(_PREFIX3) and len(tok) > 6:
        return tok[3:]
    if tok.startswith(("me", "di", "ke")) and len(tok) > 5:
        return tok[2:]
    return tok


def asked_action(question: str, concepts: Sequence[Concept]) -> Concept | None:
    """The question's concept that is the asked action (see :data:`_ASKED_ACTION`), or None."""
    m = _ASKED_ACTION.search(question)
    if not m:
        return None
    verb = _root(lexical.stem(m.group("verb").lower()))
    for c in concepts:
        if any(len(ph) == 1 and _root(ph[0]) == verb for ph in c):
            return c
    return None


#: a permission, prohibition or duty before a verb ("tidak dapat dibayar", "wajib dipotong", "may not be")
_MODAL_BEFORE = re.compile(
    r"\b(?:dapat|boleh|bisa|wajib|harus|perlu|dilarang|cannot|can|may|must|shall)\s+(?:tidak\s+|not\s+|be\s+)?$",
    re.I,
)


def action_match(action: Concept | None, text: str) -> float:
    """1.0 when the text states the asked action in any inflection ("dibayar" for "bayar", "Disetujui" for
    "menyetujui"), 1.5 when it says whether the action may or must be done ("tidak dapat dibayar"): that is
    what a "boleh dibayar?" asks; 0.0 otherwise."""
    if action is None:
        return 0.0
    wanted = {_root(ph[0]) for ph in action if len(ph) == 1 and ph != EN_ONLY}
    wanted = {w for w in wanted if len(w) >= 4}
    best = 0.0
    for m in re.finditer(r"\w+", text):
        r = _root(lexical.stem(m.group().lower()))
        if any(r.startswith(w) and len(r) - len(w) <= 3 for w in wanted):
            best = max(best, 1.5 if _MODAL_BEFORE.search(text[max(0, m.start() - 30) : m.start()]) else 1.0)
    return best


#: Which return or payment period a question is about: the annual return ("SPT Tahunan", "annual") or a
#: tax period (Masa: "SPT Masa", "Masa Pajak", "bulanan", "monthly").  The two have different deadlines and
#: sanctions (UU KUP Pasal 3 ayat (3) huruf a vs c; Pasal 9 ayat (2a) vs (2b)); a question about one is not
#: answered with the other's row.
_ANNUAL = re.compile(r"\btahunan\b|\bannual(?:ly)?\b|\byearly\b|\bSPT\s+(?:PPh\s+)?Badan\b|\b177[01]\b", re.I)
_MONTHLY = re.compile(
    r"\bmasa\s+pajak\b|\b(?:SPT|Surat\s+Pemberitahuan)\s+Masa\b|\bbulanan\b|\bmonthly\b"
    r"|\b(?:bulan|month)\s+berikutnya\b|\bfollowing\s+month\b",
    re.I,
)
#: a question about paying or reporting a tax, or being late with it: for a withheld tax that is per Masa
#: (a question about a withheld tax's slip or its crediting is not: the payee credits it in the annual return)
_PAYING = re.compile(
    r"\b(?:setor\w*|bayar\w*|dibayar\w*|pembayaran|penyetoran|lapor\w*|pelaporan|dilaporkan|terlambat"
    r"|telat|keterlambatan|paid|pay(?:ing|ment)?|late|fil(?:e|ed|ing))\b",
    re.I,
)
#: taxes withheld or collected per tax period: paid and reported per Masa, never with the annual return
_PERIOD_TAXES = frozenset({"PPh 21", "PPh 22", "PPh 23", "PPh 26", "PPh 4(2)", "PPh 15", "PPN", "PPnBM"})


def asked_period(question: str) -> tuple[str, bool] | None:
    """(``annual`` or ``masa``, whether the question names it) when the question is about one of them; a
    withheld tax (PPh 23, PPN) with no annual return named is paid and reported per Masa (implied)."""
    annual, monthly = bool(_ANNUAL.search(question)), bool(_MONTHLY.search(question))
    if annual != monthly:
        return ("annual" if annual else "masa", True)
    if not annual and _PAYING.search(question) and set(mentioned_taxes(question)) & _PERIOD_TAXES:
        return ("masa", False)
    return None


def period_match(period: tuple[str, bool] | None, text: str) -> float:
    """-1 when the text is about the other period only (an annual-return row for a Masa question); +1 when
    it names the period the question names and not the other; 0 otherwise.  An implied Masa only counts
    against the annual return: it does not make a Masa deadline row answer a rate question."""
    if period is None:
        return 0.0
    annual, monthly = bool(_ANNUAL.search(text)), bool(_MONTHLY.search(text))
    if annual == monthly:
        return 0.0
    asked, named = period
    if annual == (asked == "annual"):
        return 1.0 if named else 0.0
    return -1.0


#: a passage that imposes a sanction, not one naming sanctions as another rule's subject
#: (``passage_cues.imposes_sanction``)
IMPOSES_SANCTION = lexicon.passage_cue("imposes_sanction")
#: the interest a late payment costs ("telat setor PPh 23 kena bunga berapa?"): kb/data/lexicon.yaml
#: ``question_kinds.late_interest``
ASKS_LATE_INTEREST = lexicon.question_kind("late_interest")
#: a passage that states a sanction: administrative (bunga, denda, kenaikan) or criminal
STATES_SANCTION = re.compile(
    r"\bsanksi\b|\bdenda\b|\bdipidana\b|\bpidana\s+(?:penjara|kurungan)|\bkenaikan\s+sebesar",
    re.I,
)


def misses_asked(question: str, quotes: Sequence[str]) -> str | None:
    """The kind of fact the question asks that none of ``quotes`` states, or None: an answer whose quotes do
    not contain what was asked is not an answer, however many of the question's words they share ("lupa
    memotong PPh 23, ada sanksinya?" answered with the 15% rate).

    A sanction is checked this way; a percentage the question quotes as a rule's threshold ("kurang dari 75%
    dari PPh terutang ... itu bagaimana?") that no quote states (the rule the asker quotes is not among them:
    an instalment rule stating 0,75% is another rule); and an amount ("berapa nilai ... yang diakui?") that
    no quote states any figure for (an amount, a percentage, a period or a count: whichever the amount turns
    out to be measured in): a rule that an item is income, quoted for "how much of it", leaves the valuation
    to a regulation the knowledge base may not hold.  ``quotes`` are the rules shown, without worked
    examples: an example's own figures ("dijual dengan harga Rp60.000.000,00") are not the rule's.  Whether a
    rate or a time limit was asked is read too loosely ("which TER category", "berapa lama jangka waktu") for
    a hard gate; a gate on them cost seven right answers of the check half (measured 2026-12-02).  A leading
    sanction that holds only within a procedure the question does not name (:func:`procedure_unasked`) misses
    it too.
    """
    penalty = lexicon.asks_penalty(question)
    if penalty and not any(STATES_SANCTION.search(q) for q in quotes):
        return "sanction"
    thresholds = [
        frozenset(k for k in f.keys if k[0] == "percent")
        for m in THRESHOLD.finditer(lexicon.plain_question(question))
        for f in extract_figures(m.group())
        if f.kind == "percent"
    ]
    stated = {k for q in quotes for f in extract_figures(q) for k in f.keys}
    if thresholds and not any(keys & stated for keys in thresholds):
        return "threshold"
    fact = asked_fact(question)
    if fact == "amount" and not any(f.kind in _ANY_QUANTITY for q in quotes for f in extract_figures(q)):
        return "amount"
    lead = quotes[0] if quotes else ""
    if fact == "deadline" and lead and not NAMES_TIME.search(lead) and not _ITEM.match(lead.lstrip()):
        # a time asked and a lead naming no time at all (no date, period, moment or event before or after),
        # from which the answer's line is read: "Kapan paling lambat setor PPh 23 ...?" was answered with who
        # may be appointed to withhold it (session 61, a probe of our own; the knowledge base holds no PPh 23
        # payment date an anonymous reader may read).  A list item is read with its lead-in, which may state
        # the moment ("Bea Meterai terutang pada saat: a. Dokumen dibubuhi Tanda Tangan, untuk: 1. surat
        # perjanjian ...")
        return "deadline"
    if (
        fact == "deadline"
        and lead
        and TIME_LIMIT.search(question)
        and asked_facts(question) == ("deadline",)
        and not NAMES_LIMIT.search(lead)
        and not _ITEM.match(lead.lstrip())
    ):
        # a time limit asked ("paling lambat", "batas waktu setor") and a lead naming a period only by its
        # name, no limit, date or moment: "Kapan paling lambat setor PPh 23 yang sudah dipotong?" was answered
        # with PP 94/2010 Pasal 16's crediting "pada tahun pajak dilakukan pemotongan" (session 67, a probe of
        # our own; the knowledge base holds no PPh 23 payment date an anonymous reader may read).  Only when
        # the limit is all it asks (a rate asked first is answered by the lead), and not of a list item, whose
        # lead-in may state the limit
        return "deadline"
    if (
        fact == "deadline"
        and REFUNDS_EXCESS.search(lead)
        and not ASKS_REFUND.search(lexicon.plain_question(question))
    ):
        # the time limit shown is the one for returning an excess withheld, not the one asked: "Kapan batas
        # setor PPh 21 yang sudah dipotong?" was answered with PMK 168/2023 Pasal 21 ayat (1)'s "kelebihan ...
        # wajib dikembalikan ... paling lambat akhir bulan berikutnya" (session 62, a probe of our own; the
        # knowledge base holds no PPh 21 payment date an anonymous reader may read)
        return "refund"
    act = asked_tax_act(question)
    if act is not None and quotes and all(tax_act_match(act, q) < 0 for q in quotes):
        # a deadline or sanction for paying answered only with rules for filing a return (or the reverse):
        # the other duty's deadline ("Penyampaian ... Surat Pemberitahuan ... paling lambat") shares every
        # other word of the question, and is another date
        return "duty"
    if lead and other_tax_without_fact(question, lead):
        # the lead is another tax's rule and states nothing asked: "Kapan bukti potong PPh 23 harus
        # diberikan?" was answered with PMK 168/2023's duty to give PPh 21 / PPh 26 slips, no time in it
        # (session 60, a probe of our own; the knowledge base holds no PPh 23 slip deadline)
        return "other_tax"
    if penalty and lead and procedure_unasked(asked_procedures(question), lead):
        # the leading sanction holds within a procedure the asker is not in ("lupa dipotong, ada sanksinya?"
        # led by the bunga of an assessment, "dalam Surat Ketetapan Pajak Kurang Bayar"): UU KUP sets a
        # sanction per procedure, and whether this one applies to their case is for the tax team
        return "procedure"
    return None


# -- the asked duty and the asked sanction (session 27: "the first line misses the answer although the right
# quote is retrieved") ------------------------------------------------------------------------------------

#: a unit that sets the duty to pay (deposit) a tax, or to file a return: kb/data/lexicon.yaml
#: ``passage_cues.pays`` / ``passage_cues.files``
PAYS = lexicon.passage_cue("pays")
FILES = lexicon.passage_cue("files")
#: a question about paying, or about filing: ``question_kinds.paying`` / ``question_kinds.filing``
_ASKS_PAYING = lexicon.question_kind("paying")
_ASKS_FILING = lexicon.question_kind("filing")


def asks_penalty(question: str) -> bool:
    """The question asks what the sanction is ("apa sanksinya?", "dendanya berapa?", "is it fined?")."""
    return lexicon.asks_penalty(lexicon.plain_question(question))


def asked_tax_act(question: str) -> str | None:
    """``pay`` or ``file`` when a deadline or sanction question is about paying a tax or about filing a
    return, and not both.  The two duties have their own deadlines (UU KUP Pasal 9 ayat (1): 15 days after
    the Masa for paying; Pasal 3 ayat (3): 20 days for filing the SPT Masa) and their own sanctions (bunga of
    Pasal 9 ayat (2a) against denda of Pasal 7); the rule of the other duty shares every other word of such a
    question ("Masa Pajak", "paling lama ... hari setelah akhir ..."), so it out-covered the asked rule."""
    plain = lexicon.plain_question(question)
    if asked_fact(plain) != "deadline" and not asks_penalty(plain):
        return None
    paying, filing = bool(_ASKS_PAYING.search(plain)), bool(_ASKS_FILING.search(plain))
    if paying == filing:
        return None
    return "pay" if paying else "file"


def tax_act_match(act: str | None, text: str) -> float:
    """+1 when the text sets the asked duty (paying, filing), -1 when it sets only the other one, 0 when it
    names both or neither."""
    if act is None:
        return 0.0
    pays, files = bool(PAYS.search(text)), bool(FILES.search(text))
    if pays == files:
        return 0.0
    return 1.0 if pays == (act == "pay") else -1.0


def passage_tax_act_match(act: str | None, text: str, by_sentence: bool = True) -> float:
    """:func:`tax_act_match` of a passage; one naming both duties matches the asked one when a sentence of it
    stating a time limit sets that duty (``by_sentence``; not for a sanction question, whose interest runs
    from one duty's day to the other's, "setelah tanggal jatuh tempo penyampaian Surat Pemberitahuan").

    UU PPN Pasal 15A sets the VAT payment day in ayat (1) and the filing day in ayat (2): as a whole it named
    both and matched neither, so "When is the deadline to pay monthly VAT?" was led by UU PPN Pasal 9 ayat
    (6f), a repayment of input tax (session 68, a probe of our own)."""
    whole = tax_act_match(act, text)
    if whole or act is None or not by_sentence or not (PAYS.search(text) and FILES.search(text)):
        return whole
    marks = {_subject_act_match(act, u.text) for u in split_units(text) if DEADLINE_VALUE.search(u.text)}
    return 1.0 if 1.0 in marks else 0.0


def _subject_act_match(act: str, sentence: str) -> float:
    """:func:`tax_act_match` of one sentence, whose duty named first is its subject when it names both
    ("Penyetoran Pajak Pertambahan Nilai ... harus dilakukan paling lama ... dan sebelum Surat Pemberitahuan
    Masa ... disampaikan" sets the payment day)."""
    pays, files = PAYS.search(sentence), FILES.search(sentence)
    if pays and files:
        return 1.0 if (pays.start() < files.start()) == (act == "pay") else -1.0
    return tax_act_match(act, sentence)


def sanction_fit(question: str, text: str) -> float:
    """For a question that asks the sanction: +1 when the text states one, -1 when it does not (the rule
    whose breach is sanctioned shares the question's words: "terlambat menyetor PPh 23, apa sanksinya?" is
    not answered by the PPh 23 rate).  For a deadline, amount or rate question that names no sanction: -1
    when the text states a sanction (its time limit is how long interest runs, "dikenakan paling lama 24
    (dua puluh empat) bulan", not the deadline asked; its amount is the shortfall plus the sanction, not the
    tariff asked).  0 otherwise."""
    return sanction_fit_of(sanction_ask(question), text)


def sanction_ask(question: str) -> str | None:
    """The question side of :func:`sanction_fit`, read once per question: ``sanction`` (it asks the sanction),
    ``deadline`` (it asks a deadline, an amount or a rate and names no sanction) or None.  The sanction for
    a duty shares the duty's words and states a figure of its own ("Jumlah kekurangan Bea Meterai ...
    ditambah sanksi administratif sebesar 100%" led "bea meterai berapa?", not the Rp10.000 tariff)."""
    plain = lexicon.plain_question(question)
    if asks_penalty(plain):
        return "sanction"
    if asked_fact(plain) in ("deadline", "amount", "rate") and not ASKS_SANCTION.search(plain):
        return "deadline"
    return None


def sanction_fit_of(ask: str | None, text: str) -> float:
    """The text side of :func:`sanction_fit` for a question read by :func:`sanction_ask`.  Asked the sanction,
    a text fits when it imposes one (``passage_cues.imposes_sanction``), not when it only names sanctions as
    the subject of another rule ("Sanksi administrasi ... tidak boleh dikreditkan")."""
    if ask is None:
        return 0.0
    if ask == "sanction":
        return 1.0 if IMPOSES_SANCTION.search(text) else -1.0
    return -1.0 if STATES_SANCTION.search(text) else 0.0


def lead_fact(question: str) -> str | None:
    """The kind of fact the leading quote must state: :func:`asked_fact`, except that a question asking the
    sanction for missing a deadline ("sanksinya kalau lewat jatuh tempo?", "penalty for paying after the due
    date?") asks the sanction: its deadline words name the breach, and the sanction ayat states no time limit
    of its own (UU KUP Pasal 9 ayat (2a): "setelah tanggal jatuh tempo ... dikenai sanksi administratif
    berupa bunga")."""
    kind = asked_fact(question)
    return None if kind == "deadline" and asks_penalty(question) else kind


def other_tax_without_fact(question: str, quote: str) -> bool:
    """The quote names only taxes other than those the question asks about, and does not state the kind of
    fact asked (a rate, a time limit, an amount).  Either alone is no reason to doubt a lead: a PPh 26 rate
    answers a PPh 23 question on a vendor abroad, and a rule may state the asked time without naming its
    tax."""
    kind = lead_fact(question)
    if kind not in ("rate", "deadline", "amount"):
        return False
    return _other_tax_unit(asked_tax_names(question), quote) and not states_asked(question, kind, quote)


#: a sanction named as a condition of another act, with no measure of its own: "c. Wajib Pajak dikenai sanksi
#: administratif berupa denda dan/atau bunga;" (UU KUP Pasal 14 ayat (1): when a tax collection letter may be
#: issued) states no sanction for the breach asked; ayat (4) does ("denda sebesar 1% ... dari Dasar Pengenaan
#: Pajak").  Session 52, a probe of our own: "apa sanksi kalau tidak membuat faktur pajak?" was led by huruf c
_UNMEASURED_SANCTION = re.compile(
    r"^\s*(?:[a-z]\.\s+)?(?:Wajib\s+Pajak\s+)?dikenai\s+sanksi\s+administratif\s+berupa\s+"
    r"denda\s+dan/atau\s+bunga\s*[;.]?\s*$",
    re.I,
)


def states_asked(question: str, kind: str | None, text: str) -> bool:
    """The text states the kind of fact asked (:func:`states_fact`) and, when a sanction is asked, a
    sanction: what the leading quote must contain."""
    if not states_fact(kind, text):
        return False
    if kind == "deadline" and other_unit_only(asked_unit(question), text):
        return False
    if not asks_penalty(question):
        return True
    if not STATES_SANCTION.search(text) or _UNMEASURED_SANCTION.search(text):
        return False
    # the interest asked is a sanction stated as interest: a 75% "kenaikan" is another sanction
    return not ASKS_LATE_INTEREST.search(lexicon.plain_question(question)) or bool(
        re.search(r"\bbunga\b", text, re.I)
    )


#: "berapa hari/bulan/tahun", "how many days/months/years" (kb/data/lexicon.yaml ``question_kinds.time_unit``)
_ASKED_UNIT = lexicon.question_kind("time_unit")
#: a duration an act writes with its unit: "10 (sepuluh) tahun", "3 (tiga) bulan", "183 hari"
_DURATION = re.compile(r"\b\d+\s*(?:\([a-z ]+\)\s*)?(hari|bulan|tahun)\b", re.I)
_DATE_NAMED = re.compile(r"\btanggal\s+\d", re.I)


def asked_unit(question: str) -> str | None:
    """The unit a "how many days / months / years" question counts in (``hari``, ``bulan``, ``tahun``); an
    English unit is read through the lexicon's English-to-Indonesian pairs."""
    m = _ASKED_UNIT.search(lexicon.plain_question(question))
    if not m:
        return None
    unit = m.group(1).lower()
    return (lexicon.default().en_id.get(unit) or (unit,))[0]


def other_unit_only(unit: str | None, text: str) -> bool:
    """Every duration the text states is in another unit than the one asked, and it names no date: "10
    (sepuluh) tahun" does not answer "berapa hari?" (session 49: the 10-year bookkeeping rule answered a probe
    of our own about the days of presence that make a resident, a one-month payment term one about the years
    within which an assessment may be issued)."""
    if unit is None:
        return False
    units = {m.group(1).lower() for m in _DURATION.finditer(time_limits_of(text))}
    return bool(units) and unit not in units and not _DATE_NAMED.search(text)


#: the figures that can state how much something is (dates and Pasal/ayat numbers cannot)
_ANY_QUANTITY = frozenset({"amount", "percent", "duration", "number"})


def states_fact(kind: str | None, text: str) -> bool:
    """The text states the kind of fact asked (a percentage for a rate, a time limit for a deadline)."""
    if kind == "rate":
        return states_rate(text)
    if kind == "deadline":
        return bool(DEADLINE_VALUE.search(time_limits_of(text)))
    if kind == "amount":
        return any(f.kind in ("amount", "percent") for f in extract_figures(text))
    return True


#: where a worked example opens inside prose (kb/data/lexicon.yaml ``passage_cues.example_opener``)
EXAMPLE_OPENER = lexicon.passage_cue("example_opener")
#: ... and where one opens that runs to the next part of the elucidation (``passage_cues.example_heading``)
EXAMPLE_HEADING = lexicon.passage_cue("example_heading")
#: the next part of an elucidation ("Huruf e", "Ayat (2)", "Angka 3"): a worked example ends there.  Written
#: with a capital, unlike a cross-reference inside a sentence ("sebagaimana dimaksud pada ayat (1) huruf a")
_NEXT_PART = re.compile(r"\b(?:Ayat\s*\(\s*\d+[a-z]?\s*\)|Huruf\s+[a-z]\b|Angka\s+\d+\b)")


def example_narrative(chunk_text: str, quote: str) -> bool:
    """The quote narrates a worked example inside prose: it lies between an example's heading ("Contoh 1
    (...):", "diberikan contoh sebagai berikut") and the next part of the elucidation, or between an opener
    ("Misalnya,", "Sebagai contoh") and that part and states the case's own figures (a rupiah amount) or names
    its placeholder parties ("PT A", "Tuan B"): after a bare "Misalnya" the prose returns to the rule.

    "Mobil tersebut dijual dengan harga Rp60.000.000,00" is a fact of an illustration, not a rule; quoted as
    the answer to "berapa nilai ...?" it answers with a made-up case.  A chunk the chunker flagged as an
    example (``Chunk.is_example``) is handled by ``kb.chunking.textspan.example_start``; this finds the
    examples written inside one long paragraph of an elucidation, which the chunker does not flag."""
    q = normalize_ws(quote)
    text = normalize_ws(chunk_text)
    pos = text.find(q)
    if pos < 0:
        return False
    own_case = _states_own_case(q)
    for opener, needs_case in ((EXAMPLE_HEADING, False), (EXAMPLE_OPENER, True)):
        if needs_case and not own_case:
            continue
        for m in opener.finditer(text):
            if m.start() > pos:
                # an example opening inside the quote, whose own case follows: the quote runs on from the
                # rule into the illustration ("6. keuntungan karena pembebasan utang. Sesuai dengan ketentuan
                # ini, misalnya suatu badan ... membayarkan royalti sebesar Rp100.000.000,00 ...": session
                # 59, a probe of our own was told "20% (dari Rp100)")
                if m.start() < pos + len(q) and _states_own_case(text[m.start() : pos + len(q)]):
                    return True
                break
            end = _NEXT_PART.search(text, m.end())
            if end is None or end.start() > pos:
                return True
    return False


def _states_own_case(text: str) -> bool:
    """The text names a worked example's parties or states its amounts."""
    return bool(HYPOTHETICAL_PARTY.search(text) or REGULATION_PLACEHOLDER.search(text)) or _states_money(text)


def _illustrates(hit: Hit) -> bool:
    """A worked example: flagged by the chunker, or naming the placeholder parties of one."""
    text = hit.chunk.text
    if hit.chunk.is_example or HYPOTHETICAL_PARTY.search(text):
        return True
    if hit.chunk.kind == "lampiran" and len(_MONTH_ROW.findall(text)) >= 3:
        return True
    return hit.doc.layer == "regulation" and bool(REGULATION_PLACEHOLDER.search(text))


#: a rule that acts only within a dated window: "dilakukan paling lambat tanggal 28 Pebruari 2009" (KUP
#: Pasal 37A's 2008 amnesty), "berlaku sampai dengan tanggal 31 Desember 2010", "disampaikan ... sejak tanggal
#: 1 Januari 2022 sampai dengan tanggal 30 Juni 2022" (the 2022 voluntary disclosure)
_WINDOW_ACT = r"\b(?:dilakukan|disampaikan|diajukan|berlaku(?:nya)?|diberikan|berakhir)\b[^.;]{0,80}?"
_WINDOW_END = re.compile(
    rf"{_WINDOW_ACT}(?:paling\s+lambat|sampai\s+dengan)\s+tanggal\s+(\d{{1,2}}\s+[A-Za-z]+\s+(?:19|20)\d\d)",
    re.I,
)
#: a window ending with a tax year: "daluwarsa penetapan untuk ... Tahun Pajak 2007 dan sebelumnya ...
#: berakhir paling lama pada akhir Tahun Pajak 2013" (UU 28/2007 Pasal II, the old periods' limitation)
_YEAR_END_WINDOW = re.compile(
    rf"{_WINDOW_ACT}"
    r"(?:paling\s+lambat|paling\s+lama|sampai\s+dengan)\s+(?:pada\s+)?akhir\s+Tahun(?:\s+Pajak)?\s+((?:19|20)\d\d)\b",
    re.I,
)


#: a transitional window counted from the act's own commencement: "masih dapat digunakan sampai dengan
#: jangka waktu 1 (satu) tahun setelah Undang-Undang ini mulai berlaku" (UU 10/2020 Pasal 28: the old stamps
#: and their Rp9.000 minimum, for 2021 only)
_RELATIVE_WINDOW_END = re.compile(
    r"\b(?:sampai\s+dengan|paling\s+lama)\s+(?:jangka\s+waktu\s+)?(\d{1,2})\s*\([a-z\s]+\)\s*(tahun|bulan)\s+"
    r"(?:setelah|sejak|terhitung\s+sejak)\s+(?:Undang-\s*Undang|Peraturan(?:\s+\w+){0,2})\s+ini\s+mulai\s+berlaku",
    re.I,
)


def _window_ends(text: str, in_force_from: dt.date | None) -> list[dt.date]:
    ends = [d for m in _WINDOW_END.finditer(text) if (d := parse_indonesian_date(m.group(1)))]
    ends += [dt.date(int(m.group(1)), 12, 31) for m in _YEAR_END_WINDOW.finditer(text)]
    if in_force_from is not None:
        for m in _RELATIVE_WINDOW_END.finditer(text):
            months = int(m.group(1)) * (12 if m.group(2).lower() == "tahun" else 1)
            year, month = divmod(in_force_from.month - 1 + months, 12)
            ends.append(in_force_from.replace(year=in_force_from.year + year, month=month + 1, day=1))
    return ends


def window_closed(text: str, as_of: dt.date, in_force_from: dt.date | None = None) -> bool:
    """The rule applies only within dated windows that all closed before ``as_of``: a closed amnesty or
    transitional window still reads like a current rule ("... dapat diberikan pengurangan atau penghapusan
    sanksi administrasi berupa bunga") and must not answer a question about today.  A window counted from the
    act's commencement ("1 (satu) tahun setelah Undang-Undang ini mulai berlaku") ends that long after
    ``in_force_from`` (the first of that month: a window is never stretched past its end)."""
    ends = _window_ends(text, in_force_from)
    return bool(ends) and max(ends) < as_of


def only_sanction_rates(question: str, text: str) -> bool:
    """Every rate the text states is a sanction's, and the question asks no sanction: "Berapa tarif bea
    meterai?" is not answered by the 100% surcharge on stamp duty underpaid (UU 10/2020 Pasal 11 ayat (3))."""
    if ASKS_SANCTION.search(lexicon.plain_question(question)) or not SANCTION_RATE.search(text):
        return False
    return not states_rate(SANCTION_RATE.sub(" ", text))


_FORM_INSTRUCTION = lexicon.passage_cue("form_instruction")
#: a delegation clause ("Ketentuan lebih lanjut mengenai ... diatur dengan Peraturan Pemerintah"), and a
#: question asking where a matter is regulated (which such a clause answers)
_DELEGATION = lexicon.passage_cue("delegation")
_ASKS_REGULATION = lexicon.question_kind("asks_regulation")
_ASKS_FORM = lexicon.question_kind("form_filling")


def form_instruction(hit: Hit, question: str) -> bool:
    """A Lampiran passage that tells how to fill in a form's fields, for a question that is not about a form.

    Why: a PMK's Lampiran holds its forms and their "Petunjuk Pengisian"; "Nomor (7) : Diisi dengan nama
    negara ..." shares words with a residence question but states no rule, and it led one."""
    return (
        hit.chunk.kind == "lampiran"
        and bool(_FORM_INSTRUCTION.search(hit.chunk.text))
        and not _ASKS_FORM.search(lexicon.plain_question(question))
    )


def delegates(hit: Hit, question: str) -> bool:
    """The passage is a delegation clause, or an item of its list, for a question that does not ask where the
    matter is regulated.

    Why: "Ketentuan lebih lanjut mengenai ... a. ... natura dan/atau kenikmatan ...; diatur dengan atau
    berdasarkan Peraturan Pemerintah" (UU PPh Pasal 32C) names what a question asks and states no rule about
    it; the rule is in the act or the regulation it delegates to."""
    lead_in = _item_lead_in(hit)
    opening = f"{lead_in}\n{hit.chunk.text}" if lead_in else hit.chunk.text
    return bool(_DELEGATION.search(opening.lstrip())) and not _ASKS_REGULATION.search(
        lexicon.plain_question(question)
    )


#: "Pada saat Peraturan Menteri ini mulai berlaku: a. Peraturan Menteri Keuangan Nomor ... tentang ...; ...
#: dicabut dan dinyatakan tidak berlaku": the opening of a transitional clause (closing provisions)
_TRANSITIONAL_OPENING = re.compile(rf"{TRANSITIONAL}[,:]", re.I)
#: a list item naming an act by its title ("a. Peraturan Menteri Keuangan Nomor 250/PMK.03/2008 tentang ...")
_ACT_TITLE_ITEM = re.compile(
    r"^\s*(?:[a-z]\.|\d{1,2}\.)\s+(?:Peraturan|Undang-Undang|Keputusan|Surat\s+Edaran)\b.{0,160}?\bNomor\b",
    re.S,
)
ASKS_VALIDITY = lexicon.question_kind("asks_validity")
REVOKES = lexicon.passage_cue("revokes")


@dataclass(frozen=True)
class TransitionalClause:
    """A passage opening "Pada saat ... ini mulai berlaku" (or a list item under that opening): its own text
    and where its items start in it (after the opening, or at 0 when the opening is the item's lead-in)."""

    text: str
    items_at: int

    def revokes_acts(self) -> bool:
        """Its items are acts it revokes or keeps in force ("a. Peraturan Menteri Keuangan Nomor ... tentang
        ...; ... dicabut dan dinyatakan tidak berlaku")."""
        return bool(REVOKES.search(self.text) or _ACT_TITLE_ITEM.search(self.text[self.items_at :]))


def transitional_opening(hit: Hit, question: str) -> TransitionalClause | None:
    """The hit read as a transitional provision, for a question not asking whether or since when a rule
    holds; None when it is none or the question asks that.

    Such a provision settles the cases caught between the old rule and the new one ("Pada saat Peraturan
    Pemerintah ini mulai berlaku, atas: a. ... berlaku ketentuan sebagaimana dimaksud dalam Pasal 31") and
    states the rule itself elsewhere (session 50: a probe of our own asking when VAT on a service falls due
    was answered with PP 49/2022's transitional Pasal 35 instead of UU PPN Pasal 11). One that revokes acts is
    padding (:meth:`TransitionalClause.revokes_acts`): its items are other acts' titles, which share a
    question's words ("Besarnya Biaya Jabatan atau Biaya Pensiun ...") and state no rule on them (issue 12
    item 4; session 49, a pension-cost probe was answered with PMK 168/2023 Pasal 24)."""
    if ASKS_VALIDITY.search(question):
        return None
    text = _own_text(hit)
    in_text = _TRANSITIONAL_OPENING.search(text[:240])
    if in_text:
        return TransitionalClause(text, in_text.end())
    if _TRANSITIONAL_OPENING.search(_item_lead_in(hit)):
        return TransitionalClause(text, 0)
    return None


def revocation_clause(hit: Hit, question: str) -> bool:
    """The closing clause that revokes acts or keeps them in force, for a question not asking whether a rule
    still holds (:func:`transitional_opening`)."""
    clause = transitional_opening(hit, question)
    return clause is not None and clause.revokes_acts()


def transitional_clause(hit: Hit, question: str) -> bool:
    """A transitional provision, for a question not asking whether or since when a rule holds
    (:func:`transitional_opening`)."""
    return transitional_opening(hit, question) is not None


def is_padding(text: str) -> bool:
    """Never a leading claim: "Cukup jelas.", transitional lead-ins, amendment formulae, examples."""
    return bool(PADDING.search(text) or EXAMPLE_TEXT.search(text) or HYPOTHETICAL_PARTY.search(text))


_ITEM = re.compile(r"^(?:[a-z][.)]|\d{1,3}\.|[-*•])\s+")
_AYAT_MARK = re.compile(r"^\(\d{1,2}[a-z]?\)\s*")
_SENT_SPLIT = re.compile(r"(?<=[.;?!])\s+(?=(?:[A-Z(\"]|[a-z]\.\s))")
_ITEM_DATE = re.compile(
    r"mulai\s+berlaku\s+(?:paling\s+lambat\s+)?pada\s+tanggal\s+(\d{1,2})\s+([A-Za-z]+)\s*((?:19|20)\d\d)",
    re.I,
)
MAX_CLAIMS = 5
#: Passages of laws other than the lead's (company policy aside) an answer may add: on both halves of our
#: eval set 7% of such claims cited a gold location (beside 65% of leads); each one is a citation the
#: reader must check for nothing.
MAX_OTHER_LAWS = 1


def _refers_to_ayat(text: str, ayat: str | None) -> bool:
    """Whether ``text`` cites ayat ``ayat`` of its own Pasal ("sebagaimana dimaksud pada ayat (1)",
    "ayat (1) dan ayat (2)", "ayat (1a)")."""
    if not ayat:
        return False
    return re.search(rf"\bayat\s*\(\s*{re.escape(ayat)}\s*\)", text, re.IGNORECASE) is not None


def _as_relevant(concepts: Sequence[Concept], lead: Hit, sibling: Hit) -> bool:
    """Whether ``sibling`` is at least as relevant to the question as the lead: it names a concept of the
    question the lead does not (a part the lead leaves open), or the same ones (the other case of a parallel
    pair, "Apabila ... Pajak Keluaran lebih besar ..." beside "... Pajak Masukan lebih besar ...": which of
    the two answers is not for word overlap to decide)."""
    lead_text, own = _own_text(lead), _own_text(sibling)
    lang = sibling.doc.language
    mine = {i for i, c in enumerate(concepts) if coverage([c], own, lang) > 0}
    theirs = {i for i, c in enumerate(concepts) if coverage([c], lead_text, lang) > 0}
    return bool(mine) and not mine < theirs


def _linked_ayat(lead: Hit, sibling: Hit) -> bool:
    """Whether two ayat of one Pasal are linked: one cites the other, or either is the Pasal whole (no ayat).

    The lead's conditions are the ayat it builds on ("Pemotongan pajak sebagaimana dimaksud pada ayat (1)
    tidak dilakukan atas ...") and the ayat that build on it; a sibling ayat linked to neither, and naming
    nothing of the question the lead leaves out (:func:`_as_relevant`), states a different rule of the
    same Pasal.
    """
    a, b = lead.chunk, sibling.chunk
    if not a.ayat or not b.ayat or a.ayat == b.ayat:
        return True
    return _refers_to_ayat(a.text, b.ayat) or _refers_to_ayat(b.text, a.ayat)


#: Chunk kinds never quoted as an answer (title blocks, signatures).
SKIP_KINDS = frozenset({"preamble", "closing"})
MAX_UNIT_CHARS = 700
#: How far below the best-scored hit a rule may be and still lead because it states the asked fact.
LEAD_MARGIN = 0.5
#: A hit is about the question when at least this share of its topic words appear in it.
MIN_COVERAGE = 0.4
#: ... and at least this share of the best hit's coverage (drops passages that match only in passing).
RELATIVE_COVERAGE = 0.6


@dataclass(frozen=True)
class Unit:
    """One quotable piece of a chunk: ``quote`` is verbatim chunk text."""

    quote: str
    text: str
    cue: bool
    date: dt.date | None = None
    #: a table row's first cell: what the row is about ("Perubahan rekening bank")
    label: str = ""


def question_concepts(request: ComposeRequest) -> list[Concept]:
    """Topic concepts of the question (:func:`kb.lexical.question_concepts`, the one implementation),
    keeping the words of a named document, from the sentences that ask (a story around the question gives
    facts, not what the answer must state)."""
    concepts = lexical.question_concepts(request.plan, request.question, keep_named_refs=True, focus_ask=True)
    return _tax_in_sanction_law(_case_words_in_tax(concepts, request), request)


def _case_words_in_tax(concepts: list[Concept], request: ComposeRequest) -> list[Concept]:
    """In a rate question that names a tax, a passage about the tax covers the words naming the case's
    transaction, document or parties (kb/data/lexicon.yaml ``case_words``): a rate is set per tax and object,
    so the rate provision never names the "transaksi" or the "invoice" it is asked through."""
    case = {lexical.stem(w) for w in lexicon.case_words()}
    if not case or lead_fact(request.question) != "rate" or not request.plan.tax_types:
        return concepts
    names = {tuple(lexical.stem(t) for t in tokenize(tt)) for tt in request.plan.tax_types}
    tax = [c for c in concepts if c & names]
    if not tax:
        return concepts
    phrases = frozenset().union(*tax)
    return [c | phrases if any(len(p) == 1 and p[0] in case for p in c) else c for c in concepts]


#: taxes whose administrative sanctions UU KUP sets (Bea Meterai and PBB set their own)
_KUP_TAXES = frozenset(
    {"PPh 21", "PPh 22", "PPh 23", "PPh 25", "PPh 26", "PPh 4(2)", "PPh Final", "PPN", "PPnBM"}
)


def _tax_in_sanction_law(concepts: list[Concept], request: ComposeRequest) -> list[Concept]:
    """In a question asking the sanction for a tax ("lupa potong PPh 23, sanksinya?"), a passage of the law
    that sets the sanctions (lexicon ``law_topics`` with ``sanction_pasal``: UU KUP) covers the tax's name.

    Why: UU KUP's sanctions hold for every tax it administers and name none ("Pembayaran atau penyetoran pajak
    ... setelah tanggal jatuh tempo ... dikenai sanksi administratif berupa bunga"); judged on the tax's name,
    every KUP sanction missed a concept, and a passage of UU PPh that names "Pasal 23" and the word "sanksi"
    ("Sanksi administrasi ... tidak boleh dikreditkan") answered instead.  A KUP passage is known by the act
    its location names ("Pasal 9 ayat (2a) UU 6/1983 (...)", :func:`_own_text`)."""
    taxes = [t for t in request.plan.tax_types if t in _KUP_TAXES]
    if not taxes or not asks_penalty(request.question):
        return concepts
    laws = {
        tuple(lexical.stem(t) for t in tokenize(topic.law))
        for topic in lexicon.law_topics()
        if topic.sanction_pasal
    }
    names = {tuple(lexical.stem(t) for t in tokenize(tt)) for tt in taxes}
    return [c | laws if c & names else c for c in concepts]


def _item_lead_in(hit: Hit) -> str:
    """The sentence opening the list ``hit`` is an item of: what the item states is read with it."""
    return hit.lead_in if hit.chunk.kind != "ayat" else ""


def _sibling_lead_in(hit: Hit) -> str:
    """The sibling ayat an ayat names its subject by (kb.retrieve carries it as the ayat's lead-in): what the
    ayat is *about*, for its relevance, not what it states or delegates."""
    return hit.lead_in if hit.chunk.kind == "ayat" else ""


#: a rule naming its subject by another Pasal of its own act, in its opening: "Dokumen sebagaimana dimaksud
#: dalam Pasal 3 dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00" (not "Pasal 3 Undang-Undang ...",
#: another act's)
_SUBJECT_BY_PASAL = re.compile(
    r"^(?:Pasal\s+\d+[A-Z]?\s+)?(?:\(\d+[a-z]?\)\s*)?[^.;:]{0,80}?\bsebagaimana\s+dimaksud\s+dalam\s+"
    r"Pasal\s+(\d+[A-Z]?)\b(?!\s+(?:ayat\s*\(\w+\)\s*)?(?:huruf\s+\w\s+)?(?:Undang|Peraturan|UU\b|PP\b))"
)


#: a class a rule's list names by a letter or number: "kategori B", "kelompok 1", "golongan II", "category A"
_CLASS = re.compile(
    r"\b((?i:kategori|kelompok|golongan|categor(?:y|ies)|group))\s+([A-Z]|\d{1,2}|[IVX]{1,4})\b"
)
_CLASS_EN = {"category": "kategori", "categories": "kategori", "group": "kelompok"}


def asked_classes(question: str) -> frozenset[tuple[str, str]]:
    """The classes the question names by letter or number ("kategori B", "Kelompok 1"), as (kind, label)."""
    return frozenset(
        (_CLASS_EN.get(m.group(1).lower(), m.group(1).lower()), m.group(2).upper())
        for m in _CLASS.finditer(question)
    )


def class_match(classes: frozenset[tuple[str, str]], text: str) -> float:
    """1 when the text names a class the question names ("b. kategori B ..."), else 0.  (Marking down an item
    of another class too changed a blind-set row's claims; measured in session 52.)"""
    return float(bool(classes) and bool(asked_classes(text) & classes))


def _pasal_stated_for(hit: Hit, kind: str | None) -> str | None:
    """The Pasal of its own act that ``hit`` names its subject by (:data:`_SUBJECT_BY_PASAL`) when it states
    the rate or time limit asked (``kind``), else None: "Dokumen sebagaimana dimaksud dalam Pasal 3 dikenai
    ... tarif tetap sebesar Rp10.000,00" states Pasal 3's rate.  An amount asked ("kuitansi di atas
    berapa?") may be a bound of that Pasal itself, not the figure the rule states for it."""
    if kind not in ("rate", "deadline") or hit.chunk.kind == "penjelasan":
        return None
    m = _SUBJECT_BY_PASAL.search(hit.chunk.text)
    if m is None or m.group(1) == hit.chunk.pasal or not states_fact(kind, hit.chunk.text):
        return None
    return m.group(1)


def _states_for(hit: Hit, referent: Hit, kind: str | None) -> bool:
    """``hit`` states the rate or time limit asked (``kind``) for ``referent``'s Pasal
    (:func:`_pasal_stated_for`)."""
    return hit.chunk.doc_id == referent.chunk.doc_id and _pasal_stated_for(hit, kind) == referent.chunk.pasal


def _referent_texts(hits: Sequence[Hit], kind: str | None) -> dict[str, str]:
    """For each hit stating the rate or time limit asked for another Pasal of its act
    (:func:`_pasal_stated_for`), the text of that Pasal's passages among ``hits``: what the rule is about,
    for its relevance.  UU Bea Meterai Pasal 5
    states the rate of "Dokumen sebagaimana dimaksud dalam Pasal 3"; a question on the stamp duty of a
    contract names the document, which only Pasal 3 lists (session 52, a probe of our own: "tarif bea meterai
    untuk kontrak berapa?" was answered with Pasal 3's futures contracts, the rate left out as irrelevant)."""
    stated = {
        h.chunk.id: (h.chunk.doc_id, pasal) for h in hits if (pasal := _pasal_stated_for(h, kind)) is not None
    }
    if not stated:
        return {}
    by_pasal: dict[tuple[str, str], list[str]] = {}
    for h in hits:
        if h.chunk.pasal and h.chunk.kind != "penjelasan":
            by_pasal.setdefault((h.chunk.doc_id, h.chunk.pasal), []).append(h.chunk.text)
    return {cid: "\n".join(by_pasal[where]) for cid, where in stated.items() if where in by_pasal}


def _own_text(hit: Hit) -> str:
    """What a hit's relevance is judged on: the law's number and short name ("UU PPN"), location and text, and
    the income tax a Pasal of UU PPh is (:func:`located_article`: its Pasal 23 is "PPh 23" in any amending
    act; a Pasal 23 of another act names no tax, kb.lexical reads a tax's article name only beside it).  The
    title of the act an instruction amends (:data:`AMENDED_TITLE`), or of an act cited with its gazette number
    (:data:`CITED_TITLE`), is no word of the passage's."""
    article = "".join(f"{name}\n" for name in sorted(located_article(hit)))
    text = _without_titles(hit.chunk.text)
    return f"{hit.doc.number}\n{hit.doc.short_title or ''}\n{article}{hit.chunk.location}\n{text}"


# a passage is judged several times per question (relevance, focus, siblings): its titles are blanked once
@functools.lru_cache(maxsize=1024)
def _without_titles(text: str) -> str:
    """``text`` with the titles of the acts it cites or amends blanked (:data:`CITED_TITLE`,
    :data:`AMENDED_TITLE`)."""
    return CITED_TITLE.sub(" ", AMENDED_TITLE.sub(" ", text))


#: an act cited by its title and gazette number, as revocation lists and amending acts cite ("f. Peraturan
#: Menteri Keuangan Nomor 48 Tahun 2023 tentang ... Emas Batangan ... (Berita Negara Republik Indonesia Tahun
#: 2023 Nomor 358)"): the title's words are the cited act's
CITED_TITLE = re.compile(r"\btentang\s+[^()]{3,600}?(?=\(\s*(?:Berita|Lembaran)\s+Negara\b)", re.I)
#: an amending act's instruction naming the act it amends by its title: "Beberapa ketentuan dalam Peraturan
#: Menteri Keuangan Nomor 48 Tahun 2023 tentang Pajak Penghasilan dan/atau Pajak Pertambahan Nilai atas
#: Penjualan/Penyerahan Emas Perhiasan, Emas Batangan, ... diubah sebagai berikut:".  The title's words cover
#: a question about gold bullion, yet the passage holding the instruction states another rule (PMK 11/2025's
#: "harga jual Agunan" led "Apakah penjualan emas batangan kena PPN?"; session 58, a probe of our own)
AMENDED_TITLE = re.compile(
    r"\b(?:mengubah\s+)?beberapa\s+ketentuan\s+dalam\s+(?:peraturan|undang)[^:]{0,900}?\bdiubah"
    r"(?:\s+sebagai\s+berikut|[^:]{0,120}?berbunyi\s+sebagai\s+berikut)\s*:",
    re.I,
)


def unasked_focus(request: ComposeRequest, concepts: list[Concept], relevant: Sequence[Hit]) -> bool:
    """No relevant passage names what the question asks about, only words of the case told around it.

    Two ways: the focus (:func:`kb.lexical.focus_word`: "Bagaimana *verifikasi* perubahan rekening bank
    vendor?") is in none of them, though a provision shares "bank" and "perubahan"; or all they share are
    the asking company's codes ("What mark-up does SNR charge SNL?" against an FAQ that names SNR and SNL).
    A word of the story absent from the law ("vendor kami", "bulan lalu") is never the focus: no decline.
    A focus that is an untranslated English word is judged only when every passage is English.
    """
    if not concepts or not relevant:
        return False
    codes = frozenset(e.upper() for h in request.hits for e in h.doc.entities)
    name_stems = {(lexical.stem(c.lower()),) for c in codes}
    named = [c for c in concepts if c <= name_stems]
    if named and len(named) < len(concepts):
        content = [c for c in concepts if c not in named]
        if not any(coverage(content, _own_text(h), h.doc.language) > 0 for h in relevant):
            return True
    word = lexical.focus_word(request.question, codes)
    if word is None:
        return False
    focus = _concept_of(word, concepts)
    if focus is None:
        return False
    if EN_ONLY in focus and any(h.doc.language != "en" for h in relevant):
        return False
    return not any(coverage([focus], _own_text(h), h.doc.language) > 0 for h in relevant)


def names_bounded_thing(question: str, concepts: list[Concept], hit: Hit) -> bool:
    """The passage names the thing whose bound the question asks (:func:`kb.lexical.limited_word`: "Berapa
    batas *omzet* pengusaha kecil?"), or the question asks no bound of a named thing.  Session 59, a probe of
    our own: the VAT threshold for small businesses was answered with the petty-cash limit ("Pembayaran di
    atas Rp5.000.000 wajib melalui AP"), whose heading "Batas Pembayaran Kas Kecil" shared "batas" and
    "kecil"."""
    word = lexical.limited_word(question)
    bounded = None if word is None else _concept_of(word, concepts)
    return bounded is None or coverage([bounded], _own_text(hit), hit.doc.language) > 0


def _concept_of(word: str, concepts: list[Concept]) -> Concept | None:
    """The question's concept a word of it stands for (its stem is one of the concept's phrases' words)."""
    root = lexical.stem(word)
    return next((c for c in concepts if any(root in phrase for phrase in c)), None)


def states_asked_bound(question: str, concepts: list[Concept], hit: Hit, top_hit: Hit) -> bool:
    """``hit`` states a sum bounding the thing a limit question names (the caller asks only of a question
    asking an amount bound), and the top hit states none: it may lead however much better the top hit
    matches the question's other words.  Session 59, a probe of our own: "batas peredaran bruto untuk PPh
    final 0,5%" was led by the 0,5% rate (PP 55/2022 Pasal 56 ayat (2), which matches the rate the question
    quotes) over Pasal 57 ayat (1)'s "peredaran bruto tidak melebihi Rp4.800.000.000,00"."""
    return (
        names_bounded_thing(question, concepts, hit)
        and _states_money(hit.chunk.text)
        and not _states_money(top_hit.chunk.text)
    )


def _states_money(text: str) -> bool:
    """The text states a sum of money (a percentage is no bound of a turnover)."""
    return any(f.kind == "amount" for f in extract_figures(text))


@functools.lru_cache(maxsize=256)  # read once per candidate passage of a question (lead_features)
def asked_tax_names(question: str) -> frozenset[str]:
    """The taxes the question asks about: those its asking sentences name, else those the whole message names.

    A tax the story names in passing ("invoice 25jt blm termasuk PPN. PPh 23 nya brp persen?") is a detail of
    the case; a passage stating another rate net of PPN is no answer about PPh 23 for sharing it."""
    asked = mentioned_taxes(lexical.ask_text(question))
    return frozenset(asked or mentioned_taxes(question))


#: the income-tax articles a document may be about as a whole (its title names one)
_PPH_ARTICLES = frozenset({"PPh 21", "PPh 22", "PPh 23", "PPh 26"})


def document_article(doc: DocumentMeta) -> frozenset[str]:
    """The one income-tax article a document's title names, when its passage names no tax itself: every
    passage of "Pemungutan Pajak Penghasilan Pasal 22 ..." is about PPh 22, though its rate items name only
    the goods.  An omnibus act's or a treaty PMK's tax types are no such topic: the title must name it."""
    return _title_article(doc.title)


@functools.lru_cache(maxsize=256)  # one title per document, read for every candidate passage
def _title_article(title: str) -> frozenset[str]:
    articles = _PPH_ARTICLES & set(mentioned_taxes(title))
    return articles if len(articles) == 1 else frozenset()


#: the terms only the VAT acts use (kb/data/lexicon.yaml ``passage_cues.vat_terms``)
_VAT_TERMS = lexicon.passage_cue("vat_terms")


def vat_terms_only(text: str) -> frozenset[str]:
    """PPN, for a passage that names no tax but uses the VAT acts' own terms ("Pengusaha Kena Pajak",
    "Faktur Pajak", "Pajak Masukan"): UU KUP's fine on a taxable entrepreneur's invoices is about PPN, and led
    a question on paying PPh 21 late (session 68, a probe of our own) over the late-payment interest."""
    return frozenset({"PPN"}) if _VAT_TERMS.search(text) else frozenset()


def located_article(hit: Hit) -> frozenset[str]:
    """The income-tax article a passage of UU PPh is part of (its Pasal 21, 22, 23 or 26; Pasal 4 ayat (2)):
    the Pasal is the tax, as Indonesian names it ("PPh Pasal 23"), though its ayat name only the income and
    the rate.  A passage of another act, or of another Pasal, has none."""
    c = hit.chunk
    if key_from_doc_id(c.base_doc) != UU_PPH:  # every amendment's passages carry UU 7/1983 as their base
        return frozenset()
    article = article_tax_type(c.pasal, c.ayat)
    return frozenset({article}) if article in _PPH_ARTICLES | {"PPh 4(2)"} else frozenset()


def _other_tax_unit(asked: frozenset[str], quote: str) -> bool:
    """The quote names taxes and none is one the question asks about: a rate it states is another tax's
    (a Pasal that holds the PPnBM range beside the PPN rules is about both; its PPnBM ayat is not)."""
    named = set(mentioned_taxes(quote))
    return bool(asked) and bool(named) and not (named & asked)


def _item_date(text: str) -> dt.date | None:
    m = _ITEM_DATE.search(text)
    if not m or m.group(2).lower() not in MONTHS:
        return None
    try:
        return dt.date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))
    except ValueError:
        return None


def _clean(text: str) -> str:
    out = _AYAT_MARK.sub("", text.strip())
    out = out.replace("**", "")
    return normalize_ws(out)


#: "sebagaimana dimaksud pada ayat (3) huruf b": a cross-reference, dropped from an item's lead-in label so
#: the label carries no number its item's quote lacks (the number gate) and still says whose rule it is
_CROSS_REF = re.compile(
    r"\s*,?\s*(?:sebagaimana|yang)\s+dimaksud\s+(?:dalam|pada)\s+(?:Pasal\s+\d+[A-Z]?\s*)?"
    r"(?:ayat\s*\(\s*\d+[a-z]?\s*\)\s*)?(?:huruf\s+[a-z]\b(?:\s*,?\s*(?:dan\s+|atau\s+)?huruf\s+[a-z]\b)*\s*)?"
    r"(?:angka\s+\d+\s*)?,?",
    re.I,
)


def _without_opening(lead_in: str) -> str:
    """A lead-in without the heading line and ayat number it opens with ("Pasal 69\nOrang ...", "(3) Jenis
    jasa ..."): what it says, still a verbatim slice of its passage."""
    text = lead_in.strip()
    first, _, rest = text.partition("\n")
    if rest.strip() and _HEADING.match(first.strip()):
        text = rest.strip()
    return _AYAT_MARK.sub("", text, count=1)


def _with_list_lead_in(
    claims: list[DraftClaim], lead: Hit, request: ComposeRequest, limit: int
) -> list[DraftClaim]:
    """``claims`` with the sentence opening the lead's list quoted second, when the lead is one item of a
    list kept in its own passage ("q. jasa boga atau katering ...") and the composer was given the passage
    holding that sentence (its ``pembuka`` or its parent ayat, which retrieval's expansion adds).  Alone the
    item names the service and not that it is exempt: "(3) Jenis jasa yang tidak dikenai Pajak Pertambahan
    Nilai ... sebagai berikut:" says it.  The quote is verbatim; the answer line reads the two together."""
    if (
        not claims
        or not lead.lead_in
        or not lead.chunk.parent_id
        or claims[0].source_chunk_id != lead.chunk.id
        # a sentence after the item or ayat (the OCR ran the item into the next ayat: "Dalam hal harga karbon
        # ... tarif pajak karbon ditetapkan sebesar paling rendah Rp30,00 ...") is no item of the list
        or not (_ITEM.match(normalize_ws(claims[0].quote)) or _AYAT_MARK.match(normalize_ws(claims[0].quote)))
    ):
        return claims
    opening = _without_opening(lead.lead_in)
    said = normalize_ws(opening)
    if not said or extract_figures(said) or any(said in normalize_ws(c.quote) for c in claims):
        return claims  # a lead-in with figures of its own ("... Pasal 13 ayat (1) ...") is no plain opener
    if CUKUP_JELAS.fullmatch(said):
        # an elucidation's "Pasal 19 Cukup jelas." before its Ayat says nothing of the item; quoted as the
        # opener it was read into the answer line ("Menurut PP 9/2021: Cukup jelas.: Atas keterlambatan
        # ...", session 55)
        return claims
    given = {h.chunk.id: h for h in (*request.hits, *request.context)}
    for cid in filter(None, (lead.chunk.lead_in_id, lead.chunk.parent_id)):
        carrier = given.get(cid)
        if carrier is None or said not in normalize_ws(carrier.chunk.text):
            continue
        layer: Layer = "policy" if carrier.doc.layer == "policy" else "regulation"
        opener = DraftClaim(text=opening, quote=opening, source_chunk_id=cid, layer=layer, role="context")
        return [claims[0], opener, *claims[1:]][:limit]
    return claims


def _item_label(lead: str | None) -> str | None:
    """The lead-in an item is shown under, without cross-references; None when it still holds a figure."""
    if not lead:
        return None
    # the comma that closed the cross-reference stays: it ends the clause before it, and without it the
    # support judge read "maupun tidak teratur dapat berupa:" as negating "berupa" (the passage's "tidak
    # teratur sebagaimana dimaksud pada ayat (1) huruf a, dapat berupa:" does not) and withheld the item as
    # contradicted (session 71, a probe of our own on overtime pay)
    label = normalize_ws(_CROSS_REF.sub(lambda m: "," if m.group(0).rstrip().endswith(",") else " ", lead))
    return None if extract_figures(label) else label


def _table_units(lines: list[str]) -> list[Unit]:
    rows = [ln for ln in lines if ln.strip().startswith("|")]
    header: list[str] = []
    units: list[Unit] = []
    for ln in rows:
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
            continue
        if not header:
            header = cells
            continue
        if len(header) == len(cells) and not any(extract_figures(h) for h in header):
            text = "; ".join(f"{h}: {c}" for h, c in zip(header, cells, strict=True) if c)
        else:
            text = " | ".join(c for c in cells if c)
        label = next((c for c in cells if c), "")
        units.append(Unit(ln.strip(), text, bool(CUE.search(ln)), label=label))
    return units


_BLOCK_START = re.compile(r"^(?:[a-z][.)]|\d{1,3}\.|[-*•]|\(\d{1,2}[a-z]?\)|#|\||Pasal\b|BAB\b)")
_HEADING = re.compile(r"^(?:Pasal\s+\w+|BAB\s+[IVXLC]+|Bagian\s+\w+|#+\s.*)$")
#: the heading of the act's next chapter, part or paragraph, which the chunker leaves at a Pasal's end ("...
#: Undang-Undang Pajak Penghasilan. Bagian Kedua Kriteria Keahlian Tertentu ..."): its title follows it
_SECTION_HEADING = re.compile(
    r"^(?:BAB\s+[IVXLC]+|Bagian\s+Ke(?:satu|dua|tiga|empat|lima|enam|tujuh|delapan|sembilan|sepuluh|sebelas)"
    r"\w*|Paragraf\s+\d+)\b"
)
#: a line ending in a reference word continues on the next line: "... sebagaimana dimaksud pada ayat" +
#: "(3) huruf b berhak ..." is one sentence wrapped by the PDF, not a new ayat
_REFERENCE_TAIL = re.compile(r"\b(?:ayat|huruf|angka|pasal)$", re.I)


def _blocks(text: str) -> list[str]:
    """Logical lines: soft-wrapped lines (markdown paragraphs) are joined, markers start a new block."""
    blocks: list[str] = []
    blank = True
    for raw in text.split("\n"):
        ln = raw.strip()
        if not ln:
            blank = True
            continue
        if (
            blank
            or not blocks
            or (_BLOCK_START.match(ln) and not _REFERENCE_TAIL.search(blocks[-1]))
            or blocks[-1].endswith(":")
            or _HEADING.match(blocks[-1])
        ):
            blocks.append(ln)
        else:
            blocks[-1] = f"{blocks[-1]} {ln}"
        blank = False
    return blocks


def split_units(text: str) -> list[Unit]:
    """Quotable units of a chunk: list items (with their lead-in as label), sentences, table rows.

    Quotes are whitespace-normalised chunk text (the quote gate compares whitespace-normalised).
    """
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if any(ln.strip().startswith("|") for ln in lines):
        rows = _table_units(lines)
        rest = [ln for ln in lines if not ln.strip().startswith("|")]
        return [*split_units("\n".join(rest)), *rows] if rest else rows
    units: list[Unit] = []
    lead: str | None = None
    sub: list[str] = []  # a lettered item ending with ":" and the numbered items under it so far
    # a lead-in that states the percentage ("Tarif ... sebesar 0% (nol persen) diterapkan atas:") and the
    # items under it so far: an item's quote runs from the lead-in, so the rate is in the quote
    run: list[str] = []
    run_label = ""
    title_next = False
    for block in _blocks(text):
        if _HEADING.match(block):
            title_next = bool(_SECTION_HEADING.match(block))
            continue
        if title_next and not _BLOCK_START.match(block):
            title_next = False
            continue  # the title of the chapter or part the heading opens ("Permohonan Surat Keterangan ...")
        title_next = False
        # an item's long block is split too when it ends as a lead-in: the OCR ran the item into the next ayat
        # ("c. saat lain ... Peraturan Pemerintah. Tarif pajak karbon ditetapkan ... Rp30,00 ... Ketentuan
        # mengenai:", UU 7/2021 Pasal 13), whose sentences would otherwise be only a label, never a quote
        long = len(block) > MAX_UNIT_CHARS or (
            len(block) > 240
            and (not _ITEM.match(block) or block.rstrip().endswith(":"))
            and not _AYAT_MARK.match(block)
        )
        pieces = [p for p in _SENT_SPLIT.split(block) if p.strip()] if long else [block]
        for piece in pieces:
            piece = normalize_ws(piece)
            if _SECTION_HEADING.match(piece):
                break  # a heading run into the last sentence: it and its title are no statement
            is_item = bool(_ITEM.match(piece))
            lettered = bool(re.match(r"^[a-z]\.\s", piece))
            numbered = bool(re.match(r"^\d{1,3}\.\s", piece))
            body = _clean(_ITEM.sub("", piece) if is_item and not lettered else piece)
            if piece.endswith(":") and (not is_item or lettered) and PERCENT.search(piece):
                run, run_label = [piece], _clean(piece)
            elif (
                run
                and is_item
                and not piece.endswith(":")
                and not (numbered and sub)
                and (len(run) > 1 or re.match(r"^(?:a|1)\.\s", piece))  # its first child, then siblings
            ):
                run.append(piece)
                quote = " ".join(run)
                if len(quote) <= 2 * MAX_UNIT_CHARS and len(body) >= 3:
                    if lettered:
                        sub = []
                    units.append(Unit(quote, f"{run_label} {body}", True, _item_date(piece)))
                    continue
                run = []
            else:
                run = []  # only contiguous text is ever quoted
            if piece.endswith(":") and not is_item:
                lead, sub = _clean(piece), []
                continue
            if lettered:
                sub = [piece] if piece.endswith(":") else []
                if sub:
                    continue
            elif numbered and sub:
                sub.append(piece)
                quote = " ".join([sub[0], *sub[1:]])
                if len(quote) <= 2 * MAX_UNIT_CHARS:
                    item_label = _item_label(lead)
                    label = f"{item_label} " if item_label else ""
                    text = f"{label}{sub[0]} {body}"
                    units.append(Unit(quote, text, bool(CUE.search(quote)), _item_date(sub[0])))
                    continue
            elif not is_item:
                sub = []
            if len(body) < 12:
                continue
            letters = [ch for ch in body if ch.isalpha()]
            if len(letters) > 20 and sum(ch.isupper() for ch in letters) > 0.8 * len(letters):
                continue  # a title block, not a statement
            item_label = _item_label(lead) if is_item else None
            claim = f"{item_label} {body}" if item_label and body != item_label else body
            units.append(Unit(piece, claim, bool(CUE.search(piece)), _item_date(piece) if is_item else None))
    if not units and lead:
        units.append(Unit(lead, lead, bool(CUE.search(lead))))
    return units


def _bracket_row(hit: Hit, question: str) -> list[Unit] | None:
    """The row of an annex rate table that holds the amount the question states, as the hit's only unit
    (``kb.brackets``): no unit when none of the table's rows (as far as the scan can be read) holds it, None
    when the hit is no such table or the question states no amount.

    "TER kategori A gaji 10 juta berapa?" asks the rate of one bracket; the table's other rows are other
    incomes' rates, and the table read whole was answered as a progressive scale ("0%, 0,25%, ... menurut
    lapisan Penghasilan Kena Pajak", session 65)."""
    amounts = question_amounts(question)
    if not amounts or not hit.chunk.key.startswith("lampiran/") or not bracket_rows(hit.chunk.text):
        return None
    row = row_holding(hit.chunk.text, amounts)
    if row is None:
        return []
    quote = normalize_ws(hit.chunk.text[row.start : row.end])
    return [Unit(quote, row.statement or quote, True)]


def status_row(hit: Hit, question: str) -> bool:
    """The hit is a part of the rate table of the category the asker's PTKP status is in (retrieval read
    the category from the act's rules: ``kb.retrieve``'s ``graph:status_class``) and one of its rows holds
    the amount the question states.  "status TK/0 gaji 9 juta, PPh 21 bulanannya berapa?" names no category,
    so the table part shares few of its words, yet its row is the answer (session 66, a probe of our own)."""
    return "graph:status_class" in hit.via and bool(_bracket_row(hit, question))


def asks_category(question: str) -> bool:
    """The question asks which rate category applies ("TK/0, masuk kategori TER apa?"), naming none and
    asking no rate: the rule assigning the categories answers it, not a row of a category's rate table."""
    return bool(ASKS_CATEGORY.search(question)) and not classes_named(question) and not asks_rate(question)


def asker_category_row(hit: Hit, question: str) -> bool:
    """The hit is a part of the rate table of the asker's category -- the one the question names ("kategori
    B"), or the one retrieval read from its PTKP status (:func:`status_row`) -- and one of its rows holds the
    amount the question states.  A category read from a status answers a rate asked, not the category
    itself: "TK/0, gaji 9jt, which TER category do we use?" asks what PP 58/2023 Pasal 2 ayat (4) says
    (devchat DC024 had been led by the row once "single, no dependents" read as TK/0, session 67)."""
    if classes_named(question):
        return bool(_bracket_row(hit, question))
    return status_row(hit, question) and not asks_category(question)


def _table_heading(hit: Hit) -> str:
    """The heading of the annex section a passage lies in, from its retrieval header ("58 | PP 58/2023 | A.
    TARIF EFEKTIF BULANAN KATEGORI A | Lampiran huruf A", ``kb.ingest.chunk_prefix``): the header without the
    act's number and name and the passage's location."""
    doc = hit.doc
    known = {doc.number, doc.short_title, doc.title, hit.chunk.location}
    return " ".join(p for p in hit.chunk.prefix.split(" | ") if p not in known)


def _narrow_dated(units: list[Unit], as_of: dt.date, question: str = "") -> list[Unit]:
    """Of list items that each start on a written date, keep the one in effect on ``as_of`` -- or, when the
    question asks when (:func:`lead_fact`) and names the figure of one item alone, that item: "PPN 11%
    berlaku sejak kapan?" asks the start of the 11% ("a. sebesar 11% ... mulai berlaku pada tanggal 1 April
    2022"), not of the 12% in effect today (session 68, a probe of our own was told "1 Januari 2025")."""
    dated = [u for u in units if u.date is not None]
    if len(dated) < 2:
        return units
    figures = question_figures(question) if question and lead_fact(question) == "deadline" else ()
    named = [u for u in dated if figure_match(figures, u.quote) > 0] if figures else []
    if len(named) == 1:
        keep: Unit | None = named[0]
    else:
        current = [u for u in dated if u.date <= as_of]  # type: ignore[operator]
        keep = max(current, key=lambda u: u.date) if current else None  # type: ignore[arg-type,return-value]
    return [u for u in units if u.date is None or u is keep]


#: weights of :func:`lead_features` (hand-set; ``scripts/fit_lead.py`` fits and measures an alternative)
LEAD_WEIGHTS: dict[str, float] = {
    "coverage": 1.0,
    "rank_prior": 0.1,
    "cue": 0.3,
    "rate_percent": 0.2,
    "named_doc": 0.2,
    "penjelasan": -0.3,
    "definition_asked": 0.4,
    "definition_unasked": -0.1,
    "definition_in_act": 0.3,
    "term_defined": 0.5,
    "deadline_stated": 0.3,
    "deadline_of_asked_act": 0.3,
    "deadline_missing": -0.2,
    "deadline_other_act": -0.3,
    "amount_stated": 0.3,
    "amount_missing": -0.2,
    "liable_stated": 0.35,
    "exemption_stated": 0.35,
    "charge_stated": 0.35,
    "regulation": 0.15,
    "only_unasked_regime": -0.3,
    "subject_unasked": -0.3,
    "only_sanction_rate": -0.3,
    "illustrates": -0.6,
    "padding": -1.0,
    "transitional": -0.3,
    "window_closed": -1.0,
    "other_tax": -0.4,
    "refund_unasked": -0.6,
    "object_match": 0.35,
    "figure_match": 0.35,
    "bound_side": 0.35,
    "bound_near": 0.35,
    "negated_condition": 0.35,
    "period_match": 0.25,
    "status_match": 0.35,
    "tax_act": 0.3,
    "sanction_fit": 0.3,
    "payee_abroad_unasked": -0.4,
    "form_instruction": -0.6,
    "procedure_unasked": -0.3,
    "delegation": -0.6,
    "extends_unasked": -0.3,
    "chapter_levy_unasked": -1.0,
}


def lead_features(rank: int, hit: Hit, cov: float, request: ComposeRequest) -> dict[str, float]:
    """What makes a relevant hit the one that states the answer: coverage, a rate/obligation cue, the named
    law, a rule rather than an elucidation, example or padding, the tax and object the question names."""
    question, text = request.question, hit.chunk.text
    named = {re.sub(r"[\s/]+", "-", ref.lower()) for ref in request.plan.doc_refs}
    base = hit.chunk.base_doc
    definition = hit.chunk.kind == "definition"
    asks_def = asks_definition(question)
    term_forms = asked_term_forms(request) if asks_def else []
    read = definition_heads(text) if term_forms else DefinitionRead(text, text, ())
    # ... or a definition of another term that does not even name the asked one (PP 58/2023 Pasal 1 angka 1,
    # "Undang-Undang Pajak Penghasilan adalah ...", led "What is TER?" on the coverage of its Pasal's items)
    other_term = definition and (
        defines_other_term(term_forms, read) or names_no_asked_term(term_forms, read)
    )
    # an ayat whose head is the asked term ("(3) Subjek pajak dalam negeri adalah: ...") is that term's
    # definition as much as a Pasal 1 item
    term_defined = defines_asked_term(term_forms, read)
    defines = definition or term_defined
    fact = lead_fact(question)
    closing = transitional_opening(hit, question)
    deadline = fact == "deadline"
    rate_q = asks_rate(question)
    asked_taxes = asked_tax_names(question)
    named_taxes = (
        frozenset(mentioned_taxes(text))
        or document_article(hit.doc)
        or located_article(hit)
        or vat_terms_only(text)
    )
    objects = question_objects(question)
    figures = question_figures(question)
    bounds = question_bounds(question)
    amounts = question_amounts(question)
    procedures = asked_procedures(question)
    states_deadline = (
        deadline and states_fact("deadline", text) and not other_unit_only(asked_unit(question), text)
    )
    bound = bool(deadline and states_deadline and deadline_of_asked_act(question, text))
    plain = lexicon.plain_question(question)
    amount_q = fact == "amount" and not ASKS_LIMIT.search(plain)
    liable_q = asks_liable(question)
    states_amount = amount_q and sets_amount(text)
    with_lead_in = f"{_item_lead_in(hit)}\n{text}"  # an item is read with the sentence opening its list
    return {
        "coverage": cov,
        "rank_prior": 1.0 / (rank + 1),
        "cue": float(bool(CUE.search(text) or CUE.search(_item_lead_in(hit)))),
        "rate_percent": float(rate_q and states_rate(text)),
        "named_doc": float(bool(named & {base, hit.chunk.doc_id})),
        "penjelasan": float(hit.chunk.kind == "penjelasan"),
        # a rule with an obligation cue outranks a definition, unless the question asks what a term means
        "definition_asked": float(defines and asks_def and not other_term),
        "definition_unasked": float(definition and not asks_def),
        # a term an Undang-Undang defines is defined there: the PMKs that repeat the definition word for word
        # for their own use follow the act (lex superior)
        "definition_in_act": float(defines and asks_def and not other_term and hit.doc.type == "UU"),
        # the passage whose head is the asked term ("Bentuk usaha tetap adalah ..."), an ayat as much as
        # a Pasal 1 item, not a definition of another term that names it in passing ("Badan adalah ... dan
        # bentuk usaha tetap")
        "term_defined": float(term_defined),
        "deadline_stated": float(deadline and states_deadline),
        "deadline_of_asked_act": float(bound),
        "deadline_missing": float(deadline and not states_deadline),
        # its time limit binds another party's act (the office's time to decide an objection, for a question
        # on when to file one)
        "deadline_other_act": float(
            deadline and states_deadline and deadline_of_other_act(question, text, asked_bound=bound)
        ),
        # an amount question ("bea meterai berapa rupiah?") is answered by the rule setting an amount, not by
        # one naming an amount only as a condition's bound ("nilai nominal lebih dari Rp5.000.000,00")
        "amount_stated": float(amount_q and states_amount),
        "amount_missing": float(amount_q and not states_amount),
        # a question asking who owes or pays ("siapa yang nanggung bea meterai?") is answered by the rule
        # naming the party the levy is owed by, not by the collector's duties or the document list
        "liable_stated": float(liable_q and bool(NAMES_LIABLE.search(text))),
        # a question asking what is exempt ("dokumen yang tidak kena bea meterai apa saja?") is answered by
        # the rule that excludes ("Bea Meterai tidak dikenakan atas Dokumen yang berupa:"), read with its
        # list's lead-in, not by the rule that charges or collects
        "exemption_stated": float(
            bool(ASKS_EXEMPTION.search(plain)) and bool(STATES_EXEMPTION.search(with_lead_in))
        ),
        # a question asking what is taxed ("dokumen apa yang dikenai bea meterai?") is answered by the rule
        # that charges ("Bea Meterai dikenakan atas:"), not by the rules on its threshold or payer
        "charge_stated": float(
            (charge_asked(question) == "what" or (cov >= 1.0 and charge_asked(question) == "whether"))
            and not ASKS_EXEMPTION.search(plain)
            and charges_asked_levy(asked_taxes, with_lead_in)
        ),
        # what the law says leads; a company document is shown as practice beside it
        "regulation": float(hit.doc.layer == "regulation"),
        # every rate it states belongs to a special regime the question does not name
        "only_unasked_regime": float(rate_q and only_unasked_regime_rates(question, text)),
        # a rule for a special party the question does not name: a joint operation (KSO) and its members
        "subject_unasked": float(
            any(rule.search(text) and not ask.search(plain) for rule, ask in _SPECIAL_SUBJECTS)
        ),
        # every percentage it states is a sanction the question does not ask about
        "only_sanction_rate": float(rate_q and only_sanction_rates(question, text)),
        # a worked example (or a passage naming "PT A") illustrates the rule; never first
        "illustrates": float(_illustrates(hit)),
        "padding": float(
            is_padding(text)
            or (closing is not None and closing.revokes_acts())
            or bool(SCOPE_CLAUSE.search(with_lead_in))
        ),
        # a transitional provision settles the cases caught between two rules; it leads only a question
        # asking whether or since when a rule holds
        "transitional": float(closing is not None),
        # an amnesty or transitional window that closed before the date asked about
        "window_closed": float(window_closed(text, request.as_of, hit.doc.effective_from)),
        # a rule returning an excess ("kelebihan ... yang telah dipotong ... wajib dikembalikan") when no
        # refund is asked: it shares the withholding's words, not its duty
        "refund_unasked": float(bool(REFUNDS_EXCESS.search(text)) and not ASKS_REFUND.search(plain)),
        # a rule about another tax (PPh 26 honoraria for a PPh 23 question)
        "other_tax": float(
            bool(asked_taxes and named_taxes and not (asked_taxes & named_taxes))
            # a deduction is an income-tax question: a rule naming only PPN or PPnBM is about another tax
            or bool(
                named_taxes
                and ASKS_DEDUCTION.search(plain)
                and not any(t.startswith("PPh") for t in named_taxes)
            )
        ),
        # the provision whose scope is the object the question names leads, not a general rule
        "object_match": object_match(objects, f"{hit.chunk.location}\n{text}") if objects else 0.0,
        # the threshold, period or rate the question quotes ("batasan 7 tahun") is stated by the rule
        "figure_match": figure_match(figures, text),
        # the side of a bound the question is on ("lebih dari 183 hari") is the side the rule bounds
        "bound_side": bound_side(bounds, text),
        # the threshold near an amount the question states ("kwitansi Rp4.600.000", "lebih dari
        # Rp5.000.000") decides the case, whichever side of it the amount is on; not the row of a rate table
        # for a question asking which category applies (it asks no rate: session 67)
        "bound_near": (
            0.0 if hit.chunk.kind == "lampiran" and asks_category(question) else bound_near(amounts, text)
        ),
        # the case the question rules out ("bukan rumah sederhana") is not its answer; the rule that excludes
        # it too is
        "negated_condition": negated_match(negated_conditions(question), text),
        # an annual-return rule for a question about a Masa (or the reverse); a passage is not preferred for
        # naming the asked period only (UU KUP Pasal 3 ayat (3) names both, and states the Masa deadline)
        "period_match": min(0.0, period_match(asked_period(question), text)),
        # the rule that writes out the PTKP status the question names ("K/1"); for a question about the PTKP
        # itself, the items of the PTKP that status takes (a TER category's rule writes the status out and
        # states no PTKP: it led "What is the PTKP for status K/3?", session 67)
        "status_match": (
            ptkp_item_match(ptkp_items, text)
            if (ptkp_items := asked_ptkp_items(question))
            else status_match(asked_statuses(question), text)
        ),
        # the rule of the duty asked about (paying or filing), not the other duty's rule with the same words
        "tax_act": passage_tax_act_match(
            asked_tax_act(question), text, by_sentence=sanction_ask(question) != "sanction"
        ),
        # the sanction ayat for a sanction question, not the rule whose breach it sanctions (and no sanction
        # rule for a deadline question)
        "sanction_fit": sanction_fit(question, text),
        # the rule for a payee abroad (PPh 26) for a question about a party in Indonesia
        "payee_abroad_unasked": float(payee_abroad_unasked(question, text)),
        # a form's fill-in instruction (a Lampiran's "Diisi dengan ...") leads only a question about the form
        "form_instruction": float(form_instruction(hit, question)),
        # a rule bound to a procedure the asker is not in (the sanction after correcting a return, for a late
        # payment); a list item is bound by the sentence opening its list, an ayat by the sibling it names
        # ("Tarif bunga ... sebagaimana dimaksud pada ayat (3b)" holds within an assessment)
        "procedure_unasked": float(procedure_unasked(procedures, f"{hit.lead_in}\n{text}")),
        # a delegation clause ("Ketentuan lebih lanjut mengenai ... diatur dengan Peraturan Pemerintah") names
        # the matter and states no rule on it, unless the question asks where the matter is regulated
        "delegation": float(delegates(hit, question)),
        # a rule extended to parties or cases the question does not name ("... sebagaimana dimaksud pada ayat
        # (1) berlaku pula terhadap wanita kawin ...") yields to the rule it extends
        "extends_unasked": float(extends_to_unasked(question, text)),
        # a rule of a chapter about a levy the question does not name (the carbon tax's own return deadlines)
        "chapter_levy_unasked": float(chapter_levy_unasked(question, hit)),
    }


#: the word after a definition's head: "adalah" or "ialah" define; "merupakan" ("Bentuk usaha tetap merupakan
#: subjek pajak ...") classifies
_DEFINES_HEAD = re.compile(r"\s*,?\s+(?:adalah|ialah|yang\s+selanjutnya)\b")


def asked_term_forms(request: ComposeRequest) -> list[list[str]]:
    """The words of the term a definition question asks about and of each long form the alias dictionary
    gives it ("BUT" -> "bentuk usaha tetap"): the act defines the long form (the retriever's reading,
    :func:`kb.retrieve.asked_term_words`)."""
    return [list(words) for words in asked_term_words(request.question, request.plan)]


class DefinitionRead(NamedTuple):
    """A passage read as a definition, once for :func:`defines_asked_term` and :func:`defines_other_term`."""

    #: the passage as stored
    text: str
    #: the passage without its ayat number or "Yang dimaksud dengan"
    body: str
    #: the terms at the body's head (``kb.chunking.regulation.defined_terms``)
    heads: tuple[str, ...]


def definition_heads(text: str) -> DefinitionRead:
    """``text`` read as a definition (:class:`DefinitionRead`)."""
    body = AYAT_OPENING.sub("", text, count=1)
    return DefinitionRead(text, body, defined_terms(body))


def defines_asked_term(forms: list[list[str]], read: DefinitionRead) -> bool:
    """Whether the passage is the definition of the asked term (``forms``, :func:`asked_term_forms`): its head
    (before "adalah") is that term, word for word, also as "Yang menjadi subjek pajak adalah: ..." (what
    the term covers: UU PPh Pasal 2 ayat (1), Pasal 4 ayat (1))."""
    return bool(forms) and any(
        heads_asked_term(tokenize(head), forms)
        and re.search(re.escape(head) + _DEFINES_HEAD.pattern, read.body, re.IGNORECASE)
        for head in read.heads
    )


def defines_other_term(forms: list[list[str]], read: DefinitionRead) -> bool:
    """Whether the passage defines another term and names the asked one only in its body ("Badan adalah ...
    koperasi, ... dan bentuk usaha tetap" for "apa itu bentuk usaha tetap?").  A head that cannot be read, or
    an asked term the body does not write out (an abbreviation, a synonym), is not judged."""
    heads = read.heads
    if not forms or not heads or any(set(form) <= set(tokenize(head)) for form in forms for head in heads):
        return False
    return _writes_out(forms, read.text)


def _writes_out(forms: list[list[str]], text: str) -> bool:
    """The text writes out one of the asked term's forms, word for word."""
    body = normalize_ws(text).lower()
    return any(re.search(rf"\b{re.escape(' '.join(form))}\b", body) for form in forms if form)


#: an elucidation that only says what a term means ("Ayat (5) Yang dimaksud dengan Kantor Pelayanan Pajak
#: adalah ..."); ``head`` is the term
_ELUCIDATED_TERM = re.compile(
    r"^\s*(?:(?:Pasal|Ayat|Huruf|Angka)\s+\S+\s+)?Yang\s+dimaksud\s+dengan\s+[\"“']?(?P<head>[^.;:\"”]{3,80}?)[\"”']?"
    r"\s*,?\s+(?:adalah|ialah)\b",
    re.I,
)


def explains_unasked_term(hit: Hit, question: str, concepts: Sequence[Concept]) -> bool:
    """An elucidation saying what a term means ("Yang dimaksud dengan Kantor Pelayanan Pajak adalah ...")
    whose term the question does not name, for a question that asks no definition: it answers nothing asked.

    Why: "Are severance payments subject to final tax?" (session 63, a probe of our own) was answered with PP
    34/2016's elucidation of which tax office is meant, on its words "Pajak", "final" and "Setoran".  The term
    is named when each of its content words is a word of the question or of one of its concepts' alternatives
    (an English question names "jasa lain" by "other services").  Only an elucidation that opens so is read:
    one kept whole with its Pasal ("Pasal 5 Ayat (1) Cukup jelas. ...") is not judged."""
    m = _ELUCIDATED_TERM.match(hit.chunk.text) if hit.chunk.kind == "penjelasan" else None
    if m is None or asks_definition(question):
        return False
    skip = STOPWORDS | lexicon.generic_words()
    head = {lexical.stem(t) for t in tokenize(m.group("head")) if t not in skip and not t.isdigit()}
    asked = set(lexical.word_stems(question))
    for concept in concepts:
        asked.update(word for alternative in concept for word in alternative)
    return bool(head) and not head <= asked


def names_no_asked_term(forms: list[list[str]], read: DefinitionRead) -> bool:
    """Whether a definition whose head can be read neither defines nor names any form of the asked term
    (``forms`` hold the alias dictionary's long forms: "PTKP" is defined as "Penghasilan Tidak Kena
    Pajak").  A definition of the asked term writes it out (:func:`defines_asked_term`), so naming none of
    its forms also rules that out."""
    return bool(forms) and bool(read.heads) and not _writes_out(forms, read.text)


def _other_case_rate(quote: str, concepts: list[Concept], language: str | None) -> bool:
    """A list item ("a. sebesar 15% ... dividen") stating a rate in words that reach none of the concepts.

    An exception or a surcharge ("100% lebih tinggi" for a payee without NPWP) is a condition on the answer,
    not another case, and stays."""
    if not concepts or not _ITEM.match(quote) or not states_rate(quote):
        return False
    if EXCEPTION.search(quote) or _SURCHARGE.search(quote):
        return False
    return not coverage(concepts, quote, language)


def _fact_text(kind: str | None, unit: Unit) -> str:
    """Where a unit states the asked fact: its quote, or for a time, the item read with its list's lead-in
    when that lead-in states the moment without a figure ("Terutangnya pajak terjadi pada saat: a. penyerahan
    Barang Kena Pajak;", UU PPN Pasal 11 ayat (1)).  Why: each item completes the sentence stating when the
    tax falls due; judged by the item alone, the ayat on payments received early (its own "pada saat
    pembayaran") or another act's payment period led "Kapan PPN terutang?" (session 60).  A lead-in with a
    figure ("paling lambat tanggal 15 ...:") is not read into the item: the figure would not be in its
    quote.  A numbered item under a lettered one ("a. Dokumen dibubuhi Tanda Tangan, untuk: 1. surat
    perjanjian ...", UU Bea Meterai Pasal 8 ayat (1)) is read the same way: its text is the lead-in, the
    lettered head and the item without its number, so the lead-in is what stands before the head (session
    64)."""
    if kind != "deadline":
        return unit.quote
    text, quote = normalize_ws(unit.text), normalize_ws(unit.quote)
    if quote and text.endswith(quote):
        lead_in = text[: -len(quote)]
    else:
        head = quote.split(":", 1)[0] if _ITEM.match(quote) and ":" in quote else ""
        at = text.find(head) if head else -1
        lead_in = text[:at] if at > 0 else ""
    return unit.text if lead_in.strip() and not extract_figures(lead_in) else unit.quote


class ExtractiveComposer:
    """Deterministic extractive composer (see module docstring); implements ``Composer``."""

    name = "extractive"

    def __init__(self, *, max_claims: int = MAX_CLAIMS, min_coverage: float = MIN_COVERAGE) -> None:
        self.max_claims = max_claims
        self.min_coverage = min_coverage

    # -- selection ---------------------------------------------------------------------------

    def _relevant(self, hit: Hit, concepts: list[Concept], referent: str = "", question: str = "") -> float:
        named = any(v in ("routed",) for v in hit.via)
        # the law's short name counts: a passage of "UU PPN" covers a question's "undang-undang PPN"
        # an ayat naming its subject by its sibling is about what that ayat says too ("(2) Tarif ...
        # sebagaimana dimaksud pada ayat (1) sebesar 0,5%"), and so is a rule naming its subject by
        # another Pasal among the hits (``referent``, :func:`_referent_texts`)
        # ... and the tax its act (in UU PPh, its article) is about: UU PPN's "pajak" is PPN, UU PPh Pasal 26
        # is PPh 26 (kb.query.chunk_tax_name)
        tax = chunk_tax_name(hit.chunk)
        own = f"{tax}\n{_own_text(hit)}\n{_sibling_lead_in(hit)}\n{referent}"
        if question and _bracket_row(hit, question):
            # a part of a rate table holding the asked amount is about what its table's heading names ("TARIF
            # EFEKTIF BULANAN KATEGORI A"): its rows alone say only amounts and rates
            own += f"\n{_table_heading(hit)}"
        cov = coverage(concepts, own, hit.doc.language)
        return max(cov, 0.5 if named and cov > 0 else 0.0) if concepts else (1.0 if named else 0.0)

    def _pick_units(
        self,
        hit: Hit,
        concepts: list[Concept],
        as_of: dt.date,
        limit: int,
        notes: list[str],
        question: str = "",
    ) -> list[Unit]:
        row = _bracket_row(hit, question)
        units = row if row is not None else _narrow_dated(split_units(hit.chunk.text), as_of, question)
        clean: list[Unit] = []
        for u in units:
            if scan_injection(u.quote).flagged:
                notes.append(f"skipped_instruction_text:{hit.chunk.id}")
                continue
            clean.append(u)
        if not clean:
            return []
        if len(clean) == 1:
            return clean
        scored = []
        kind = lead_fact(question)
        # a question whether or what a levy is charged on, not where that is regulated
        charged_q = charge_asked(question) is not None and not _ASKS_REGULATION.search(
            lexicon.plain_question(question)
        )
        objects = question_objects(question)
        figures = question_figures(question)
        classes = asked_classes(question)
        amounts = question_amounts(question)
        negated = negated_conditions(question)
        period = asked_period(question)
        statuses = asked_statuses(question)
        ptkp_items = asked_ptkp_items(question)
        action = asked_action(question, concepts)
        act = asked_tax_act(question)
        sanction = sanction_ask(question)
        party = asked_party(question)
        pairs = question_pairs(question)
        liable = asks_liable(question)
        labelled = any(u.label for u in clean)
        for i, u in enumerate(clean):
            own = affirmed_text(question, u.text)
            cov = coverage(concepts, own, hit.doc.language) if concepts else 0.0
            if example_narrative(hit.chunk.text, u.quote):
                # a worked example's own case ("Mobil tersebut dijual dengan harga Rp60.000.000,00"): its
                # figures are not the rule's, so it states no asked fact and follows the rule's sentences
                scored.append((-(cov + (0.5 if u.cue else 0.0) - 1.0), i, u, cov))
                continue
            bonus = (0.5 if u.cue else 0.0) + (
                0.3 if kind and states_fact(kind, _fact_text(kind, u)) else 0.0
            )
            if kind and "graph:referrer" in hit.via and states_fact(kind, u.quote):
                # the passage joined the results because it states the asked figure of the rule it refers to
                # (kb.retrieve): that sentence is its answer, not the one sharing more of the story's words
                bonus += 1.0
            if objects:
                bonus += 0.4 * object_match(objects, u.text)
            if negated:
                # the row or item the asker ruled out ("bukan rumah sederhana") is not their answer
                bonus += 0.6 * negated_match(negated, u.text)
            bonus += 0.4 * period_match(period, u.text)
            # the item for the PTKP status the question names ("K/1"), and the items of a PTKP
            # that status takes ("K/2": the taxpayer's own, being married, dependants)
            bonus += 0.8 * status_match(statuses, u.text) + 0.8 * ptkp_item_match(ptkp_items, u.quote)
            # it states the asked action ("Disetujui oleh"), or whether it may be done ("tidak dapat dibayar")
            bonus += 0.4 * action_match(action, u.text)
            # the item of the duty asked (paying or filing) and, when a sanction is asked, the one stating it
            bonus += 0.3 * tax_act_match(act, u.text) + 0.3 * sanction_fit_of(sanction, u.text)
            if liable and NAMES_LIABLE.search(u.text):
                # "Siapa yang wajib memotong ...?": the sentence naming who withholds ("dipotong pajak oleh
                # pihak yang wajib membayarkan"), not the rate item of the same ayat
                bonus += 0.6
            if labelled and concepts:
                # a table row is about what its first cell names: the asked object's row, not a row of the
                # same table whose other cells share the question's words
                bonus += 0.5 * coverage(concepts, u.label, hit.doc.language)
            bonus += 0.5 * unasked_regime(question, u.text)
            # the item about specific goods the question does not name (the soybean rate for general goods)
            bonus -= 0.4 * unasked_specifics(question, u.text)
            bonus += 0.3 * phrase_match(pairs, u.text)
            # the item for the other kind of taxpayer ("d. badan ..." for a worker's question) is not theirs
            bonus -= 0.5 * other_party(party, u.quote)
            bonus += 0.3 * figure_match(figures, u.quote)
            # the item of the class the question names ("TER kategori B untuk status apa saja?"), not its
            # neighbour ("a. kategori A ...") that shares every other word
            bonus += 0.6 * class_match(classes, u.quote)
            # the item whose bound decides the amount the question states ("lebih dari Rp5.000.000,00")
            bonus += 0.3 * bound_near(amounts, u.quote)
            if u.date is not None:
                bonus += 0.2  # the dated item in force on the as-of date (others were narrowed away)
            if is_padding(u.quote):
                bonus -= 2.0
            if charged_q and _DELEGATION.search(u.text):
                # asked whether a thing is charged, a sentence delegating the matter ("Ketentuan mengenai ...
                # Jasa Kena Pajak yang atas ekspornya dikenai PPN ... diatur dengan Peraturan Menteri
                # Keuangan") names it and states nothing of it: the item it refers to does (session 69, a
                # probe of our own).  Only then: among a rate Pasal's sentences the delegation had kept a
                # PPnBM rate from answering a PPN rate question (check a066, session 62)
                bonus -= 0.5
            scored.append((-(cov + bonus), i, u, cov))
        scored.sort(key=lambda t: (t[0], t[1]))
        # a definition question wants the term's own definition, not its neighbour in the list of Pasal 1
        defining = asks_definition(question)
        chosen = [
            (i, u)
            for rank, (_, i, u, cov) in enumerate(scored[:limit])
            if (cov > 0 or (u.cue and not defining))
            # beside the best unit, a list item whose own words state a rate and reach none of the question's
            # words is another case's rate ("a. 15% ... dividen" beside "c. 2% ... jasa konsultan"), however
            # much of the list's lead-in the question shares: neither a condition nor an exception.  A
            # sentence is no such item: "Tarif ... sebagaimana dimaksud pada ayat (1) sebesar 0,5%" states the
            # rate of the sentence before it in words of its own.
            and not (rank > 0 and _other_case_rate(u.quote, concepts, hit.doc.language))
        ]
        if not chosen:
            chosen = [(scored[0][1], scored[0][2])]
        return [u for _, u in chosen]  # best first: the unit that answers leads

    def _lead_score(self, rank: int, hit: Hit, cov: float, request: ComposeRequest) -> float:
        """Which relevant hit states the answer: :data:`LEAD_WEIGHTS` over :func:`lead_features`."""
        f = lead_features(rank, hit, cov, request)
        return sum(LEAD_WEIGHTS[name] * value for name, value in f.items())

    def relevant_hits(self, request: ComposeRequest, concepts: list[Concept]) -> list[tuple[Hit, float]]:
        """The hits about the question, each with its coverage, in retrieval order: a quotable kind, not a
        general elucidation, coverage at least ``min_coverage`` and ``RELATIVE_COVERAGE`` of the best hit's.
        (``scripts/fit_lead.py`` and ``bench/gold_funnel.py`` read the composer's choice through this.)"""
        usable = [
            h for h in request.hits if h.chunk.kind not in SKIP_KINDS and not is_general_elucidation(h.chunk)
        ]
        referents = _referent_texts(usable, lead_fact(request.question))
        scored = [
            (h, self._relevant(h, concepts, referents.get(h.chunk.id, ""), request.question)) for h in usable
        ]
        # a worked example tells a case in the asker's words ("Tuan R ... pegawai tetap ... gaji
        # Rp10.000.000,00 ... kategori ..."): it does not raise the bar for the rules it illustrates
        best = max((c for h, c in scored if not _illustrates(h)), default=0.0)
        floor = max(self.min_coverage, RELATIVE_COVERAGE * best)
        # the passage stating the amount of the term asked, from the Pasal that sets it (kb.retrieve's
        # governed-amount step), is about the question whatever share of the story's words it has; an
        # elucidation of what an unasked term means is about none of it, whatever words it shares
        return [
            (h, c)
            for h, c in scored
            if (
                c >= floor
                or (c > 0 and ("graph:governed_amount" in h.via or status_row(h, request.question)))
            )
            and not explains_unasked_term(h, request.question, concepts)
        ]

    def compose(self, request: ComposeRequest) -> ComposedAnswer:
        concepts = question_concepts(request)
        notes: list[str] = []
        relevant = self.relevant_hits(request, concepts)
        if not relevant:
            return ComposedAnswer((), 0.0, ("no_relevant_passage",))
        if unasked_focus(request, concepts, [h for h, _ in relevant]):
            # the passages share words of the case, not the thing asked: the knowledge base does not answer it
            return ComposedAnswer((), 0.0, ("focus_not_found",))
        if all(_illustrates(h) for h, _ in relevant):
            # worked examples illustrate a rule; with no rule among the passages, quoting one would answer
            # with a made-up case ("PT A membuat Faktur Pajak pengganti pada ...")
            return ComposedAnswer((), 0.0, ("only_examples",))
        # each relevant hit's lead score, once (keyed by its retrieval rank among the relevant hits)
        lead_scores = [self._lead_score(rank, h, c, request) for rank, (h, c) in enumerate(relevant)]
        scored = sorted(enumerate(relevant), key=lambda t: (-lead_scores[t[0]], t[0]))
        # the row of the asker's category's rate table that holds the stated amount is the answer itself
        # ("kategori B penghasilan bruto 15 juta, TER-nya berapa?" was led by PMK 168/2023's job-expense
        # allowance, the table's part 9th): it leads, whatever the lead weights say of its words
        scored.sort(key=lambda t: not asker_category_row(t[1][0], request.question))
        memo: dict[str, tuple[list[Unit], list[str]]] = {}
        # two units of a passage, or as many as the PTKP items the asker's status takes ("K/2": three)
        units_per_passage = max(2, len(asked_ptkp_items(request.question)))

        def picked(h: Hit, used: bool = False) -> list[Unit]:
            """The hit's units, best first (computed once per hit); its notes count once it is used."""
            if h.chunk.id not in memo:
                own: list[str] = []
                memo[h.chunk.id] = (
                    self._pick_units(h, concepts, request.as_of, units_per_passage, own, request.question),
                    own,
                )
            units, own = memo[h.chunk.id]
            if used:
                notes.extend(own)
            return units

        kind = lead_fact(request.question)
        asked_taxes = asked_tax_names(request.question)
        bounded = kind == "amount" and lexical.limited_word(request.question) is not None
        lead_pos = 0
        top_hit = scored[0][1][0]
        top = lead_scores[scored[0][0]]
        # an elucidation on top yields to the Pasal it explains when that Pasal is a close runner-up: the rule
        # is the provision the answer leads with, its elucidation follows ("Bagaimana perlakuan PPN atas
        # penjualan aset tetap?" was led by UU 42/2009's elucidation of Pasal 16D, a near tie with Pasal 16D)
        explained = top_hit.chunk.kind == "penjelasan" and any(
            top_hit.chunk.elucidates(h.chunk) and lead_scores[rank] >= top - LEAD_MARGIN
            for rank, (h, _) in scored[1:6]
        )
        for pos, (rank, (h, _)) in enumerate(scored[:6]):
            if explained and not pos:
                continue
            # the lead quotes the provision that states what was asked, with the fact in the quote; only
            # a close runner-up that is a rule (not an elucidation or an example) may replace the top hit --
            # or the rule stating the asked rate or time limit of the top hit's Pasal by reference ("Dokumen
            # sebagaimana dimaksud dalam Pasal 3 dikenai ... tarif tetap sebesar Rp10.000,00"), however much
            # better the top hit matches the case's own figures
            if pos and (
                h.chunk.kind == "penjelasan"
                or h.chunk.is_example
                # a transitional clause ("Pada saat Peraturan Pemerintah ini mulai berlaku, ... paling lama 30
                # (tiga puluh) hari") states a time limit of the change-over, never the rule asked
                or transitional_clause(h, request.question)
                # a rate bound to a procedure the asker is not in (the 30% final tax on assets found after a
                # voluntary disclosure) is no rate of the question, however close its score.  A deadline of
                # one may lead: the answer then declines, saying whose deadline it is
                or (
                    kind == "rate"
                    and procedure_unasked(asked_procedures(request.question), f"{h.lead_in}\n{h.chunk.text}")
                )
                # ... nor one whose every rate belongs to a regime the question does not name (the surcharge
                # for a payee without NPWP, UU PPh Pasal 21 ayat (5a), for "Berapa tarif PPh 21?"; session 60)
                or (kind == "rate" and only_unasked_regime_rates(request.question, h.chunk.text))
                or (
                    lead_scores[rank] < top - LEAD_MARGIN
                    and not _states_for(h, top_hit, kind)
                    and not (bounded and states_asked_bound(request.question, concepts, h, top_hit))
                )
            ):
                continue
            if bounded and not names_bounded_thing(request.question, concepts, h):
                # the bound of another thing, the top hit's too ("Berapa batas omzet ...?" against the
                # petty-cash payment limit; the 0,5% rate against the turnover bound of the regime)
                continue
            units = picked(h)
            stating = next(
                (
                    i
                    for i, u in enumerate(units)
                    if states_asked(request.question, kind, _fact_text(kind, u))
                    and not is_padding(u.quote)
                    and not example_narrative(h.chunk.text, u.quote)
                    # the PPnBM rate beside the PPN rate in one Pasal states another tax's fact
                    and not _other_tax_unit(asked_taxes, u.quote)
                    # the bound of a turnover or a payment is a sum: a rate charged on it states none
                    and not (bounded and not _states_money(u.quote))
                ),
                None,
            )
            if stating is not None:
                lead_pos = pos
                units.insert(0, units.pop(stating))  # the unit stating the asked fact leads (memo's own list)
                break
        lead_hit, lead_cov = scored[lead_pos][1]
        ordered: list[tuple[Hit, Role]] = [(lead_hit, "direct")]
        for h, _ in relevant:
            if h is lead_hit:
                continue
            if lead_hit.chunk.same_pasal(h.chunk):
                if not _linked_ayat(lead_hit, h) and not _as_relevant(concepts, lead_hit, h):
                    # a sibling neither passage refers to, less relevant than the lead, states another rule of
                    # the Pasal (who may be appointed beside an exemption, the delegation clause)
                    continue
                if kind == "rate" and only_unasked_regime_rates(request.question, h.chunk.text, _OTHER_CASES):
                    # every rate it states is another income's the question does not name (the dividend rate
                    # of UU PPh Pasal 17 ayat (2c) beside the scale of ayat (1)): not a condition of the lead.
                    # A surcharge for a payee without an NPWP (UU PPh Pasal 23 ayat (1a)) is one, and stays
                    continue
                ordered.append((h, "condition"))
            else:
                ordered.append((h, "direct"))
        # same-Pasal conditions first, then rules, then elucidations (stable within each group)
        ordered = [
            ordered[0],
            *sorted(
                ordered[1:],
                key=lambda t: (0 if t[1] == "condition" else 1, 1 if t[0].chunk.kind == "penjelasan" else 0),
            ),
        ]
        lead_law = lead_hit.chunk.base_doc  # an amending act's restated Pasal belongs to the law it amends
        for h in request.context:
            # a definition the lead's own law gives helps read it; another law's is padding
            if (
                "graph:uses_definition" in h.via
                and h.chunk.kind == "definition"
                and h.chunk.base_doc == lead_law
            ):
                ordered.append((h, "definition"))
        other_laws: set[str] = set()

        claims: list[DraftClaim] = []
        shown: list[str] = []
        for hit, role in ordered:
            if len(claims) >= self.max_claims:
                break
            law = hit.chunk.base_doc
            if law != lead_law and hit.doc.layer != "policy":
                # the rule's own law, its conditions and the company policy applying it; passages of
                # other laws only from the first such law
                if law not in other_laws and len(other_laws) >= MAX_OTHER_LAWS:
                    continue
                other_laws.add(law)
            limit = units_per_passage if role in ("direct", "condition") else 1
            for u in picked(hit, used=True)[:limit]:
                norm = normalize_ws(u.quote)
                if any(norm in s or s in norm for s in shown):
                    continue
                this_role: Role = role
                narrative = example_narrative(hit.chunk.text, u.quote)
                if hit.chunk.is_example or narrative:
                    this_role = "example"
                elif hit.chunk.kind == "definition":
                    this_role = "definition"
                elif role != "definition" and claims and EXCEPTION.search(u.quote):
                    this_role = "exception"
                elif role == "direct" and hit.doc.layer == "policy":
                    this_role = "policy"
                claims.append(
                    DraftClaim(
                        text=u.text,
                        quote=u.quote,
                        source_chunk_id=hit.chunk.id,
                        layer="policy" if hit.doc.layer == "policy" else "regulation",
                        role=this_role,
                        is_example=hit.chunk.is_example or narrative,
                    )
                )
                shown.append(norm)
                if len(claims) >= self.max_claims:
                    break
        claims = _with_list_lead_in(claims, lead_hit, request, self.max_claims)
        cue = 1.0 if CUE.search(lead_hit.chunk.text) else 0.8
        self_score = round(min(1.0, (0.4 + 0.6 * lead_cov) * cue), 6) if claims else 0.0
        return ComposedAnswer(tuple(claims), self_score, tuple(dict.fromkeys(notes)))
