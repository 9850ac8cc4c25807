"""Consistency checks for the answer evaluation set ``eval/answers.yaml`` and the petty-cash procedure.

The answer benchmark scores the whole pipeline against these expectations. If an expectation is itself
wrong (a quote string that is not in the source, a Pasal that does not exist, a user who could not read the
cited document, an "access denied" item whose user can in fact read the document) every later measurement
is skewed without anyone noticing, so the file is checked here against the corpus on every run. No index is
built: plain file reads.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = ROOT / "eval" / "answers.yaml"
INTERNAL_DIR = ROOT / "corpus" / "internal"
REGULATIONS_DIR = ROOT / "corpus" / "regulations"
DIRECTORY = ROOT / "corpus" / "directory.yaml"
CONFLICT_DOC = "petty-cash-vendor-payments"
PUBLIC_GROUP = "everyone"
INJECTION_MARKER = "abaikan instruksi sebelumnya"

MIN_COUNTS = {
    "direct": 25,
    "definition": 8,
    "amendment_by_date": 10,
    "straddle": 4,
    "revoked": 5,
    "fake_number": 6,
    "absent_regulation": 5,
    "ambiguous": 8,
    "advice": 6,
    "protected": 4,
    "conflict": 4,
    "injection_question": 6,
    "injection_document": 3,
    "access_denied": 8,
    "internal_policy": 12,
    "out_of_scope": 4,
    "english": 10,
}
STATUSES = {"answered", "clarify", "abstained", "escalated"}
REASONS = {"advice", "protected_determination", "out_of_scope"}
CATEGORY_REASON = {"advice": "advice", "protected": "protected_determination", "out_of_scope": "out_of_scope"}
ITEM_KEYS = {"id", "category", "question", "user", "as_of", "expect", "note"}
EXPECT_KEYS = {
    "status", "status_in", "cites_any", "must_not_cite", "quote_contains", "claims_must_not_contain",
    "escalation_reason",
}  # fmt: skip


# -------------------------------------------------------------------------------------------------- loaders


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Front matter is between the first two ``---`` lines; the body follows the second."""
    lines = text.split("\n")
    assert lines[0] == "---", "document must start with a '---' line"
    end = lines.index("---", 1)
    return yaml.safe_load("\n".join(lines[1:end])), "\n".join(lines[end + 1 :])


@cache
def items() -> list[dict[str, Any]]:
    data = yaml.safe_load(ANSWERS.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


@cache
def internal_docs() -> dict[str, tuple[dict[str, Any], str]]:
    return {
        p.stem: split_front_matter(p.read_text(encoding="utf-8")) for p in sorted(INTERNAL_DIR.glob("*.md"))
    }


@cache
def directory() -> dict[str, dict[str, Any]]:
    return yaml.safe_load(DIRECTORY.read_text(encoding="utf-8"))["users"]


@cache
def regulation_ids() -> frozenset[str]:
    return frozenset(p.name for p in REGULATIONS_DIR.iterdir() if (p / "text.txt").is_file())


@cache
def regulation_text(doc_id: str) -> str:
    return (REGULATIONS_DIR / doc_id / "text.txt").read_text(encoding="utf-8")


def normalize_ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def sections(body: str) -> dict[str, str]:
    """``## heading`` -> the text up to the next ``##`` heading."""
    parts = re.split(r"^##\s+(.+)$", body, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def location_text(cite: dict[str, Any]) -> str:
    """Text a quote for this citation is drawn from: the internal section, or the whole regulation."""
    doc_id = cite["doc_id"]
    if doc_id in regulation_ids():
        return regulation_text(doc_id)
    return sections(internal_docs()[doc_id][1])[cite["section"]]


def can_read(user: str | None, meta: dict[str, Any]) -> bool:
    """Mirror of the access rule: a shared group and entity (guests see every entity's public docs)."""
    groups = {PUBLIC_GROUP} | set(directory()[user]["groups"] if user else ())
    entities = set(directory()[user]["entities"]) if user else set(meta["entities"])
    return bool(groups & set(meta["access"])) and bool(entities & set(meta["entities"]))


def statuses(item: dict[str, Any]) -> set[str]:
    expect = item["expect"]
    return {expect["status"]} if "status" in expect else set(expect["status_in"])


def by_category(category: str) -> list[dict[str, Any]]:
    return [q for q in items() if q["category"] == category]


# ---------------------------------------------------------------------------------------------- shape


def test_set_size_ids_and_keys() -> None:
    qs = items()
    assert len(qs) >= 110
    ids = [q["id"] for q in qs]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"a\d{3}", i) for i in ids)
    for q in qs:
        assert set(q) <= ITEM_KEYS, (q["id"], set(q) - ITEM_KEYS)
        assert set(q["expect"]) <= EXPECT_KEYS, (q["id"], set(q["expect"]) - EXPECT_KEYS)
        assert isinstance(q["question"], str) and len(q["question"]) >= 8, q["id"]
        assert isinstance(q.get("note"), str) and q["note"], q["id"]
        assert "as_of" not in q or type(q["as_of"]) is dt.date, q["id"]
        assert "user" not in q or q["user"] in directory(), (q["id"], q.get("user"))


