"""What every KnowledgeStore backend must do, written once (like ``tests/tickets/contract.py``).

A backend's test module subclasses :class:`KnowledgeStoreContract` and provides two fixtures:

- ``corpus_store``: a class-scoped store holding real regulations, the tax-team memo and the vendor
  onboarding policy (:data:`CORPUS_REGS`, :data:`CORPUS_INTERNAL`), ingested with the hashing
  embedder through ``kb.ingest`` (read-only use);
- ``make_store``: a factory returning a fresh, empty store each call.

Behaviour covered: ingest and amendment/revocation windows, re-ingest no-op, versions, cached answers,
removal, all-or-nothing writes, quarantine, filter-first access in every retrieval mode, versions by
transaction date, revoked rules, and the tokens keyword search must find.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kb.embed.hashing import HashingEmbedder
from kb.errors import NotFoundError, StoreError
from kb.ingest import ingest_paths
from kb.retrieve import MODES, Retriever
from kb.store.protocol import KnowledgeStore, SearchFilter
from tests.kb.test_ingest import GOOD_POLICY

ROOT = Path(__file__).resolve().parents[2]
REGS = ROOT / "corpus" / "regulations"
INTERNAL = ROOT / "corpus" / "internal"
CORPUS_REGS = (
    "pmk-168-2023",
    "uu-8-1983",
    "uu-42-2009",
    "uu-7-2021",
    "uu-7-1983",
    "uu-36-2008",
    "pp-23-2018",
    "pp-55-2022",
)
CORPUS_INTERNAL = ("memo-pph26-sg-software.md", "ap-vendor-onboarding.md", "snl-freight-pph23-procedure.md")
CORPUS_IDS = (*CORPUS_REGS, "memo-pph26-sg-software", "ap-vendor-onboarding", "snl-freight-pph23-procedure")
SNL_ONLY = "snl-freight-pph23-procedure"
MEMO = "memo-pph26-sg-software"
EMBEDDER = HashingEmbedder()
EVERYONE = frozenset({"everyone"})
TAX_TEAM = frozenset({"everyone", "tax-team", "finance"})
FINANCE = frozenset({"everyone", "finance", "ap"})

# the ingest tests' policy under its own id and number, with one more section
POLICY = (
    GOOD_POLICY.replace("id: test-policy", "id: contract-policy")
    .replace("TST-POL-001", "TST-STORE-001")
    .replace("# Kebijakan Uji\n", "# Kebijakan Uji Kontrak Penyimpanan\n")
    + "\n## Dokumen\nVendor menyerahkan NPWP dan surat keterangan domisili sebelum pembayaran pertama.\n"
)


def copy_corpus(folder: Path) -> list[Path]:
    """The contract corpus copied into ``folder`` (so re-ingest and source paths stay stable)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = [Path(shutil.copytree(REGS / doc_id, folder / doc_id)) for doc_id in CORPUS_REGS]
    out += [Path(shutil.copy(INTERNAL / name, folder / name)) for name in CORPUS_INTERNAL]
    return out


def flt(as_of: dt.date, groups: frozenset[str] = EVERYONE, **narrow: Any) -> SearchFilter:
    return SearchFilter(groups=groups, as_of=as_of, **narrow)


def write_policy(folder: Path, text: str = POLICY) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "policy.md"
    path.write_text(text, encoding="utf-8")
    return path


