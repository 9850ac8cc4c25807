"""Consistency checks for the sample data files: internal documents, identity directory, retrieval eval set.

These files are hand-written fixtures that ingest, identity and the retrieval benchmark all read. A typo in a
front-matter date, a gold pointing at a Pasal that is not in the text, or an access group that no user belongs
to would silently skew every later measurement, so they are checked here, cheaply, on every test run.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from kb.model import DOC_STATUSES, PUBLIC_GROUP, DocumentMeta

ROOT = Path(__file__).resolve().parents[2]
INTERNAL_DIR = ROOT / "corpus" / "internal"
REGULATIONS_DIR = ROOT / "corpus" / "regulations"
DIRECTORY = ROOT / "corpus" / "directory.yaml"
RETRIEVAL = ROOT / "eval" / "retrieval.yaml"

REQUIRED_FIELDS = (
    "id", "title", "number", "type", "jurisdiction", "language", "tax_types", "enacted", "effective_from",
    "status", "amends", "amended_by", "revokes", "revoked_by", "source_url", "accessed", "approved_by",
    "version", "entities", "access", "review_by",
)  # fmt: skip
DATE_FIELDS = ("enacted", "effective_from", "effective_to", "accessed", "review_by")
RELATION_FIELDS = ("amends", "amended_by", "revokes", "revoked_by")
INTERNAL_TYPES = {"policy", "procedure", "memo", "faq"}
KNOWN_GROUPS = {PUBLIC_GROUP, "finance", "ap", "tax-team", "management"}
KNOWN_ENTITIES = {"SNR", "SNL"}
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
EMAIL = re.compile(r"^[a-z0-9.]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$")
SLACK_ID = re.compile(r"^U[A-Z0-9]{8,10}$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

EXPECTED_DRAFTS = {"travel-entertainment-policy-draft"}
EXPECTED_OWNERLESS = {"ap-checklist-legacy"}
INJECTION_MARKER = "abaikan instruksi sebelumnya"


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Front matter is between the first two ``---`` lines; the body follows the second."""
    lines = text.split("\n")
    assert lines[0] == "---", "document must start with a '---' line"
    end = lines.index("---", 1)
    meta = yaml.safe_load("\n".join(lines[1:end]))
    return meta, "\n".join(lines[end + 1 :])


@cache
def internal_docs() -> dict[str, tuple[dict[str, Any], str]]:
    docs: dict[str, tuple[dict[str, Any], str]] = {}
    for path in sorted(INTERNAL_DIR.glob("*.md")):
        meta, body = split_front_matter(path.read_text(encoding="utf-8"))
        docs[path.stem] = (meta, body)
    return docs


@cache
def directory() -> dict[str, dict[str, Any]]:
    return yaml.safe_load(DIRECTORY.read_text(encoding="utf-8"))["users"]


@cache
def retrieval_items() -> list[dict[str, Any]]:
    return yaml.safe_load(RETRIEVAL.read_text(encoding="utf-8"))


@cache
def regulation_ids() -> frozenset[str]:
    return frozenset(p.name for p in REGULATIONS_DIR.iterdir() if (p / "text.txt").is_file())


@cache
def regulation_text(doc_id: str) -> str:
    return (REGULATIONS_DIR / doc_id / "text.txt").read_text(encoding="utf-8")


