"""The acts added to complete the amendment chains, chunked from their real text."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from kb.chunking import chunk_document
from kb.metadata import meta_from_corpus
from kb.model import ParsedChunk

REGS = Path(__file__).resolve().parents[2] / "corpus" / "regulations"
NEW_ACTS = ("uu-16-2000", "uu-17-2000", "uu-18-2000", "uu-11-2020", "pp-94-2010")


@cache
def chunks(doc_id: str) -> tuple[ParsedChunk, ...]:
    folder = REGS / doc_id
    meta = meta_from_corpus(
        json.loads((folder / "metadata.json").read_text()), folder / "metadata.json", doc_id
    )
    return tuple(chunk_document((folder / "text.txt").read_text(encoding="utf-8"), meta))


def restated(doc_id: str) -> set[tuple[str, str]]:
    return {(c.amends.law, c.amends.pasal) for c in chunks(doc_id) if c.amends}


@pytest.mark.parametrize("doc_id", NEW_ACTS)
def test_new_act_metadata_and_official_link(doc_id: str) -> None:
    folder = REGS / doc_id
    raw = json.loads((folder / "metadata.json").read_text())
    meta = meta_from_corpus(raw, folder / "metadata.json", doc_id)
    assert raw["source"]["repo"] == "mblonyox/data-peraturan"
    assert (
        meta.official_url
        == f"https://peraturan.go.id/id/{raw['type'].lower()}-no-{raw['number']}-tahun-{raw['year']}"
    )
    assert meta.source_url and meta.source_url.startswith("https://github.com/mblonyox/data-peraturan/blob/")
    index = {e["id"] for e in json.loads((REGS / "index.json").read_text())}
    assert doc_id in index


@pytest.mark.parametrize(
    ("doc_id", "law", "pasal"),
    [
        ("uu-16-2000", "UU 6/1983", "7"),
        ("uu-17-2000", "UU 7/1983", "17"),
        ("uu-18-2000", "UU 8/1983", "16A"),
        ("uu-11-2020", "UU 7/1983", "4"),
        ("uu-11-2020", "UU 8/1983", "9"),
        ("uu-11-2020", "UU 6/1983", "8"),
    ],
)
def test_amending_acts_restate_pasal_of_the_law_they_name(doc_id: str, law: str, pasal: str) -> None:
    assert (law, pasal) in restated(doc_id)


def test_cipta_kerja_tax_cluster_amends_three_laws_in_pasal_111_to_113() -> None:
    laws_by_pasal = {}
    for c in chunks("uu-11-2020"):
        if c.amends:
            laws_by_pasal.setdefault(c.key.split("/")[0], set()).add(c.amends.law)
    assert laws_by_pasal == {
        "pasal-111": {"UU 7/1983"},
        "pasal-112": {"UU 8/1983"},
        "pasal-113": {"UU 6/1983"},
    }
    sanksi = [
        c for c in chunks("uu-11-2020") if c.amends and c.amends.pasal == "13" and c.amends.law == "UU 6/1983"
    ]
    assert any("tarif bunga per bulan" in c.text for c in sanksi)
    # the omnibus elucidation names each law it explains
    pen = {c.location for c in chunks("uu-11-2020") if c.kind == "penjelasan"}
    assert "Penjelasan Pasal 2 UU 7/1983 (Pasal 111 angka 1 UU 11/2020)" in pen


def test_pp_94_2010_is_a_plain_regulation() -> None:
    cs = chunks("pp-94-2010")
    assert not restated("pp-94-2010")
    assert {c.pasal for c in cs if c.kind in ("pasal", "ayat") and c.pasal} >= {str(n) for n in range(1, 36)}


def test_hpp_elucidation_of_vat_export_rate_is_attached_to_uu_ppn() -> None:
    pen = [c for c in chunks("uu-7-2021") if c.kind == "penjelasan" and c.pasal == "7" and "ekspor" in c.text]
    assert pen
    assert all("UU 8/1983" in c.location and "Pasal 4 angka 2 UU 7/2021" in c.location for c in pen)
    assert not any("UU 36/2008" in c.location for c in chunks("uu-7-2021"))


def test_pmk_54_2025_amends_pmk_81_2024_even_with_ocr_split_words() -> None:
    assert {law for law, _ in restated("pmk-54-2025")} == {"PMK 81/2024"}
