"""The next chapter's or part's heading at a Pasal's end is no statement to quote.

The chunker leaves the heading that follows a Pasal at its end ("Bagian Kedua" and its title), and an OCR
layer may run it into the last sentence.  "Apa saja yang menjadi objek pajak penghasilan?" (session 72, a
probe of our own) was answered with PP 55/2022 Pasal 2 and, as its second claim, "Bagian Kedua Kriteria
Keahlian Tertentu serta Pengenaan Pajak Penghasilan bagi Warga Negara Asing".
"""

from __future__ import annotations

from bot.answer.extractive import split_units

SENTENCE = (
    "Yang menjadi objek pajak adalah penghasilan, yaitu setiap tambahan kemampuan ekonomis yang diterima "
    "atau diperoleh Wajib Pajak, baik yang berasal dari Indonesia maupun dari luar Indonesia, yang dapat "
    "dipakai untuk konsumsi atau untuk menambah kekayaan Wajib Pajak yang bersangkutan."
)
RUN_IN = (
    f"Pasal 2\n{SENTENCE} "
    "Bagian Kedua Kriteria Keahlian Tertentu serta Pengenaan Pajak Penghasilan bagi Warga Negara Asing"
)
OWN_LINES = (
    "(5) Surat Keterangan Domisili diterbitkan paling lama 2 (dua) hari kerja.\n\nBagian Ketiga\n"
    "Penerbitan Surat Keterangan Domisili\nWajib Pajak Dalam Negeri"
)


def test_a_heading_run_into_the_last_sentence_is_dropped() -> None:
    quotes = [u.quote for u in split_units(RUN_IN)]
    assert quotes == [SENTENCE]


def test_a_heading_and_its_title_on_their_own_lines_are_dropped() -> None:
    quotes = [u.quote for u in split_units(OWN_LINES)]
    assert quotes == ["(5) Surat Keterangan Domisili diterbitkan paling lama 2 (dua) hari kerja."]


def test_a_part_of_something_is_still_a_statement() -> None:
    text = "Bagian penghasilan yang dibebaskan dari pengenaan pajak ditetapkan oleh Menteri."
    assert [u.quote for u in split_units(text)] == [text]