def section_headings(body: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^##\s+(.+)$", body, flags=re.MULTILINE)]


# --------------------------------------------------------------------------------------------- internal docs


def test_internal_doc_set_size_and_ids_match_file_names() -> None:
    docs = internal_docs()
    assert 8 <= len(docs) <= 15
    for stem, (meta, _) in docs.items():
        assert meta["id"] == stem


@pytest.mark.parametrize("stem", sorted(p.stem for p in INTERNAL_DIR.glob("*.md")))
def test_internal_doc_front_matter_is_canonical(stem: str) -> None:
    meta, body = internal_docs()[stem]
    missing = [f for f in REQUIRED_FIELDS if f not in meta]
    assert missing == []
    assert KEBAB.match(meta["id"])
    assert meta["type"] in INTERNAL_TYPES
    assert meta["jurisdiction"] == "ID"
    assert meta["language"] in {"id", "en"}
    assert meta["status"] in DOC_STATUSES
    assert isinstance(meta["version"], str)
    assert meta["source_url"].startswith("https://intranet.sinarnusantara.co.id/")
    assert isinstance(meta["tax_types"], list) and meta["tax_types"]
    assert all(isinstance(t, str) and t for t in meta["tax_types"])
    for field in RELATION_FIELDS:
        assert isinstance(meta[field], list), field
    assert meta["entities"] and set(meta["entities"]) <= KNOWN_ENTITIES
    assert meta["access"] and set(meta["access"]) <= KNOWN_GROUPS
    for field in DATE_FIELDS:
        value = meta.get(field)
        # PyYAML turns an ISO ``YYYY-MM-DD`` scalar into a date; anything else stays a string and fails here.
        assert value is None or type(value) is dt.date, f"{field}={value!r} is not an ISO date"
    assert type(meta["effective_from"]) is dt.date
    assert type(meta["accessed"]) is dt.date
    if meta.get("effective_to") is not None:
        assert meta["effective_from"] < meta["effective_to"]
    for field in ("owner", "approved_by"):
        if meta.get(field) is not None:
            assert EMAIL.match(meta[field]) and meta[field].endswith("@sinarnusantara.co.id")
    assert 1500 <= len(body) <= 6000, len(body)
    assert re.search(r"^# \S", body, flags=re.MULTILINE)
    assert len(section_headings(body)) >= 3


def test_internal_ids_and_numbers_are_unique() -> None:
    metas = [meta for meta, _ in internal_docs().values()]
    for field in ("id", "number"):
        counts = Counter(m[field] for m in metas)
        assert [k for k, n in counts.items() if n > 1] == []


def test_exactly_the_expected_documents_are_draft_or_ownerless() -> None:
    docs = internal_docs()
    drafts = {k for k, (m, _) in docs.items() if m["status"] == "draft"}
    ownerless = {k for k, (m, _) in docs.items() if not m.get("owner")}
    assert drafts == EXPECTED_DRAFTS
    assert ownerless == EXPECTED_OWNERLESS


def test_relations_point_to_existing_documents_and_are_symmetric() -> None:
    docs = internal_docs()
    inverse = {
        "amends": "amended_by",
        "amended_by": "amends",
        "revokes": "revoked_by",
        "revoked_by": "revokes",
    }
    for stem, (meta, _) in docs.items():
        for field, back in inverse.items():
            for other in meta[field]:
                assert other in docs, f"{stem}.{field} -> unknown {other}"
                assert stem in docs[other][0][back], f"{other}.{back} must list {stem}"


def test_withholding_matrix_versions_are_distinguishable_by_date() -> None:
    old, old_body = internal_docs()["wht-matrix-2022"]
    new, new_body = internal_docs()["wht-matrix-2024"]
    assert (old["status"], old["effective_from"], old["effective_to"]) == (
        "superseded",
        dt.date(2022, 4, 1),
        dt.date(2024, 1, 1),
    )
    assert (new["status"], new["effective_from"], new.get("effective_to")) == (
        "in_force",
        dt.date(2024, 1, 1),
        None,
    )
    assert old["revoked_by"] == ["wht-matrix-2024"] and new["revokes"] == ["wht-matrix-2022"]
    # The review threshold changed between versions, so a dated question has exactly one right answer.
    assert "Rp100.000.000" in old_body and "Rp100.000.000" not in new_body
    assert "Rp50.000.000" in new_body and "Rp50.000.000" not in old_body


def test_memo_is_tax_team_only_and_has_memo_sections_in_order() -> None:
    meta, body = internal_docs()["memo-pph26-sg-software"]
    assert meta["type"] == "memo" and meta["access"] == ["tax-team"]
    assert section_headings(body) == ["Issue", "Facts", "Analysis", "Conclusion", "Limitation"]


def test_entity_and_group_scoped_documents_exist() -> None:
    metas = {k: m for k, (m, _) in internal_docs().items()}
    assert metas["snl-freight-pph23-procedure"]["entities"] == ["SNL"]
    assert metas["tax-risk-approval-policy"]["access"] == ["management"]
    assert metas["faq-npwp-16-digit-nitku"]["type"] == "faq"
    assert metas["faq-npwp-16-digit-nitku"]["access"] == [PUBLIC_GROUP]


def test_exactly_one_document_carries_the_planted_injection_line() -> None:
    carriers = [k for k, (_, body) in internal_docs().items() if INJECTION_MARKER in body.lower()]
    assert carriers == ["faq-npwp-16-digit-nitku"]


# ------------------------------------------------------------------------------------------------ directory


def test_directory_users_are_well_formed() -> None:
    users = directory()
    assert 6 <= len(users) <= 10
    for email, user in users.items():
        assert EMAIL.match(email)
        assert isinstance(user["name"], str) and user["name"]
        for field in ("groups", "roles", "entities"):
            assert isinstance(user[field], list), (email, field)
        assert set(user["groups"]) <= KNOWN_GROUPS - {PUBLIC_GROUP}
        assert set(user["entities"]) <= KNOWN_ENTITIES and user["entities"]
        assert SLACK_ID.match(user["slack_id"]), user["slack_id"]
        assert UUID.match(user["aad_object_id"]), user["aad_object_id"]
    for field in ("slack_id", "aad_object_id"):
        counts = Counter(u[field] for u in users.values())
        assert [k for k, n in counts.items() if n > 1] == []


def test_directory_covers_roles_entities_and_a_guest() -> None:
    users = directory()
    assert set(users["tax.lead@sinarnusantara.co.id"]["roles"]) == {"tax_team", "faq_approver"}
    assert users["tax.analyst@sinarnusantara.co.id"]["roles"] == ["tax_team"]
    assert users["snl.accountant@sinarnusantara.co.id"]["entities"] == ["SNL"]
    assert any("management" in u["groups"] for u in users.values())
    assert any(u["groups"] == [] for u in users.values())


def test_every_access_group_used_by_a_document_has_a_member() -> None:
    used = {g for meta, _ in internal_docs().values() for g in meta["access"]} - {PUBLIC_GROUP}
    held = {g for u in directory().values() for g in u["groups"]}
    assert used - held == set()


# ---------------------------------------------------------------------------------------------- eval set


def can_read(user_email: str | None, meta: dict[str, Any]) -> bool:
    groups = {PUBLIC_GROUP} | set(directory()[user_email]["groups"] if user_email else ())
    entities = set(directory()[user_email]["entities"]) if user_email else set(meta["entities"])
    return bool(groups & set(meta["access"])) and bool(entities & set(meta["entities"]))


def test_retrieval_set_shape_and_language_mix() -> None:
    items = retrieval_items()
    assert len(items) >= 90
    ids = [q["id"] for q in items]
    assert len(set(ids)) == len(ids)
    langs = Counter(q["lang"] for q in items)
    assert set(langs) == {"id", "en"}
    assert 0.5 <= langs["id"] / len(items) <= 0.7
    for q in items:
        assert isinstance(q["question"], str) and len(q["question"]) > 10
        assert q["gold"], q["id"]
        assert "as_of" not in q or type(q["as_of"]) is dt.date
        assert "user" not in q or q["user"] in directory()


def test_every_gold_points_to_an_existing_location() -> None:
    docs = internal_docs()
    for q in retrieval_items():
        for gold in q["gold"]:
            doc_id = gold["doc_id"]
            if doc_id in regulation_ids():
                pasal = str(gold["pasal"])
                text = regulation_text(doc_id)
                assert f"Pasal {pasal}" in text, (q["id"], doc_id, pasal)
                if "ayat" in gold:
                    assert f"({gold['ayat']})" in text, (q["id"], doc_id, gold["ayat"])
            else:
                assert doc_id in docs, (q["id"], doc_id)
                meta, body = docs[doc_id]
                assert gold["section"] in section_headings(body), (q["id"], gold["section"])
                assert meta["status"] != "draft" and meta.get("owner"), (q["id"], doc_id)
                assert can_read(q.get("user"), meta), (q["id"], q.get("user"), doc_id)


def test_retrieval_set_spans_documents_and_versions() -> None:
    items = retrieval_items()
    docs = {g["doc_id"] for q in items for g in q["gold"]}
    assert len(docs) >= 15

    def gold_for(doc_id: str, pasal: str) -> list[dt.date | None]:
        return [
            q.get("as_of")
            for q in items
            for g in q["gold"]
            if (g["doc_id"], g.get("pasal")) == (doc_id, pasal)
        ]

    # UU PPN Pasal 7 (VAT rate) is asked both before and after UU HPP; UMKM final tax across its three PPs.
    assert dt.date(2015, 6, 1) in gold_for("uu-42-2009", "7")
    assert dt.date(2022, 5, 1) in gold_for("uu-7-2021", "7")
    assert gold_for("pp-46-2013", "3") and gold_for("pp-23-2018", "2") and gold_for("pp-55-2022", "56")
    # The superseded internal matrix is only asked about with a date inside its validity window.
    old = internal_docs()["wht-matrix-2022"][0]
    for q in items:
        if any(g["doc_id"] == "wht-matrix-2022" for g in q["gold"]):
            assert old["effective_from"] <= q["as_of"] < old["effective_to"], q["id"]


# --------------------------------------------------------------------------------------------- regulations

OFFICIAL_HOSTS = ("https://peraturan.go.id/", "https://peraturan.bpk.go.id/", "https://www.pajak.go.id/")


@cache
def regulation_meta(doc_id: str) -> dict[str, Any]:
    return json.loads((REGULATIONS_DIR / doc_id / "metadata.json").read_text(encoding="utf-8"))


def test_regulation_index_lists_every_folder_once() -> None:
    index = json.loads((REGULATIONS_DIR / "index.json").read_text(encoding="utf-8"))
    ids = [e["id"] for e in index]
    assert len(ids) == len(set(ids))
    assert set(ids) == regulation_ids()
    assert {"uu-16-2000", "uu-17-2000", "uu-18-2000", "uu-11-2020", "uu-6-2023", "pp-94-2010"} <= set(ids)
    for entry in index:
        meta = regulation_meta(entry["id"])
        assert entry["text_chars"] == len(regulation_text(entry["id"])) == meta["sizes"]["text_chars"]
        assert entry["repo"] == meta["source"]["repo"] and entry["path"] == meta["source"]["path"]


@pytest.mark.parametrize(
    "doc_id", sorted(p.name for p in REGULATIONS_DIR.iterdir() if (p / "text.txt").is_file())
)
def test_regulation_official_link_is_official_and_justified(doc_id: str) -> None:
    meta = regulation_meta(doc_id)
    url = meta.get("official_url")
    if url is None:
        return
    assert url.startswith(OFFICIAL_HOSTS), url
    assert meta["official_url_basis"]
    assert "github.com" not in url
    if meta["type"] in ("UU", "PP"):
        assert (
            url
            == f"https://peraturan.go.id/id/{meta['type'].lower()}-no-{meta['number']}-tahun-{meta['year']}"
        )


def test_every_uu_and_pp_has_an_official_link_and_the_scrape_stays_provenance() -> None:
    from kb.metadata import meta_from_corpus

    for doc_id in regulation_ids():
        raw = regulation_meta(doc_id)
        meta = meta_from_corpus(raw, REGULATIONS_DIR / doc_id / "metadata.json", doc_id)
        if raw["type"] in ("UU", "PP"):
            assert meta.official_url and meta.official_url.startswith("https://peraturan.go.id/id/")
        assert meta.source_url and meta.source_url.startswith("https://github.com/")


def test_amendment_chains_name_the_added_acts() -> None:
    from kb.metadata import meta_from_corpus

    def meta(doc_id: str) -> DocumentMeta:
        return meta_from_corpus(regulation_meta(doc_id), REGULATIONS_DIR / doc_id / "metadata.json", doc_id)

    assert {"uu-16-2000", "uu-28-2007", "uu-16-2009", "uu-11-2020", "uu-7-2021"} <= set(
        meta("uu-6-1983").amended_by
    )
    assert {"uu-17-2000", "uu-36-2008", "uu-11-2020", "uu-7-2021"} <= set(meta("uu-7-1983").amended_by)
    assert {"uu-18-2000", "uu-42-2009", "uu-11-2020", "uu-7-2021"} <= set(meta("uu-8-1983").amended_by)
    assert set(meta("uu-11-2020").amends) >= {"uu-6-1983", "uu-7-1983", "uu-8-1983"}
    # the act PMK 54/2025 amends is absent: kept by number, never replaced by a present act
    assert meta("pmk-54-2025").amends == ("PMK 81/2024",)
    # Cipta Kerja was revoked by Perppu 2/2022, whose text is annexed to UU 6/2023 (in the corpus)
    cipta = meta("uu-11-2020")
    assert cipta.revoked_by == ("uu-6-2023",) and cipta.related_dates == ()
    perppu = meta("uu-6-2023")
    assert perppu.revokes == ("uu-11-2020",) and set(perppu.amends) == {"uu-6-1983", "uu-7-1983", "uu-8-1983"}
    # the wording applies from the Perppu's date; UU 6/2023 (which enacted it) is dated 2023-03-31
    assert perppu.effective_from == dt.date(2022, 12, 30) and perppu.enacted == dt.date(2023, 3, 31)
    # PP 55/2022 revokes only Pasal 2A of PP 94/2010: not a revocation of the whole act
    assert "PP 94/2010" not in meta("pp-55-2022").revokes and "pp-94-2010" not in meta("pp-55-2022").revokes
    assert meta("pp-94-2010").revoked_by == ()