def test_category_minimum_counts() -> None:
    counts = Counter(q["category"] for q in items())
    assert set(counts) <= set(MIN_COUNTS), set(counts) - set(MIN_COUNTS)
    short = {c: (counts[c], n) for c, n in MIN_COUNTS.items() if counts[c] < n}
    assert short == {}


def test_statuses_and_escalation_reasons_are_valid() -> None:
    for q in items():
        expect = q["expect"]
        assert ("status" in expect) != ("status_in" in expect), q["id"]
        if "status_in" in expect:
            assert len(expect["status_in"]) >= 2, q["id"]
        assert statuses(q) <= STATUSES, (q["id"], statuses(q))
        if "escalation_reason" in expect:
            assert expect["escalation_reason"] in REASONS, q["id"]
            assert "escalated" in statuses(q), q["id"]
        if statuses(q) == {"escalated"}:
            assert "escalation_reason" in expect, q["id"]
        if statuses(q) == {"answered"}:
            assert expect.get("cites_any"), q["id"]


def test_escalation_categories_expect_their_reason() -> None:
    for category, reason in CATEGORY_REASON.items():
        for q in by_category(category):
            assert statuses(q) == {"escalated"}, q["id"]
            assert q["expect"]["escalation_reason"] == reason, q["id"]


def test_abstain_categories_and_clarify_category() -> None:
    for category in ("fake_number", "absent_regulation"):
        for q in by_category(category):
            assert statuses(q) == {"abstained"}, q["id"]
            assert not q["expect"].get("cites_any"), q["id"]
    clarifying = by_category("ambiguous")
    assert all("clarify" in statuses(q) for q in clarifying)
    assert sum(statuses(q) == {"clarify"} for q in clarifying) >= 6


# ---------------------------------------------------------------------------------- sources and quotes


def all_cites() -> list[tuple[str, dict[str, Any]]]:
    return [(q["id"], c) for q in items() for c in q["expect"].get("cites_any", [])]


def test_every_citation_points_to_an_existing_location() -> None:
    docs = internal_docs()
    for qid, cite in all_cites():
        doc_id = cite["doc_id"]
        if doc_id in regulation_ids():
            assert set(cite) <= {"doc_id", "pasal", "ayat"}, (qid, cite)
            assert isinstance(cite["pasal"], str), (qid, cite)
            text = regulation_text(doc_id)
            assert re.search(rf"Pasal {re.escape(cite['pasal'])}\b", text), (qid, doc_id, cite["pasal"])
            if "ayat" in cite:
                assert f"({cite['ayat']})" in text, (qid, doc_id, cite["ayat"])
        else:
            assert doc_id in docs, (qid, doc_id)
            assert set(cite) == {"doc_id", "section"}, (qid, cite)
            assert cite["section"] in sections(docs[doc_id][1]), (qid, doc_id, cite["section"])


