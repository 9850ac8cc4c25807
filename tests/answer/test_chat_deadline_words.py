"""Chat writes a deadline as "batas" before the duty ("batas lapor spt masa ppn", "batas setor pph 21") and
asks a date as "tanggal berapa": the first asks a deadline (it was read as asking nothing and led by a carbon
tax sanction), the second no rate (the line added "the sources state no rate").  Session 57, probes of our
own."""

from __future__ import annotations

import pytest

from bot.answer.extractive import asked_fact
from bot.answer.render import asked_facts


@pytest.mark.parametrize(
    "question",
    [
        "tolong infoin dong batas lapor spt masa ppn tiap bulan",
        "batas setor pph 23 kapan ya",
        "batas pembayaran PPh 25 bulanan",
        "batas pengajuan keberatan",
    ],
)
def test_batas_before_a_duty_asks_a_deadline(question: str) -> None:
    assert asked_fact(question) == "deadline"


def test_batas_alone_asks_no_deadline() -> None:
    assert asked_fact("berapa batas omzet UMKM") != "deadline"


def test_tanggal_berapa_asks_a_date_not_a_rate() -> None:
    assert asked_facts("batas setor pph 21 tanggal brp?") == ("deadline",)
    assert asked_facts("PPh 26 atas royalti ke luar negeri berapa?") == ("rate",)