class KnowledgeStoreContract:
    """Behaviour shared by the SQLite and PostgreSQL knowledge-base stores."""

    # --- ingest of the real corpus ----------------------------------------------------------------

    def test_implements_every_knowledge_store_member(self, corpus_store: KnowledgeStore) -> None:
        members = [
            name
            for name in dir(KnowledgeStore)
            if not name.startswith("_") and callable(getattr(KnowledgeStore, name, None))
        ]
        assert len(members) > 20
        assert [m for m in members if not callable(getattr(corpus_store, m, None))] == []

    def test_real_corpus_ingests_with_derived_windows(self, corpus_store: KnowledgeStore) -> None:
        assert sorted(d.meta.id for d in corpus_store.list_documents()) == sorted(CORPUS_IDS)
        stats = corpus_store.stats()
        assert stats["vectors"] == stats["chunks"] > 1000
        pp23 = corpus_store.get_document("pp-23-2018")
        assert pp23 is not None and pp23.effective_to == dt.date(2022, 12, 20)  # revoked by PP 55/2022
        by_number = corpus_store.document_by_number("PMK 168/2023")
        assert by_number is not None and by_number.meta.id == "pmk-168-2023"

    def test_amendment_chains_route_each_pasal_to_its_wording_by_date(
        self, corpus_store: KnowledgeStore
    ) -> None:
        routed = corpus_store.routed_chunk_ids(flt(dt.date(2015, 1, 1)), provisions=["uu-8-1983:pasal-7"])
        windows = {(c.doc_id, c.valid_from, c.valid_to) for c in corpus_store.get_chunks(routed).values()}
        assert windows == {("uu-42-2009", dt.date(2010, 4, 1), dt.date(2022, 4, 1))}
        later = corpus_store.routed_chunk_ids(flt(dt.date(2022, 5, 1)), provisions=["uu-8-1983:pasal-7"])
        assert {cid.split("#")[0] for cid in later} == {"uu-7-2021"}
        assert any("11% (sebelas persen)" in c.text for c in corpus_store.get_chunks(later).values())
        # UU HPP names "UU 7/1983 ... diubah terakhir dengan UU 36/2008": its Pasal 17 is UU PPh Pasal 17,
        # and its closing provisions start that part "pada Tahun Pajak 2022"
        pph17 = corpus_store.routed_chunk_ids(flt(dt.date(2023, 6, 1)), provisions=["uu-7-1983:pasal-17"])
        chunks = corpus_store.get_chunks(pph17).values()
        assert {c.doc_id for c in chunks} == {"uu-7-2021"}
        assert {c.valid_from for c in chunks} == {dt.date(2022, 1, 1)}
        old = corpus_store.routed_chunk_ids(flt(dt.date(2015, 6, 1)), provisions=["uu-7-1983:pasal-17"])
        assert {cid.split("#")[0] for cid in old} == {"uu-36-2008"}

    def test_edges_to_lists_the_passages_that_refer_to_a_passage(self, corpus_store: KnowledgeStore) -> None:
        # PP 55/2022 Pasal 59 states the years of the final rate, "sebagaimana dimaksud dalam Pasal 56 ayat
        # (1)"
        edges = corpus_store.edges_to(["pp-55-2022#pasal-56/ayat-1"], ["references"])
        assert "pp-55-2022#pasal-59" in {e.src for e in edges}
        assert {(e.dst, e.kind) for e in edges} == {("pp-55-2022#pasal-56/ayat-1", "references")}
        assert [e.src for e in edges] == sorted(e.src for e in edges)
        assert corpus_store.edges_to([], ["references"]) == []

    def test_uu_ppn_pasal_7_wording_by_transaction_date(self, corpus_store: KnowledgeStore) -> None:
        retriever = Retriever(corpus_store, EMBEDDER)
        later = retriever.search("UU PPN Pasal 7", flt(dt.date(2022, 5, 1)))
        top = later.results[0].chunk
        assert top.doc_id == "uu-7-2021" and top.provision == "uu-8-1983:pasal-7"
        assert "11% (sebelas persen)" in top.text
        earlier = retriever.search("UU PPN Pasal 7", flt(dt.date(2015, 1, 1)))
        assert earlier.results[0].chunk.doc_id == "uu-42-2009"
        assert "10% (sepuluh persen)" in earlier.results[0].chunk.text
        assert all(h.chunk.doc_id != "uu-7-2021" for h in earlier.results)

    def test_revoked_pp_23_2018_answers_for_2020_and_never_for_2023(
        self, corpus_store: KnowledgeStore
    ) -> None:
        retriever = Retriever(corpus_store, EMBEDDER)
        q = "tarif PPh final UMKM 0,5% peredaran bruto tertentu"
        in_period = retriever.search(q, flt(dt.date(2020, 3, 1)))
        assert "pp-23-2018" in {h.chunk.doc_id for h in in_period.results}
        assert "pp-55-2022" not in {h.chunk.doc_id for h in in_period.results}
        for mode in MODES:
            later = retriever.search(q, flt(dt.date(2023, 6, 1)), mode=mode, top_k=10)
            docs = {h.chunk.doc_id for h in later.results} | {h.chunk.doc_id for h in later.context}
            assert later.results and "pp-23-2018" not in docs, mode
        assert "pp-23-2018" not in corpus_store.visible_documents(flt(dt.date(2023, 6, 1)))
        assert "pp-23-2018" in corpus_store.visible_documents(flt(dt.date(2020, 3, 1)))

    # --- filter first ---------------------------------------------------------------------------

    @pytest.mark.parametrize("mode", MODES)
    def test_memo_never_reaches_users_outside_the_tax_team(
        self, corpus_store: KnowledgeStore, mode: str
    ) -> None:
        retriever = Retriever(corpus_store, EMBEDDER)
        q = "PPh 26 treaty Singapore software licence royalty memo conclusion"
        for groups in (EVERYONE, FINANCE):
            res = retriever.search(q, flt(dt.date(2026, 6, 1), groups), mode=mode, top_k=10)
            assert res.results, (groups, mode)
            docs = {h.chunk.doc_id for h in res.results} | {h.chunk.doc_id for h in res.context}
            assert MEMO not in docs, (groups, mode)
        res = retriever.search(q, flt(dt.date(2026, 6, 1), TAX_TEAM), mode=mode, top_k=10)
        assert MEMO in {h.chunk.doc_id for h in res.results}, mode

    def test_vector_and_keyword_search_filter_before_ranking(self, corpus_store: KnowledgeStore) -> None:
        memo_chunk = corpus_store.chunks_of(MEMO, indexed_only=True)[2]
        query = EMBEDDER.embed_query(memo_chunk.text)
        as_of = dt.date(2026, 6, 1)
        lead = corpus_store.vector_search(query, flt(as_of, TAX_TEAM), 5)
        assert lead[0][0] == memo_chunk.id and lead[0][1] > 0.9
        clerk = corpus_store.vector_search(query, flt(as_of, FINANCE), 5)
        # not post-filtered: the limit is filled with visible chunks, none of them the memo's
        assert len(clerk) == 5 and all(not cid.startswith(MEMO) for cid, _ in clerk)
        assert [s for _, s in clerk] == sorted((s for _, s in clerk), reverse=True)
        assert not corpus_store.keyword_search('"singapore"', flt(as_of, FINANCE), 10)
        memo_hits = corpus_store.keyword_search('"singapore"', flt(as_of, TAX_TEAM), 10)
        assert {cid.split("#")[0] for cid, _ in memo_hits} == {MEMO}
        assert corpus_store.vector_search(query, flt(as_of, frozenset()), 5) == []

    def test_entity_restricted_policy_is_invisible_to_other_entities(
        self, corpus_store: KnowledgeStore
    ) -> None:
        as_of = dt.date(2026, 6, 1)
        snr = corpus_store.visible_documents(flt(as_of, FINANCE, entities=frozenset({"SNR"})))
        snl = corpus_store.visible_documents(flt(as_of, FINANCE, entities=frozenset({"SNL"})))
        assert "ap-vendor-onboarding" in snr and "ap-vendor-onboarding" in snl  # names both entities
        assert SNL_ONLY in snl and SNL_ONLY not in snr
        assert corpus_store.visible_documents(flt(as_of, frozenset())) == set()

    @pytest.mark.parametrize(
        ("match", "needle"),
        [('"2%"', "2%"), ('"PPh 23"', "PPh 23"), ('"pph" AND "23"', "23"), ('"PMK-168"', "168")],
    )
    def test_tokens_keyword_search_must_find(
        self, corpus_store: KnowledgeStore, match: str, needle: str
    ) -> None:
        hits = corpus_store.keyword_search(match, flt(dt.date(2026, 6, 1), TAX_TEAM), 20)
        assert hits, match
        texts = corpus_store.get_chunks([cid for cid, _ in hits])
        assert any(needle.lower() in (c.prefix + " " + c.text).lower() for c in texts.values())

    def test_unsupported_match_syntax_is_a_store_error(self, corpus_store: KnowledgeStore) -> None:
        with pytest.raises(StoreError):
            corpus_store.keyword_search('"unterminated', flt(dt.date(2024, 1, 1)), 5)

    # --- writes ---------------------------------------------------------------------------------

    def test_reingest_is_a_noop_and_a_changed_file_is_version_2_that_drops_cached_answers(
        self, make_store: Callable[[], KnowledgeStore], tmp_path: Path
    ) -> None:
        store = make_store()
        src = tmp_path / "in"
        path = write_policy(src)
        assert ingest_paths([src], store, EMBEDDER).added == ["contract-policy"]
        first = store.corpus_version()
        again = ingest_paths([src], store, EMBEDDER)
        assert again.unchanged == ["contract-policy"] and again.chunks_written == 0
        assert again.vectors_embedded == 0 and store.corpus_version() == first
        store.cache_answer("q-2pct", ["contract-policy"], '{"status": "answered", "rate": "2%"}')
        store.cache_answer("q-other", ["some-other-doc"], '{"status": "answered"}')
        assert store.cached_answer("q-2pct") == '{"status": "answered", "rate": "2%"}'
        assert store.cached_answer_count() == 2

        path.write_text(POLICY.replace("sebesar 2%", "sebesar 4%"), encoding="utf-8")
        report = ingest_paths([src], store, EMBEDDER)
        assert report.updated == ["contract-policy"]
        doc = store.get_document("contract-policy")
        assert doc is not None and doc.version_no == 2
        assert [v["version_no"] for v in store.versions("contract-policy")] == [1, 2]
        texts = " ".join(c.text for c in store.chunks_of("contract-policy"))
        assert "sebesar 4%" in texts and "sebesar 2%" not in texts
        assert store.corpus_version() != first
        # the answer citing the document is gone; the other is stale by corpus version
        assert store.cached_answer("q-2pct") is None and store.cached_answer("q-other") is None
        assert store.cached_answer_count() == 1
        store.cache_answer("q-other", ["some-other-doc"], '{"status": "fresh"}')
        assert store.cached_answer("q-other") == '{"status": "fresh"}'

    def test_remove_purges_chunks_vectors_cache_and_versions(
        self, make_store: Callable[[], KnowledgeStore], tmp_path: Path
    ) -> None:
        store = make_store()
        write_policy(tmp_path / "in")
        ingest_paths([tmp_path / "in"], store, EMBEDDER)
        assert store.stats()["vectors"] > 0
        store.cache_answer("q1", ["contract-policy"], '{"status": "answered"}')
        assert store.remove_document("contract-policy") > 0
        stats = store.stats()
        assert (stats["chunks"], stats["vectors"], stats["edges"]) == (0, 0, 0)
        assert store.cached_answer("q1") is None and store.cached_answer_count() == 0
        assert store.get_document("contract-policy") is None
        with pytest.raises(NotFoundError, match="kb list"):
            store.remove_document("contract-policy")
        with pytest.raises(NotFoundError):
            store.document_text("contract-policy")

    def test_write_document_is_all_or_nothing(
        self, make_store: Callable[[], KnowledgeStore], tmp_path: Path
    ) -> None:
        store = make_store()
        write_policy(tmp_path / "in")
        ingest_paths([tmp_path / "in"], store, EMBEDDER)
        before = store.chunks_of("contract-policy")
        doc = store.get_document("contract-policy")
        assert doc is not None
        broken = [replace(before[0], text="new text"), replace(before[1], id=before[0].id)]  # duplicate id
        with pytest.raises(StoreError, match="nothing was changed"):
            store.write_document(replace(doc, version_no=2), "new", b"new", "policy.md", broken, [], {})
        assert store.chunks_of("contract-policy") == before
        again = store.get_document("contract-policy")
        assert again is not None and again.version_no == 1

    def test_drafts_and_ownerless_documents_are_quarantined_never_retrieved(
        self, make_store: Callable[[], KnowledgeStore], tmp_path: Path
    ) -> None:
        src = tmp_path / "in"
        draft = (
            POLICY.replace("contract-policy", "draft-doc")
            .replace("TST-STORE-001", "D-1")
            .replace("status: in_force", "status: draft")
        )
        ownerless = (
            POLICY.replace("contract-policy", "no-owner")
            .replace("TST-STORE-001", "D-2")
            .replace("owner: tax.lead@example.co.id\n", "")
        )
        src.mkdir()
        (src / "draft.md").write_text(
            draft.replace("access: [finance]", "access: [everyone]"), encoding="utf-8"
        )
        (src / "ownerless.md").write_text(
            ownerless.replace("access: [finance]", "access: [everyone]"), encoding="utf-8"
        )
        store = make_store()
        report = ingest_paths([src], store, EMBEDDER)
        assert report.quarantined == {"draft-doc": "draft", "no-owner": "internal document without an owner"}
        everyone = flt(dt.date(2024, 6, 1), frozenset({"everyone", "finance"}), entities=frozenset({"SNR"}))
        assert store.keyword_search('"jasa" OR "teknik"', everyone, 10) == []
        assert store.visible_chunk_ids(everyone) == set()