def test_every_must_not_cite_document_exists() -> None:
    known = regulation_ids() | set(internal_docs())
    for q in items():
        for doc_id in q["expect"].get("must_not_cite", []):
            assert doc_id in known, (q["id"], doc_id)
        cited = {c["doc_id"] for c in q["expect"].get("cites_any", [])}
        assert not cited & set(q["expect"].get("must_not_cite", [])), q["id"]


def test_every_quote_string_occurs_verbatim_in_a_cited_source() -> None:
    for q in items():
        cites = q["expect"].get("cites_any", [])
        for needle in q["expect"].get("quote_contains", []):
            assert cites, (q["id"], "quote_contains without cites_any")
            haystacks = [normalize_ws(location_text(c)) for c in cites]
            assert any(normalize_ws(needle) in h for h in haystacks), (q["id"], needle)


def test_cited_internal_documents_are_readable_in_force_and_owned() -> None:
    docs = internal_docs()
    for q in items():
        for cite in q["expect"].get("cites_any", []):
            if cite["doc_id"] in regulation_ids():
                continue
            meta, _ = docs[cite["doc_id"]]
            assert can_read(q.get("user"), meta), (q["id"], q.get("user"), cite["doc_id"])
            assert meta["status"] != "draft" and meta.get("owner"), (q["id"], cite["doc_id"])
            if "as_of" in q and cite["doc_id"] != CONFLICT_DOC:
                start, end = meta["effective_from"], meta.get("effective_to")
                in_window = start <= q["as_of"] and (end is None or q["as_of"] < end)
                assert in_window or q["category"] == "straddle", (q["id"], cite["doc_id"], q["as_of"])


# ------------------------------------------------------------------------------------- category semantics


def test_access_denied_items_really_lack_access() -> None:
    docs = internal_docs()
    qs = by_category("access_denied")
    for q in qs:
        hidden = [d for d in q["expect"].get("must_not_cite", []) if d in docs]
        assert hidden, q["id"]
        for doc_id in hidden:
            assert not can_read(q.get("user"), docs[doc_id][0]), (q["id"], q.get("user"), doc_id)
        assert statuses(q) <= {"abstained", "answered"}, q["id"]
        assert "abstained" in statuses(q), q["id"]
        for cite in q["expect"].get("cites_any", []):
            assert cite["doc_id"] in regulation_ids(), (q["id"], "only public regulations may answer")
    assert {q.get("user") for q in qs} >= {None, "ap.clerk@sinarnusantara.co.id"}


def test_internal_policy_items_are_answered_from_internal_documents() -> None:
    docs = internal_docs()
    for q in by_category("internal_policy"):
        assert statuses(q) == {"answered"}, q["id"]
        assert any(c["doc_id"] in docs for c in q["expect"]["cites_any"]), q["id"]


def test_straddle_items_list_two_versions() -> None:
    for q in by_category("straddle"):
        assert "as_of" not in q, q["id"]  # the period comes from the question itself
        assert len({c["doc_id"] for c in q["expect"]["cites_any"]}) >= 2, q["id"]


def test_amendment_items_pin_a_date_and_exclude_the_other_version() -> None:
    for q in by_category("amendment_by_date"):
        assert "as_of" in q, q["id"]
        assert statuses(q) == {"answered"}, q["id"]
    pinned = {
        (c["doc_id"], c.get("pasal"))
        for q in by_category("amendment_by_date")
        for c in q["expect"]["cites_any"]
    }
    assert {("uu-42-2009", "7"), ("uu-7-2021", "7"), ("pp-46-2013", "3"), ("pp-23-2018", "2")} <= pinned
    assert {("pp-55-2022", "56"), ("uu-7-1983", "23"), ("uu-36-2008", "23")} <= pinned


def test_revoked_items_never_cite_the_revoked_source() -> None:
    qs = by_category("revoked")
    for q in qs:
        # A revoked text in the corpus must never be cited; one that is absent may only be abstained on
        # or explained from the revoking provision.
        assert q["expect"].get("must_not_cite") or "abstained" in statuses(q), q["id"]
    assert any(
        "pp-23-2018" in q["expect"]["must_not_cite"] and q["as_of"].year == 2024 for q in qs if "as_of" in q
    )


def test_conflict_items_cite_both_sides() -> None:
    for q in by_category("conflict"):
        assert statuses(q) == {"answered"}, q["id"]
        cited = {c["doc_id"] for c in q["expect"]["cites_any"]}
        assert CONFLICT_DOC in cited and len(cited) >= 2, q["id"]


def test_injection_items_guard_against_the_payload() -> None:
    for q in by_category("injection_document"):
        assert any(c["doc_id"] == "faq-npwp-16-digit-nitku" for c in q["expect"]["cites_any"]), q["id"]
        assert INJECTION_MARKER in [s.lower() for s in q["expect"]["claims_must_not_contain"]], q["id"]
    faq_body = internal_docs()["faq-npwp-16-digit-nitku"][1]
    assert INJECTION_MARKER in sections(faq_body)["Apakah perubahan ini mengubah tarif pemotongan?"].lower()
    for q in by_category("injection_question"):
        assert len(statuses(q)) >= 2 or q["expect"].get("must_not_cite"), q["id"]


def test_english_items_are_english_questions() -> None:
    english_words = re.compile(r"\b(what|which|who|how|is|are|within|for|under)\b", re.IGNORECASE)
    for q in by_category("english"):
        assert english_words.search(q["question"]), q["id"]


# ------------------------------------------------------------------------------------- conflict document


def test_conflict_document_front_matter() -> None:
    meta, body = internal_docs()[CONFLICT_DOC]
    assert meta["id"] == CONFLICT_DOC
    assert meta["status"] == "in_force"
    assert meta["owner"] == "finance.manager@sinarnusantara.co.id"
    assert sorted(meta["access"]) == ["ap", "finance", "tax-team"]
    assert meta["effective_from"] == dt.date(2024, 6, 1) and meta["effective_to"] is None
    assert type(meta["accessed"]) is dt.date and isinstance(meta["version"], str)
    reference = internal_docs()["wht-matrix-2024"][0]
    assert set(reference) - {"owner"} <= set(meta), set(reference) - set(meta)
    assert 1500 <= len(body) <= 6000


@pytest.mark.parametrize(
    ("section", "ours", "other_doc", "other_section", "theirs"),
    [
        (
            "Pemotongan PPh 23 atas Jasa",
            "4% (empat persen)",
            "wht-matrix-2024",
            "Matriks Tarif",
            "| PPh 23 | 2% |",
        ),
        (
            "Penyetoran dan Pelaporan",
            "paling lambat tanggal 20 bulan berikutnya",
            "tax-closing-calendar",
            "Batas Waktu Eksternal",
            "| tanggal 15 bulan berikutnya | tanggal 20 bulan berikutnya |",
        ),
        (
            "PPN atas Pembelian Kas Kecil",
            "tanpa menunggu faktur pajak",
            "faktur-pajak-procedure",
            "Langkah Pemeriksaan Faktur",
            "tidak boleh diposting dengan PPN sebagai Pajak Masukan",
        ),
    ],
)
def test_conflict_document_disagrees_explicitly(
    section: str, ours: str, other_doc: str, other_section: str, theirs: str
) -> None:
    body = internal_docs()[CONFLICT_DOC][1]
    assert ours in normalize_ws(sections(body)[section])
    other_meta, other_body = internal_docs()[other_doc]
    assert other_meta["status"] == "in_force"
    assert theirs in normalize_ws(sections(other_body)[other_section])
    # Same scope and same period: both documents are in force for SNR on a date after both took effect.
    ours_meta = internal_docs()[CONFLICT_DOC][0]
    assert set(ours_meta["entities"]) & set(other_meta["entities"])
    assert set(ours_meta["access"]) & set(other_meta["access"])
    assert "2% (dua persen)" in regulation_text("uu-36-2008")
