"""What the user reads: the answer line, the withheld-claims summary and the terminal rendering.

``Answer.answer`` is the *answer line*: for an answered question one or two plain sentences built
only from verified claims, carrying their figures with citation markers ``[n]`` (n = the claim's
position in ``Answer.claims``, 1-based), in the question's language ("Menurut UU 36/2008,
tarifnya 2% dari jumlah bruto [1].").  A stated premise the sources contradict is corrected first
("Tidak: aturannya 2%, bukan 1%.").  Other statuses get the one message the user needs (the clarify
prompt, the decline, the escalation), said once.

The evidence -- claims with quotes and citations, conflicts in words, withheld claims as a count
with the reason in words, warnings, the as-of line -- is rendered by each front end from the other
fields of the answer; :func:`render_terminal` does it for ``dasar ask`` (rich markup, no raw
Markdown).  Internal gate codes never reach the text.  Everything is deterministic.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bot.answer.conflicts import mentioned_taxes, percent_kinds
from bot.answer.extractive import (
    ASKS_OTHER_THAN_RATE,
    ASKS_SANCTION,
    CONDITION_WORDS,
    NAMES_LIABLE,
    PERIOD_OF,
    QUESTION_OBJECTS,
    SANCTION_RATE,
    action_match,
    asked_action,
    asked_fact,
    asked_facts,
    asked_period,
    asked_ptkp_items,
    asks_liable,
    asks_penalty,
    bound_before,
    not_rate_spans,
    period_match,
    time_limits_of,
)
from bot.answer.model import ClarifyingQuestion, Conflict, ShownClaim, UnsupportedClaim, claim_heading
from guardrails.verify import extract_figures, normalize_ws
from kb import lexicon
from kb.amounts import message_figures
from kb.dates import MONTHS
from kb.lexical import question_concepts
from kb.model import lead_in_id
from kb.ptkp import PTKP_ITEMS, status_patterns
from kb.query import tokenize, understand

if TYPE_CHECKING:
    from bot.answer.model import Answer

LABELS: dict[str, dict[str, str]] = {
    "answer": {"id": "Jawaban", "en": "Answer"},
    "legal_basis": {"id": "Dasar hukum", "en": "Legal basis"},
    "policy": {"id": "Kebijakan perusahaan", "en": "Company policy"},
    "unknown": {"id": "Belum diketahui tentang kasus Anda", "en": "Unknown about your case"},
    "unsupported": {"id": "Klaim yang tidak ditampilkan", "en": "Claims withheld"},
    "as_of": {"id": "berdasarkan sumber per {d}", "en": "based on sources as of {d}"},
    "example": {"id": "contoh, bukan ketentuan", "en": "example, not the rule"},
    "condition": {"id": "syarat", "en": "condition"},
    "exception": {"id": "pengecualian", "en": "exception"},
    "definition": {"id": "definisi", "en": "definition"},
    "clarify": {
        "id": "Jawabannya bergantung pada beberapa fakta. Mohon jelaskan:",
        "en": "The answer depends on a few facts. Please tell me:",
    },
    "conflicts": {"id": "Sumber yang berbeda", "en": "Sources that disagree"},
    "no_source": {
        "id": "Saya tidak menemukan sumber untuk itu di basis pengetahuan.",
        "en": "I don't have a source for that in the knowledge base.",
    },
    "answer_failed": {
        "id": "Maaf, jawaban tidak dapat disusun karena gangguan teknis (bukan karena sumbernya tidak ada).",
        "en": "Sorry, the answer could not be composed because of a technical fault "
        "(not for lack of a source).",
    },
    "offer": {
        "id": "Saya bisa meneruskan pertanyaan ini ke tim pajak.",
        "en": "I can pass this question to the tax team.",
    },
    "advice": {
        "id": "Ini permintaan saran atau perencanaan pajak: itu diputuskan oleh tim pajak, bukan oleh saya.",
        "en": "This needs the tax team: it asks for tax advice or planning, which I do not give.",
    },
    "advice_sources": {
        "id": "Sumber di bawah hanya menjelaskan apa yang dikatakan aturan.",
        "en": "The sources below only say what the rules are.",
    },
    "protected": {
        "id": "Penentuan ini hanya dapat dibuat oleh tim pajak.",
        "en": "This determination can only be made by the tax team.",
    },
    "out_of_scope": {
        "id": "Pertanyaan ini di luar cakupan saya (perpajakan Indonesia dan kebijakan keuangan perusahaan).",
        "en": "This question is outside my scope (Indonesian tax and company finance policy).",
    },
    "low": {
        "id": "Keyakinan rendah: mohon verifikasi dengan tim pajak.",
        "en": "Low confidence: please verify with the tax team.",
    },
    "period": {"id": "berlaku", "en": "applies"},
    "in_force": {"id": "berlaku", "en": "in force"},
    "warnings": {"id": "Catatan", "en": "Notes"},
    "now": {"id": "sekarang", "en": "now"},
}

#: Gate codes in words (never shown as codes).
REASONS: dict[str, dict[str, str]] = {
    "KUTIPAN_TIDAK_COCOK": {
        "id": "kutipannya tidak persis sama dengan teks sumber",
        "en": "its quote is not the source's exact text",
    },
    "ANGKA_TANPA_DASAR": {
        "id": "angkanya tidak ada dalam kutipan",
        "en": "a figure in it is not in its quote",
    },
    "DUKUNGAN_TIDAK_CUKUP": {
        "id": "sumbernya tidak cukup mendukung",
        "en": "the source does not clearly support it",
    },
    "DUKUNGAN_BERTENTANGAN": {
        "id": "sumbernya menyatakan hal yang berbeda",
        "en": "the source says something different",
    },
    "SUMBER_TIDAK_ADA": {
        "id": "sumbernya tidak tersedia di basis pengetahuan",
        "en": "its source is not in the knowledge base",
    },
    "SUMBER_TIDAK_BOLEH_DIBACA": {
        "id": "sumbernya tidak tersedia di basis pengetahuan",
        "en": "its source is not in the knowledge base",
    },
    "SUMBER_TIDAK_BERLAKU": {
        "id": "sumbernya tidak berlaku pada tanggal itu",
        "en": "its source was not in force on that date",
    },
    "KUTIPAN_UNTUK_ASISTEN": {
        "id": "kutipannya berisi kalimat yang ditujukan kepada asisten, bukan ketentuan",
        "en": "its quote holds a sentence addressed to the assistant, not a rule",
    },
    "INSTRUKSI_DALAM_SUMBER": {
        "id": "kutipannya berisi teks berupa instruksi",
        "en": "its quote contains instruction-like text",
    },
    "ANGKA_DARI_INSTRUKSI": {
        "id": "angkanya berasal dari instruksi di dalam pertanyaan",
        "en": "a figure in it came from instructions inside the question",
    },
}
_OTHER_REASON = {"id": "tidak lolos pemeriksaan", "en": "it failed verification"}


def label(key: str, language: str) -> str:
    return LABELS[key].get(language) or LABELS[key]["id"]


def _lang(language: str) -> str:
    return "en" if language == "en" else "id"


# -- withheld claims -----------------------------------------------------------------------------


def withheld_summary(unsupported: Sequence[UnsupportedClaim], language: str) -> str:
    """ "2 klaim tidak ditampilkan: 1 karena ..., 1 karena ..." -- a count and the reasons in words."""
    if not unsupported:
        return ""
    lang = _lang(language)
    reasons: Counter[str] = Counter()
    for u in unsupported:
        code = u.codes[0] if u.codes else ""
        reasons[REASONS.get(code, _OTHER_REASON)[lang]] += 1
    n = len(unsupported)
    parts = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    if lang == "en":
        head = f"{n} claim{'s' if n != 1 else ''} withheld"
        if len(parts) == 1:
            return f"{head} because {parts[0][0]}."
        return f"{head}: " + ", ".join(f"{k} because {r}" for r, k in parts) + "."
    head = f"{n} klaim tidak ditampilkan"
    if len(parts) == 1:
        return f"{head} karena {parts[0][0]}."
    return f"{head}: " + ", ".join(f"{k} karena {r}" for r, k in parts) + "."


# -- the answer line -----------------------------------------------------------------------------

#: the question asks to confirm what it states ("..., benar kan?"): lexicon question_kinds.confirm
_ASK_CONFIRM = lexicon.question_kind("confirm")
_SURCHARGE_AFTER = re.compile(r"\s*(?:\([^)]{0,40}\)\s*)?(lebih\s+(?:tinggi|besar)|higher)\b", re.I)
_RANGE = re.compile(
    r"paling\s+rendah\s+(\d+(?:,\d+)?\s*%)[^.;]{0,60}?paling\s+tinggi\s+(\d+(?:,\d+)?\s*%)", re.I
)
_FACTOR_AFTER = re.compile(r"\s*(?:\([^)]{0,40}\)\s*)?(?:dikali|x|×)\s+(\d+\s*/\s*\d+)", re.I)
_SURCHARGE_BEFORE = re.compile(r"(?:lebih\s+(?:tinggi|besar)|higher\s+by|tambahan)\s*$", re.I)
_BASE_AFTER = re.compile(
    r"\s*(?:\([^)]{0,40}\)\s*)?(dari\s+(?:jumlah\s+|nilai\s+)?[A-Za-z][^,;:()]{2,60}?)"
    # ... up to the party it is withheld by ("dari jumlah bruto oleh pihak yang wajib membayarkan": the base
    # is the gross amount; "tarifnya 20% dari jumlah bruto oleh pihak" ended mid-phrase, session 60)
    r"(?=\s+(?:atas|yang|untuk|bagi|dan|sebagaimana|sehubungan|oleh)\b|\s*[,;:.(]|\s*$)",
    re.I,
)
_DEADLINE = re.compile(
    # the time limit ends at the clause's end, or where a condition on it begins ("... saat Faktur Pajak
    # dibuat sepanjang belum dibebankan sebagai biaya ..."), or a second limit joined to it ("paling lama
    # akhir bulan berikutnya setelah berakhirnya Masa Pajak dan sebelum Surat Pemberitahuan ...
    # disampaikan", UU PPN Pasal 15A ayat (1): the line read the filing day of ayat (2) instead, session 68)
    r"(paling\s+(?:lama|lambat)\s+[^;.:|]{3,90}?)"
    r"(?=\s*[;.:|]|,\s+(?:dan|serta)\b|\s+(?:sepanjang|dengan\s+syarat|dengan\s+ketentuan|apabila|kecuali)\b"
    r"|\s+dan\s+(?:sebelum|sesudah|setelah)\b|$)"
    r"|(tanggal\s+\d{1,2}\s+bulan\s+berikutnya)"
    r"|(\d{1,3}\s*\([a-z\s]+\)\s*hari[^;.:|]{0,70})",
    re.I,
)
#: a period in weeks, months or years, up to its clause's first comma ("dalam jangka waktu 3 (tiga) bulan
#: sejak ...", "disimpan selama 10 (sepuluh) tahun"): what "berapa lama" / "how long" asks, not "kapan"
_PERIOD = re.compile(rf"({PERIOD_OF.format(units='minggu|bulan|tahun')}[^;.:|,]{{0,70}})", re.I)
#: a bare length in a flattened table row ("4 tahun 8 tahun 16 tahun"), by its number and unit
_TABLE_PERIOD = re.compile(r"\b(\d+)\s+(minggu|bulan|tahun)\b(?!\s*\()", re.I)
#: the question asks how long, not when (kb/data/lexicon.yaml question_kinds.period)
_ASKS_PERIOD = lexicon.question_kind("period")
_BASE_EN = {
    "dari jumlah bruto": "of the gross amount",
    "dari penghasilan bruto": "of gross income",
    "dari peredaran bruto": "of gross turnover",
    "dari dasar pengenaan pajak": "of the tax base",
    "dari harga jual": "of the selling price",
    "dari penggantian": "of the consideration",
    "dari bruto": "of the gross amount",
}


def _percents(text: str) -> list[tuple[str, frozenset[object]]]:
    out: list[tuple[str, frozenset[object]]] = []
    seen: set[frozenset[object]] = set()
    for f in extract_figures(text):
        if f.kind == "percent" and frozenset(f.keys) not in seen:
            seen.add(frozenset(f.keys))
            out.append((f.surface, frozenset(f.keys)))
    return out


#: a prohibition earlier in the same clause: "AP tidak boleh menerima faktur yang mengenakan 12% atas Harga
#: Jual penuh" names 12% as what must NOT be done
_FORBIDDING = re.compile(
    r"\b(?:tidak\s+(?:boleh|diperkenankan|diperbolehkan|dibenarkan)|dilarang|jangan"
    r"|must\s+not|may\s+not|not\s+allowed)\b[^.;:|,]*$",
    re.I,
)


def forbidden_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the percentages ``text`` names under a prohibition or negation in the same clause: never the
    rule's rate, never a confirmation of a figure the question states."""
    out = []
    for f in extract_figures(text):
        if f.kind != "percent":
            continue
        pos = text.find(f.surface)
        if pos >= 0 and _FORBIDDING.search(text[:pos]):
            out.append((pos, pos + len(f.surface)))
    return out


def _cells(quote: str) -> list[str]:
    return [c.strip() for c in quote.strip().strip("|").split("|")]


def _source_name(c: ShownClaim) -> str:
    return c.source.number or c.source.doc_id


def _trim(text: str, limit: int = 220) -> str:
    text = re.sub(r"\s+", " ", text).strip().rstrip(";:,.")
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(";:,")
    return f"{cut} …"


_SENTENCE_END = re.compile(r"(?<=[a-z0-9)%])[.;](?=\s+[A-Z(0-9])")
#: "paling sedikit: b. Rp4.500.000,00 ...": an item's letter or number, not the end of a sentence
_ITEM_MARKER = re.compile(r"(?:(?:^|[\s:(])[a-z]|(?:^|[:\n])\s*\d{1,2})$")


def _first_sentence(text: str) -> str:
    for m in _SENTENCE_END.finditer(text):
        if m.group() == "." and _ITEM_MARKER.search(text[: m.start()]):
            continue
        return text[: m.start()]
    return text


#: the line's statement of a rule in its own words is at most this long (then :func:`_answer_part` picks)
_LINE_LIMIT = 220
#: an item's label at the start of a passage ("c. ", "1. ", "(1) "): the line states the item, not its label
_LEAD_LABEL = re.compile(r"^(?:\(\d{1,2}[a-z]?\)|[a-z0-9]{1,3}[.)])\s+")
#: an item's label at the end of a lead-in ("... berupa: b."): no words of the lead-in
_ITEM_TAIL = re.compile(r"(?:^|\s)(?:\(\d{1,2}[a-z]?\)|[a-z0-9]{1,3}[.)])\s*$")
#: where a clause of a long sentence begins: after a comma, semicolon or colon
_CLAUSE_BREAK = re.compile(r"[,;:]\s+")
#: the word joining a list item to the next one ("...; atau", "..., dan")
_ITEM_JOINER = re.compile(r"\s*[;,]\s*(?:atau|dan|serta|or|and)\s*$", re.I)
#: an item's opening after the word joining it to the one before: "atau 4. ", "dan b. "
_JOINED_ITEM = re.compile(r"^\s*(?:(?:atau|dan|serta|or|and)\s+)?(?:[a-z]|\d{1,2})\.\s+", re.I)
#: a percentage with its spelled-out words ("2% (dua persen)")
_PERCENT_SAID = re.compile(r"\d+(?:[.,]\d+)?\s*%(?:\s*\([a-z\s]+\))?", re.I)


def _sentences(text: str) -> list[tuple[int, int]]:
    """Where the sentences of ``text`` are (split as :func:`_first_sentence` splits: an item's letter or
    number is no end), each span without its surrounding spaces."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.group() == "." and _ITEM_MARKER.search(text[: m.start()]):
            continue
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    out = []
    for a, b in bounds:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append((a, b))
    return out


def _not_the_rate(text: str, question: str) -> list[tuple[int, int]]:
    """Percentages of ``text`` that are not a rate: thresholds and shares, and a sanction's unless the
    question asks about one."""
    skip = not_rate_spans(text)
    if not ASKS_SANCTION.search(question):
        skip += [m.span() for m in SANCTION_RATE.finditer(text)]
    return skip


def _rate_spans(text: str, question: str) -> list[tuple[int, int]]:
    """Where ``text`` states a rate (as :func:`_rate_phrase` reads one: no threshold or share, no sanction
    unless one is asked), each with its base ("2% (dua persen) dari jumlah bruto")."""
    skip = _not_the_rate(text, question)
    out = []
    for m in _PERCENT_SAID.finditer(text):
        if any(lo <= m.start() < hi for lo, hi in skip):
            continue
        base = _BASE_AFTER.match(text[m.end() :])
        out.append((m.start(), m.end() + base.end(1) if base else m.end()))
    return out


def _fact_spans(text: str, kind: str | None, question: str) -> list[tuple[int, int]]:
    """Where ``text`` states the kind of fact asked: a time limit for a deadline (or a length of time for
    "berapa lama"), an amount (else a percentage) for "berapa", a rate for a rate question; none for a
    question that asks no figure."""
    if kind in ("deadline", "period"):
        limits = time_limits_of(text)
        found = [m.span(k) for m in _DEADLINE.finditer(limits) for k in (1, 2, 3) if m.group(k)]
        if kind == "period":
            found += [m.span(1) for m in _PERIOD.finditer(limits)]
        return sorted(found)
    if kind == "amount":
        return [m.span() for m in _AMOUNT_CLAUSE.finditer(text)] or _rate_spans(text, question)
    if kind == "rate":
        return _rate_spans(text, question)
    return []


def _asked_words(question: str) -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    """The question's content words it writes itself, and the terms its words stand for (a synonym, the
    words of an acronym: "SPT" -> "surat pemberitahuan"), each a word sequence that counts only whole: the
    "pajak" of "pajak penghasilan" alone is any tax."""
    if not question:
        return frozenset(), ()
    said = set(tokenize(question))
    own: set[str] = set()
    stands_for: list[tuple[str, ...]] = []
    for term in understand(question).terms:
        words = tuple(tokenize(term))
        if len(words) == 1 and words[0] in said:
            if len(words[0]) >= 3:
                own.add(words[0])
        elif words and not set(words) <= said and (len(words) > 1 or len(words[0]) >= 3):
            stands_for.append(words)
    return frozenset(own), tuple(dict.fromkeys(stands_for))


#: the opening of a condition ("Dalam hal ...,", "Apabila ...,")
_CONDITION_OPENER = re.compile(CONDITION_WORDS, re.I)


def _clip(text: str, lo: int, hi: int, limit: int = _LINE_LIMIT) -> str:
    """``text`` cut to about ``limit`` characters around ``text[lo:hi]`` (the fact), which is never cut: from
    the start when the fact ends within the limit, else from the earliest clause start (else word start)
    that keeps it in; "…" marks what is left out on either side."""
    if len(text) <= limit:
        return " ".join(text.split()).rstrip(";:,.")
    start = 0
    if hi > limit:
        starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, lo) if m.end() <= lo]
        start = next((s for s in starts if hi - s <= limit), -1)
        if start < 0:  # no clause start keeps it in: from the first word that does (a span longer than the
            # line, a clause's words, from a word inside it)
            after = re.search(r"\s\S", text[hi - limit : lo + 1 if lo >= hi - limit else hi])
            start = hi - limit + after.start() + 1 if after else lo
    end = max(hi, start + limit)
    if end < len(text):  # end at a space, as :func:`_trim` does, but never inside the fact
        spaces = [m.start() for m in re.finditer(r"\s", text[hi:end])]
        if spaces:
            end = hi + spaces[-1]
        else:  # the fact reaches the limit: end with its last word
            after = re.search(r"\s", text[hi:])
            end = hi + after.start() if after else len(text)
    core = " ".join(text[start:end].split())
    rest = text[end:].strip()
    core = core.rstrip(";:,") if rest else core.rstrip(";:,.")
    return f"{'… ' if start else ''}{core}{' …' if rest else ''}"


def _answer_part(c: ShownClaim, kind: str | None, question: str, limit: int = _LINE_LIMIT) -> str:
    """The part of the claim's quote that carries the answer, clipped around it to about ``limit``: the
    sentence that states the asked kind of fact (:func:`_fact_spans`; of several, the one sharing most of
    the question's words), else the sentence sharing most of its words; in a long sentence, the fact (or
    the clause sharing most words) is kept whole.  An exact (whitespace-normalised) piece of the quote."""
    # one space for a run of spaces, one line break for a run holding one (an item's number after a line
    # break is no sentence end: :data:`_ITEM_MARKER`)
    quote = re.sub(r"\s+", lambda m: "\n" if "\n" in m.group() else " ", c.quote).strip()
    label = _LEAD_LABEL.match(quote)
    if label:
        quote = quote[label.end() :]
    own, more = _asked_words(question)

    def matched(a: int, b: int) -> tuple[frozenset[str], list[tuple[str, ...]]]:
        toks = tokenize(quote[a:b])
        said = f" {' '.join(toks)} "
        return own & set(toks), [p for p in more if f" {' '.join(p)} " in said]

    def score(a: int, b: int) -> tuple[int, int]:
        words, terms = matched(a, b)
        return len(words), len(terms)

    facts = _fact_spans(quote, kind, question)
    sentences = _sentences(quote) or [(0, len(quote))]
    # an item's quote runs from its lead-in through the siblings before it ("b. kategori B ...: 1. ...;
    # 2. ...; 3. kawin dengan ..."); the claim is the item its text ends with, so a sentence the claim's text
    # holds is preferred to a sibling sharing as many words
    text = " ".join(c.text.split())
    held = [s for s in sentences if " ".join(_LEAD_LABEL.sub("", quote[s[0] : s[1]]).split()) in text]
    if len(held) < len(sentences):
        sentences = held or sentences
    # of the items of a list of PTKP statuses, the one writing out the status the question names
    # ("status K/2 masuk kategori apa?" read the list's first item, TK/2: session 66)
    statuses = status_patterns(question)

    def writes_status(span: tuple[int, int]) -> bool:
        return any(p.search(quote, *span) for p in statuses)

    sentences = [s for s in sentences if writes_status(s)] or sentences
    stating = [s for s in sentences if any(s[0] <= f < s[1] for f, _ in facts)]
    a, b = max(stating or sentences, key=lambda s: (score(*s), -s[0]))
    label = _LEAD_LABEL.match(quote[a:b])
    if label and (a, b) != (0, len(quote)):
        a += label.end()  # "3. kawin dengan ...": the item without its number
    joiner = _ITEM_JOINER.search(quote, a, b)
    if joiner and joiner.start() > a:
        b = joiner.start()  # "...; atau" joins the item to the next one: not part of what it says
    # the clauses of the sentence, each from its start to the next one's
    cuts = [a, *(m.end() for m in _CLAUSE_BREAK.finditer(quote, a, b)), b]
    clauses = [(x, y) for x, y in itertools.pairwise(cuts) if y > x]

    def around(f: tuple[int, int]) -> tuple[int, int]:
        """The fact with the rest of its clause (what it is for)."""
        x, y = next(((x, y) for x, y in clauses if x <= f[0] < y), f)
        return min(x, f[0]), max(y, f[1])

    own_status = [x for x in clauses if writes_status(x)]
    inside = [f for f in facts if a <= f[0] < b]
    if own_status:
        inside = [f for f in inside if any(x <= f[0] < y for x, y in own_status)]
    if inside:
        lo, hi = max(inside, key=lambda f: (score(*around(f)), -f[0]))
    else:  # no figure asked: the clause sharing most words, from its start to the last word it shares
        best = max(own_status or clauses, key=lambda s: (score(*s), -s[0]), default=(a, a))
        if own_status and any(
            x not in own_status and not quote[x[0] : x[1]].rstrip().endswith(":") for x in clauses
        ):
            # the status's item alone, when other items stand beside it (a lead-in is none); the statement
            # reads it with its lead-in's end
            a, b = best
            a += len(quote[a:b]) - len(_JOINED_ITEM.sub("", quote[a:b], count=1))
            best = (a, b)
        lo = hi = best[0] if score(*best) > (0, 0) else a
        words, terms = matched(*best)
        shared = words.union(*terms)
        for m in re.finditer(r"\w+", quote[lo : best[1]]):  # as many of them as the line holds
            if set(tokenize(m.group())) & shared and (hi == lo or m.end() <= limit):
                hi = lo + m.end()
        # the clause is the consequence of a condition opening one of the clauses before it ("Dalam hal
        # wanita kawin ... telah memiliki NPWP sebelum kawin, wanita kawin tersebut tidak perlu mendaftarkan
        # diri"): without it the line states the exception as the rule (session 57, a probe of our own)
        k = next((i for i, (x, y) in enumerate(clauses) if x <= lo < y), 0)
        opened = [
            m.start() for x, y in clauses[max(0, k - 3) : k] for m in _CONDITION_OPENER.finditer(quote, x, y)
        ]
        if opened and hi - opened[-1] <= 2 * limit:  # a condition too long for two lines is left out
            lo = opened[-1]
            limit = max(limit, hi - lo)  # the condition and its consequence whole
    return _clip(quote[a:b], lo - a, hi - a, limit)


def _asked_cell(c: ShownClaim, question: str) -> str | None:
    """For a table row and a question asking who does something ("siapa yang menyetujui?", "who approves?"):
    the row's cell under the column of that action ("Disetujui oleh: CFO"), which the row's first cell alone
    ("Jenis perubahan: Perubahan rekening bank") does not say."""
    if not question or not c.quote.strip().startswith("|"):
        return None
    action = asked_action(question, question_concepts(understand(question), question, keep_named_refs=True))
    if action is None:
        return None
    parts = [p.strip() for p in " ".join(c.text.split()).split("; ")]
    for part in parts[1:]:
        header, sep, value = part.partition(": ")
        if sep and value and action_match(action, header):
            return part
    return None


def _statement(c: ShownClaim, kind: str | None, question: str, limit: int = _LINE_LIMIT) -> str:
    """The rule in its own words: the first sentence of the claim (lead-in included) when it fits and
    carries the asked kind of fact; else the part of the quote that carries the answer (:func:`_answer_part`)
    -- never a lead-in alone, never a sentence cut before the fact."""
    text = " ".join(c.text.split())
    first = " ".join(_first_sentence(c.text).split()).rstrip(";:,.")
    cell = _asked_cell(c, question)
    if cell:
        return _trim(f"{first}; {cell}", limit)
    heading = claim_heading(c.text, c.quote)
    lead_in = heading if heading != text else ""  # a model's own sentence has no lead-in to tell apart
    states = _fact_spans(" ".join(c.quote.split()), kind, question)
    fits = len(first) <= limit and not (lead_in and len(first) <= len(lead_in.rstrip(":")))
    if fits and (not states or _fact_spans(first, kind, question)):
        return _trim(first, limit)
    part = _answer_part(c, kind, question, limit)
    if not part:
        return _trim(first, limit)
    said = part.removesuffix(" …")
    at = first.find(said) if not said.startswith("…") else -1
    if at > 0 and len(said) <= limit // 2:
        # a short item reads with the end of its lead-in ("… yang dapat berupa: b. cabang perusahaan"), unless
        # that brings in a number the quote does not state
        end = at + len(said)
        begin = max(0, end - limit)
        if begin:  # from a clause's start that leaves some words of it, else from a word's start
            word = re.search(r"\s\S", first[begin : at + 1])
            clauses = [m.end() for m in _CLAUSE_BREAK.finditer(first, begin, at)]
            begin = next(
                (x for x in clauses if len(_ITEM_TAIL.sub("", first[x:at]).split()) >= 2),
                begin + word.start() + 1 if word else at,
            )
        before = first[begin:at]
        if len(_ITEM_TAIL.sub("", before).split()) >= 2 and _numbers_within(before, c.quote):
            rest = first[end:]
            more = bool(rest.strip()) and not _ITEM_JOINER.match(rest)  # "; atau" ends the item, adds nothing
            return f"{'… ' if begin else ''}{first[begin:end]}{' …' if more else ''}"
    if kind is None and _opens_conditions(lead_in, c.quote, limit):
        # one condition of a rule is no answer by itself ("a. Wajib Pajak mempunyai penghasilan neto fiskal
        # ..."): the line states the rule its lead-in gives ("Sumbangan ... dapat dikurangkan dari penghasilan
        # bruto ... dengan syarat: …"), the claims list the conditions
        return f"{lead_in} …"
    return part


#: a lead-in that opens a rule's conditions: "... dapat dikurangkan dari penghasilan bruto dengan syarat:",
#: "... apabila memenuhi persyaratan sebagai berikut:", "... harus memenuhi kriteria:"
_CONDITIONS_OPEN = re.compile(
    r"\b(?:syarat|persyaratan|kriteria|ketentuan)(?:\s+sebagai\s+berikut)?\s*:$", re.IGNORECASE
)


def _opens_conditions(lead_in: str, quote: str, limit: int) -> bool:
    """The lead-in states a rule and opens the list of its conditions, fits the line, and brings in no number
    the quote does not state (session 58: "Apakah biaya sumbangan bisa jadi pengurang penghasilan bruto?" was
    answered with the first condition alone)."""
    return (
        bool(_CONDITIONS_OPEN.search(lead_in)) and len(lead_in) <= limit and _numbers_within(lead_in, quote)
    )


def _numbers_within(words: str, quote: str) -> bool:
    """Every number of ``words`` (lead-in text the line adds) is one the quote states: the line never brings
    in a figure its citation does not carry."""
    return set(re.findall(r"\d+", words)) <= set(re.findall(r"\d+", quote))


#: a percentage added to a reference rate, and what the sum is divided by: KUP's monthly interest "dihitung
#: berdasarkan suku bunga acuan ditambah 5% (lima persen) dan dibagi 12 (dua belas)" (an outside tester got
#: "tarifnya 5%", session 33)
_UPLIFT_BEFORE = re.compile(r"\b(suku\s+bunga\s+acuan|reference\s+rate)\s+(ditambah|plus)\s*$", re.I)
_DIVIDED_AFTER = re.compile(
    r"(?:\s*\([a-z\s]+\))?\s+(?:dan\s+|and\s+)?(?:dibagi|divided\s+by)\s+\d+(?:\s*\([a-z\s]+\))?", re.I
)


#: a bracket's bound beside its rate ("sampai dengan Rp50.000.000,00 ... 5%", "di atas Rp500.000.000,00")
_BRACKET_BOUND = re.compile(r"\b(?:sampai\s+dengan|di\s+atas)\s+Rp\s?\d", re.I)
#: how far from its rate a bracket's bound is written (a bound and its amount in words: about 60 characters)
_BOUND_REACH = 90


def _layered_rates(quote: str, surfaces: list[str], lang: str) -> str | None:
    """ "5%, 15%, 25% dan 30% menurut lapisan Penghasilan Kena Pajak" when the quote is a progressive scale
    (three or more rates, each beside its bracket's bound), else None.

    A scale has no one rate: "tarifnya 5%" for UU PPh Pasal 17 ayat (1) read as if every income were taxed at
    the first bracket's rate.  A rate stated after the scale without a bound of its own (huruf b's 28% for a
    company) is another subject's and is left out."""
    layered: list[str] = []
    last = 0
    for surface in surfaces:
        pos = quote.find(surface, last)
        if pos < 0:
            continue
        last = pos + len(surface)
        # the bound beside the rate, before or after it (an OCR'd table may put the rate first)
        near = _BRACKET_BOUND.search(quote, max(0, pos - _BOUND_REACH), pos) or _BRACKET_BOUND.search(
            quote, last, last + _BOUND_REACH
        )
        if near and surface not in layered:
            layered.append(surface)
    if len(layered) < 3:
        return None
    if lang == "en":
        return f"{', '.join(layered[:-1])} and {layered[-1]} by taxable-income bracket"
    return f"{', '.join(layered[:-1])} dan {layered[-1]} menurut lapisan Penghasilan Kena Pajak"


def _rate_phrase(c: ShownClaim, lang: str, question: str = "") -> str | None:
    """ "2% dari jumlah bruto" from the claim's own quote (None when it states no rate).

    A threshold or share ("paling sedikit 40%" of the shares), a customs duty, and -- unless the question
    asks about a sanction -- a sanction's percentage are not the rate asked for."""
    quote = c.quote
    skip = _not_the_rate(quote, question) + forbidden_spans(quote)
    pcts = [
        (surface, keys)
        for surface, keys in _percents(quote)
        if not any(lo <= quote.find(surface) < hi for lo, hi in skip)
    ]
    if not pcts:
        return None
    # a quote that holds more rates than its claim states (a table row the scan printed apart from its rate,
    # with other rows' rates between): the claim's own rate is the one it answers with
    own = [(surface, keys) for surface, keys in pcts if surface in c.text]
    if own and len(own) < len(pcts) and normalize_ws(c.text) != normalize_ws(quote):
        pcts = own
    join = " dan " if lang == "id" else " and "
    if quote.strip().startswith("|"):
        cells = _cells(quote)
        figs = [s for s, _ in pcts][:2]
        rest = [x for x in cells[1:] if x and not _percents(x)]
        extra = f" ({', '.join(rest)})" if rest else ""
        what = cells[0] if cells and not _percents(cells[0]) else ""
        if what:
            what = what[0].lower() + what[1:] if what[:2] != what[:2].upper() else what
            return f"{join.join(figs)}{extra} {'untuk' if lang == 'id' else 'for'} {what}"
        return f"{join.join(figs)}{extra}"
    rng = _RANGE.search(quote)
    if rng and quote.find(pcts[0][0]) >= rng.start():
        # the first percentage is a range ("dapat diubah menjadi paling rendah 5% ... paling tinggi 15%")
        if lang == "en":
            return f"at least {rng.group(1)} and at most {rng.group(2)}"
        return f"paling rendah {rng.group(1)} dan paling tinggi {rng.group(2)}"
    layered = _layered_rates(quote, [s for s, _ in pcts], lang)
    if layered:
        return layered
    rates: list[str] = []
    higher: list[str] = []
    for surface, _ in pcts:
        pos = quote.find(surface)
        after = quote[pos + len(surface) :] if pos >= 0 else ""
        before = quote[max(0, pos - 30) : pos] if pos >= 0 else ""
        if _SURCHARGE_AFTER.match(after) or _SURCHARGE_BEFORE.search(before):
            higher.append(surface)
            continue
        phrase = surface
        uplift = _UPLIFT_BEFORE.search(before)
        if uplift:  # "(suku bunga acuan ditambah 5%) dibagi 12": the monthly interest, never "5%" alone
            divided = _DIVIDED_AFTER.match(after)
            tail = divided.group(0) if divided else ""
            rates.append(f"{uplift.group(1)} {uplift.group(2)} {surface}{tail}")
            continue
        factor = _FACTOR_AFTER.match(after)
        if factor:  # "10% dikali 11/12 dari tarif ..." is a share of the rate, never the rate itself
            rates.append(f"{surface} {'dikali' if lang == 'id' else 'times'} {factor.group(1)}")
            continue
        base = _BASE_AFTER.match(after)
        if base:
            b = re.sub(r"\s+", " ", base.group(1)).strip()
            if lang == "en":
                b = _BASE_EN.get(b.lower(), f"({b})")
            phrase += f" {b}"
        rates.append(phrase)
    more = ""
    if higher:
        more = f"{higher[0]} higher" if lang == "en" else f"lebih tinggi {higher[0]}"
    if rates:
        return f"{rates[0]} ({more})" if more else rates[0]  # one rate; other figures stay in the evidence
    return more


#: "mulai Masa Pajak Januari 2025", "mulai 1 April 2022": the start of the wording that follows it
_STARTING = re.compile(
    r"\bmulai\s+(?:(?:Masa|Tahun)\s+Pajak\s+|tanggal\s+|berlaku\s+(?:pada\s+)?(?:tanggal\s+)?)?"
    r"(?:(\d{1,2})\s+)?([A-Za-z]+)\s+((?:19|20)\d\d)",
    re.I,
)


def _in_force_part(source: str, as_of: dt.date | None) -> str:
    """Of a sentence that states one rule until a date and another from it ("Untuk Masa Pajak 2024 setoran
    paling lambat tanggal 10 ...; mulai Masa Pajak Januari 2025 ... paling lambat tanggal 15."), the part
    in force on ``as_of``: the one whose "mulai ..." start is the latest not after it; else the whole text."""
    if as_of is None or ";" not in source:
        return source
    parts = [p for p in source.split(";") if p.strip()]
    started: list[tuple[dt.date, int]] = []
    for i, part in enumerate(parts):
        m = _STARTING.search(part)
        month = MONTHS.get(m.group(2).lower()) if m else None
        if m and month:
            try:
                started.append((dt.date(int(m.group(3)), month, int(m.group(1) or 1)), i))
            except ValueError:
                continue
    if not started:
        return source
    live = [(d, i) for d, i in started if d <= as_of]
    if live:
        return parts[max(live)[1]]
    first = min(i for _, i in started)  # every dated part starts later: the wording before them is in force
    return ";".join(parts[:first]) or source


def _deadline_phrase(
    c: ShownClaim, period: bool = False, as_of: dt.date | None = None, question: str = ""
) -> str | None:
    """The deadline the claim states; with ``period`` also a length of time, whichever comes first; of a
    sentence with dated alternatives, the one in force on ``as_of``; of a rule with one limit per levy, the
    one for the levy the question names (:func:`_asked_levy_part`).  The phrase reads on through the asker's
    own kind when its item names it further along (:func:`_through_asked_kind`)."""
    source = _asked_levy_part(
        _in_force_part(c.text if c.quote.strip().startswith("|") else c.quote, as_of), question
    )
    limits = time_limits_of(source)
    if period and len(set(_TABLE_PERIOD.findall(source))) >= 3:
        # a table of lengths ("Kelompok 1 Kelompok 2 ... 4 tahun 8 tahun 16 tahun 20 tahun"): which one the
        # question's row has is not read here, and the first spelled-out length elsewhere in the quote
        # ("melebihi 20 (dua puluh) tahun") was told as the answer (session 51, a probe of our own)
        return None
    found = [m for m in (_DEADLINE.search(limits), _PERIOD.search(limits) if period else None) if m]
    if not found:
        return None
    m = min(found, key=lambda x: x.start())
    k = next(i for i, g in enumerate(m.groups(), start=1) if g)
    phrase = m.group(k)
    original = source[m.start(k) : m.end(k)]
    if phrase != original:  # it runs into a criminal sentence: end where that begins
        cut = next(i for i, (a, b) in enumerate(zip(phrase, original, strict=True)) if a != b)
        phrase = original[:cut].rstrip()
    if source[m.end(k) : m.end(k) + 1].isalnum():  # cut inside a word: end at the last whole word
        phrase = phrase.rsplit(" ", 1)[0]
    return _trim(phrase + _through_asked_kind(question, source, m.start(k) + len(phrase), phrase), 160)


#: the levy a clause is for, where a rule sets one limit per levy: kb/data/lexicon.yaml
#: ``passage_cues.levy_vat`` and ``passage_cues.levy_income_tax``
_LEVY_NAMES = {"PPN": lexicon.passage_cue("levy_vat"), "PPh": lexicon.passage_cue("levy_income_tax")}
#: where a rule's clauses part: a comma or semicolon before "dan"/"serta"/"sedangkan"
_LEVY_CLAUSE_BREAK = re.compile(r"[,;]\s+(?:dan|serta|sedangkan)\s+", re.I)


def _asked_levy_part(source: str, question: str) -> str:
    """Of a rule setting one limit per levy, the clause for the levy the question names: "Restitusi PPN
    prosesnya berapa lama?" was answered "paling lama 3 (tiga) bulan ... untuk Pajak Penghasilan" from UU KUP
    Pasal 17C ayat (1), whose next clause gives the VAT's 1 month (session 67, a probe of our own).  The
    whole source when the question names no levy, or both, or the clauses do not each name one."""
    asked = [name for name, words in _LEVY_NAMES.items() if words.search(question)]
    if len(asked) != 1:
        return source
    cuts = [0, *(m.end() for m in _LEVY_CLAUSE_BREAK.finditer(source)), len(source)]
    clauses = [source[a:b] for a, b in itertools.pairwise(cuts)]
    named = [[name for name, words in _LEVY_NAMES.items() if words.search(x)] for x in clauses]
    if len(clauses) < 2 or any(len(n) != 1 for n in named) or len({n[0] for n in named}) < 2:
        return source
    return next((x for x, n in zip(clauses, named, strict=True) if n[0] == asked[0]), source)


#: where a list item ends: its semicolon, full stop or line break
_ITEM_END = re.compile(r"[;.](?:\s|$)|\n")


def _through_asked_kind(question: str, source: str, end: int, phrase: str) -> str:
    """The rest of the item from ``end`` through the kind of party or thing the question names (lexicon
    ``question_objects``), when the phrase stops before it: "4 (empat) Tahun Pajak bagi Wajib Pajak badan
    berbentuk koperasi" reads on to ", persekutuan komanditer" for a CV's question (PP 55/2022 Pasal 59 huruf
    b); the line had named another kind than the asker's (session 67, a probe of our own)."""
    if not question:
        return ""
    stop = _ITEM_END.search(source, end)
    item_end = stop.start() if stop else len(source)
    for _, ask, about in QUESTION_OBJECTS:
        said = ask.search(question)  # the kinds :func:`question_objects` reads, with the words naming them
        if said is None or about.search(phrase):
            continue
        # the asker's own word when the item writes it ("firma"), else the kind's ("CV": "persekutuan
        # komanditer")
        own = re.compile(rf"\b{re.escape(said.group())}\b", re.I).search(source, end, item_end)
        found = own or about.search(source, end, item_end)
        if found:
            return source[end : found.end()]
    return ""


#: an amount and what it is for, up to the clause's end: "Rp1.000.000,00 (satu juta rupiah) untuk Surat
#: Pemberitahuan Tahunan Pajak Penghasilan Wajib Pajak badan"
_AMOUNT_CLAUSE = re.compile(
    r"Rp\s?\d[\d.]*(?:,\d+)?(?:\s*\([^()]{0,60}\))?"
    r"(?:(?!\s(?:serta|dan)\s+(?:sebesar\s+)?Rp)[^,;:]){0,120}",  # "... badan serta sebesar Rp100.000" ends
    re.I,
)


def _bound_comparison(question: str, lead: ShownClaim, n: int, lang: str) -> str:
    """ "Nilai Rp75 juta tidak memenuhi batas "di atas Rp100.000.000" dalam aturan itu." when the question
    names one amount and the leading rule one bound on an amount: the asker wants to know which side of it
    their case is on, and quoting the rule alone left them to work it out (outside tester, session 33).  The
    sentence compares two figures the user can see, one from each; what follows from it is the rule's."""
    asked = [f for f in message_figures(question) if f.kind == "amount"]
    if len({f.value for f in asked}) != 1:
        return ""
    if any(bound_before(question, f.start) is not None for f in asked):
        # "omzet sudah melebihi 4,8 miliar": the asker states a side of a bound, not a value to compare;
        # "4,8 miliar does not meet 'melebihi Rp4.800.000.000,00'" contradicted what they told us
        return ""
    x = asked[0].value
    bounds = []
    for f in message_figures(lead.quote):
        bound = bound_before(lead.quote, f.start) if f.kind == "amount" else None
        if bound is not None:
            words, side = bound
            holds = x > f.value if side == "above" else x < f.value if side == "below" else x <= f.value
            bounds.append((f"{words} {f.surface}", holds))
    if len(bounds) != 1:
        return ""
    bound_text, holds = bounds[0]
    if lang == "en":
        meets = "meets" if holds else "does not meet"
        return f'The amount {asked[0].surface} {meets} the rule\'s bound "{bound_text}" [{n}].'
    meets = "memenuhi" if holds else "tidak memenuhi"
    return f'Nilai {asked[0].surface} {meets} batas "{bound_text}" dalam aturan itu [{n}].'


def _amount_phrase(c: ShownClaim, question: str) -> str | None:
    """The amount the quote states for what the question names (the clause sharing most of its words).  A
    figure the quote states as a bound of its condition ("lebih dari Rp5.000.000,00") is not the amount: with
    only such figures the headline quotes the rule instead of "jumlahnya Rp5.000.000,00"."""
    clauses = [
        m.group(0).strip()
        for m in _AMOUNT_CLAUSE.finditer(c.quote)
        if bound_before(c.quote, m.start()) is None
    ]
    if not clauses:
        return None
    plan = understand(question) if question else None
    words = {t for term in (plan.terms if plan else ()) for t in tokenize(term) if len(t) >= 3}
    asked = set(mentioned_taxes(question))
    period = asked_period(question)

    def fit(clause: str) -> tuple[bool, int]:
        # a clause for a return of another tax or period is not the asked one's, however many words of the
        # return it shares: "SPT masa PPh 21 telat lapor dendanya berapa?" was told UU KUP Pasal 7's Rp500.000
        # "untuk Surat Pemberitahuan Masa Pajak Pertambahan Nilai", not the Rp100.000 for "Surat Pemberitahuan
        # Masa lainnya" (session 63, a probe of our own); then the clause sharing most words
        named = set(mentioned_taxes(clause))
        other = bool(asked and named and not asked & named) or period_match(period, clause) < 0
        return not other, len(words & set(tokenize(clause)))

    best = max(range(len(clauses)), key=lambda i: (*fit(clauses[i]), -i))
    return _trim(clauses[best], 160)


#: a rule that sets a tax base as a share of the gross and names no rate (``passage_cues.sets_base``)
_SETS_BASE = lexicon.passage_cue("sets_base")
#: a unit that charges a tax (``passage_cues.charges_tax``): a percentage it states may be read as the rate
_CHARGES_TAX = lexicon.passage_cue("charges_tax")
#: a question asking since when a rule applies (``question_kinds.asks_commencement``)
_ASKS_COMMENCEMENT = lexicon.question_kind("asks_commencement")
#: the form an administrative sanction takes, as UU KUP writes it ("sanksi administratif berupa denda 30%")
_SANCTION_FORM = re.compile(r"\bberupa\s+(denda|bunga|kenaikan)\b", re.I)
_SANCTION_FORM_EN = {"denda": "a fine", "bunga": "interest", "kenaikan": "a surcharge"}


def _list_opener(claims: Sequence[ShownClaim], i: int) -> int | None:
    """The index of the claim quoting the sentence that opens the list claim ``i`` is an item of (the
    composer quotes it second, role "context": ``bot.answer.extractive._with_list_lead_in``, unless it was
    relevant by itself), else None."""
    own = claims[i].source.chunk_id
    if "/" not in own.partition("#")[2]:
        return None
    parent = own.rsplit("/", 1)[0]
    for j, c in enumerate(claims):
        if j == i or c.source.chunk_id not in (parent, lead_in_id(parent)):
            continue
        if c.role == "context" or (c.role == "condition" and c.quote.rstrip().endswith(":")):
            return j  # quoted by the composer for the item, or found relevant by itself
    return None


def _fact_sentence(
    c: ShownClaim,
    n: int,
    lang: str,
    kind: str | None,
    question: str = "",
    as_of: dt.date | None = None,
    opener: tuple[str, int] | None = None,
) -> tuple[str, str | None]:
    """(sentence, rate phrase) for the leading claim ``c`` cited as ``[n]``.  ``opener``: the quote opening
    the list ``c`` is an item of and its number; the rule's own words are then read under it ("Jenis jasa
    yang tidak dikenai Pajak Pertambahan Nilai ...: jasa boga atau katering ..." -- the item alone names the
    service, not that it is exempt)."""
    src = _source_name(c)
    if kind == "amount":  # "dendanya berapa?": the amount, for what the question names
        amount = _amount_phrase(c, question)
        if amount:
            if lang == "en":
                return f'Under {src}, the amount is "{amount}" [{n}].', None
            return f"Menurut {src}, jumlahnya {amount} [{n}].", None
    if kind != "deadline":
        # with no kind of fact asked, a percentage is "the rate" only in a unit that charges a tax, or read
        # under the list lead-in that does, or in a table row (a rates table heads its column "Tarif"):
        # "biaya pensiun ... sebesar 5% dari penghasilan bruto" is a deduction, "a mark-up of 5%" a price
        reads_rate = kind == "rate" or (
            kind is None
            # "Siapa yang memotong ...?" asks the withholder, which the rule's own words name ("dipotong pajak
            # sebesar 20% ... oleh pihak yang wajib membayarkan"), not its rate
            and not asks_liable(question)
            and (
                c.quote.lstrip().startswith("|")
                or bool(_CHARGES_TAX.search(f"{opener[0] if opener else ''}\n{c.quote}"))
            )
        )
        rate = _rate_phrase(c, lang, question) if reads_rate else None
        form = _SANCTION_FORM.search(c.quote) if rate and asks_penalty(question) else None
        if rate and form is None and _SETS_BASE.search(c.quote):
            # "Dasar pengenaan ... sebesar 50% dari jumlah penghasilan bruto": a base, not a rate (a sanction
            # measured on the base, "denda sebesar 1% ... dari Dasar Pengenaan Pajak", is read below)
            if lang == "en":
                return f"Under {src}, the tax base is {rate} [{n}].", rate
            return f"Menurut {src}, dasar pengenaannya {rate} [{n}].", rate
        if form is not None:
            # "dendanya berapa persen?" answered by "dikenai sanksi administratif berupa denda sebesar 30%":
            # the percentage is the sanction, not a tax rate ("Tarif bunga per bulan ... suku bunga acuan
            # ditambah 5%" is the rate of one, and stays "tarifnya")
            sanction = form.group(1).lower()
            if lang == "en":
                return f"Under {src}, the sanction is {_SANCTION_FORM_EN[sanction]} of {rate} [{n}].", rate
            return f"Menurut {src}, sanksinya {sanction} {rate} [{n}].", rate
        if rate:
            if lang == "en":
                return f"Under {src}, the rate is {rate} [{n}].", rate
            return f"Menurut {src}, tarifnya {rate} [{n}].", rate
    if kind in ("deadline", "period"):  # a period found in a rule is not "the deadline" unless one was asked
        asked_on = as_of or (understand(question).as_of if question else None) or dt.date.today()
        due = _deadline_phrase(c, kind == "period", asked_on, question)
        if due:
            # "paling lambat tanggal 15" is a deadline; "10 (sepuluh) tahun" is a period; the date asked
            # "since when" a rule applies is its start ("PPN 12% itu berlaku mulai kapan?")
            period = bool(_PERIOD.match(due))
            start = not period and bool(_ASKS_COMMENCEMENT.search(lexicon.plain_question(question)))
            if lang == "en":
                what = "the period is" if period else "it takes effect" if start else "the deadline is"
                return f'Under {src}, {what} "{due}" [{n}].', None
            what = "jangka waktunya" if period else "mulai berlakunya" if start else "batas waktunya"
            return f"Menurut {src}, {what} {due} [{n}].", None
    body = _named_party(c) if kind is None and asks_liable(question) else None
    body = body or _statement(c, kind, question)
    cites = f"[{n}]"
    if opener is not None:
        head = " ".join(opener[0].split()).rstrip(" :")
        # a whole sentence before the item (an unnumbered first ayat, "... dalam jangka waktu tertentu.")
        # reads on into it; only a lead-in is followed by a colon ("tertentu.: Tarif ..." was shown)
        body = f"{head} {body}" if head.endswith(".") else f"{head}: {body}"
        cites = f"[{n}][{opener[1]}]"
    if lang == "en":
        return f'Under {src}: "{body}" {cites}.', None
    return f"Menurut {src}: {body} {cites}.", None


#: where the clause naming a party ends: a colon before the list it opens, a semicolon, a full stop
_CLAUSE_END = re.compile(r"[:;.](?:\s|$)")


def _named_party(c: ShownClaim, limit: int = _LINE_LIMIT) -> str | None:
    """For a question asking who owes or withholds, the words of the claim (lead-in included) that name the
    party, up to the end of their clause: "... oleh badan pemerintah, subjek pajak badan dalam negeri, ...
    dipotong pajak oleh pihak yang wajib membayarkan" (UU PPh Pasal 23 ayat (1), whose quote is a rate item).
    None when no clause names one (lexicon ``passage_cues.names_liable``)."""
    text = " ".join(c.text.split())
    m = NAMES_LIABLE.search(text)
    if m is None:
        return None
    stop = _CLAUSE_END.search(text, m.end())
    end = stop.start() if stop else len(text)
    # from the party named before it ("dibayarkan oleh badan pemerintah, ..."), when the line stays readable
    agent = text.rfind(" oleh ", 0, m.start())
    if agent >= 0 and end - agent <= limit * 3 // 2:
        begin = agent + 1
    else:
        begin = max(0, end - limit)
        if begin:
            space = text.find(" ", begin)
            begin = space + 1 if 0 <= space < m.start() else begin
    said = text[begin:end]
    return f"… {said}" if begin else said


def _premise(question: str, lead: ShownClaim, lang: str) -> str:
    """ "Tidak: aturannya 2%, bukan 1%." when the question asserts a percentage and asks to confirm it
    ("... 1%, benar kan?") and the lead contradicts it.  A percentage that only describes the asker's
    situation ("sudah dipotong 10 persen") is not a premise: correcting it would invent a disagreement."""
    if not _ASK_CONFIRM.search(question):
        return ""
    asked = _percents(question)
    quote = lead.quote
    forbidden = forbidden_spans(quote)
    # only a rate confirms or contradicts the asked rate: "100% lebih tinggi" (the surcharge for a payee
    # without an NPWP) answering "4%, kan?" is no "aturannya 100%, bukan 4%" (outside tester, session 30); nor
    # does a figure the rule names only as forbidden ("tidak boleh menerima faktur yang mengenakan 12%")
    stated = [
        (s, k)
        for kind, k, s in percent_kinds(lead)
        if kind in ("rate", "range") and not any(lo <= quote.find(s) < hi for lo, hi in forbidden)
    ]
    if not asked or not stated:
        return ""
    stated_keys = {k for _, keys in stated for k in keys}
    wrong = [s for s, keys in asked if not (keys & stated_keys)]
    rule = stated[0][0]
    if wrong and len(wrong) < len(asked):
        # "10%, benar? bukannya sudah 11%?": one figure asked is the rule's, the other is not -- neither a
        # plain yes nor a plain no
        right = next(s for s, keys in asked if keys & stated_keys)
        if lang == "en":
            return f"The rule says {right}, not {wrong[0]}."
        return f"Aturannya {right}, bukan {wrong[0]}."
    if wrong:
        if lang == "en":
            return f"No: the rule says {rule}, not {wrong[0]}."
        return f"Tidak: aturannya {rule}, bukan {wrong[0]}."
    return "Yes." if lang == "en" else "Ya."


def _losers(conflicts: Sequence[Conflict]) -> set[str]:
    """Documents that lost a conflict to a preferred source: they never lead an answer."""
    return {s.doc_id for cf in conflicts for s in cf.sources if cf.preferred and s.doc_id != cf.preferred}


def _other_tax(c: ShownClaim, asked: set[str]) -> bool:
    """The claim names taxes and none is the one the question asks about (PPh 26 for a PPh 23 question)."""
    named = set(mentioned_taxes(c.quote))
    return bool(asked) and bool(named) and not (named & asked)


def _lead_index(claims: Sequence[ShownClaim], conflicts: Sequence[Conflict] = (), question: str = "") -> int:
    """The composer's first claim leads, unless it is an example, lost a conflict or is about another tax."""
    losers = _losers(conflicts)
    asked = set(mentioned_taxes(question)) if question else set()
    for pass_ in (0, 1):
        for i, c in enumerate(claims):
            if c.is_example or c.role == "example":
                continue
            if pass_ == 0 and (c.source.doc_id in losers or _other_tax(c, asked)):
                continue  # a source that lost a conflict, or a rule about another tax, never leads
            if pass_ == 0 and i > 0 and c.role in ("condition", "exception", "definition"):
                continue
            return i
    return 0


def _in_conflict(claim: ShownClaim, conflicts: Sequence[Conflict]) -> bool:
    """The claim's source is one of the sources of some conflict."""
    return any(claim.source.doc_id == s.doc_id for cf in conflicts for s in cf.sources)


def _conflict_sentence(
    lead: ShownClaim, claims: Sequence[ShownClaim], conflicts: Sequence[Conflict], lang: str
) -> str:
    """The second sentence when the lead's source is in a conflict ("X menyebut 4% [2], tetapi Y ...")."""
    for cf in conflicts:
        ids = [s.doc_id for s in cf.sources]
        if lead.source.doc_id not in ids:
            continue
        other = next(s for s in cf.sources if s.doc_id != lead.source.doc_id)
        k = next((j for j, c in enumerate(claims) if c.source.doc_id == other.doc_id), None)
        mark = f" [{k + 1}]" if k is not None else ""
        figs = ", ".join(other.figures)
        if cf.preferred == lead.source.doc_id:
            if lang == "en":
                return f"{other.number} says {figs}{mark}, but {_source_name(lead)} applies."
            return f"{other.number} menyebut {figs}{mark}, tetapi {_source_name(lead)} yang berlaku."
        if lang == "en":
            return f"{other.number} says {figs}{mark}; the tax team must decide which applies."
        return f"{other.number} menyebut {figs}{mark}; tim pajak perlu memutuskan mana yang berlaku."
    return ""


def answer_line(
    claims: Sequence[ShownClaim],
    language: str,
    question: str = "",
    conflicts: Sequence[Conflict] = (),
    *,
    as_of: dt.date | None = None,
) -> str:
    """One or two plain sentences that answer, built from verified claims only (markers ``[n]``); ``as_of``:
    the answer's date (default: the question's, else today), which picks among dated deadlines.

    The leading claim states the asked fact (rate, deadline, or the provision itself) with its
    citation; a stated premise the sources contradict is corrected first; a real conflict with the
    lead's source is said in the second sentence.
    """
    if not claims:
        return ""
    lang = _lang(language)
    # what is asked is read as the formal spelling reads ("brp lama" asks a period like "berapa lama"; the
    # question-kind functions read it so themselves)
    asks = lexicon.plain_question(question)
    kinds = asked_facts(question) if question else ()
    if len(kinds) > 1:
        return _multi_part(claims, lang, question, conflicts, kinds)
    kind = asked_fact(question) if question else None
    i = _lead_index(claims, conflicts, question)
    if kind is None and _in_conflict(claims[i], conflicts):
        # the lead's source disagrees with another: on a rate the line states the winner's; a permission
        # conflict states no rate and the line falls back to the winner's own words (payment days come with a
        # deadline question).  Two policies disagreeing on a rate do not make a sanction question (led by UU
        # KUP Pasal 9) ask a rate: the line would state the policy's rate instead of the sanction.
        kind = "rate"
    if kind is None and ASKS_OTHER_THAN_RATE.search(asks):
        kind = "statement"  # conditions, documents, procedure: the rule's own words, not a figure pulled out
    windows = list(dict.fromkeys(c.applies for c in claims if c.applies))
    if len(windows) > 1:
        return _per_window(claims, lang, kind, windows)
    kind = _as_period(kind, asks)
    if kind == "deadline" and not _states(claims[i], kind, lang, question) and _counted_from_event(claims[i]):
        # the lead's limit is a length of time from an event ("Batas waktu pengajuan surat keberatan
        # ditentukan dalam waktu 3 (tiga) bulan sejak tanggal dikirim surat ketetapan pajak"): that is the
        # answer, not another claim's "paling lama ..." (which told 1 month from another ayat, session 57).
        # A lead that names the moment ("wajib dibuat ... pada saat penyerahan") is read as before.
        kind = "period"
    if kind in ("rate", "deadline", "period") and not _states(claims[i], kind, lang, question):
        # the lead does not state the asked fact: a close claim that does answers (never another tax's rule)
        near = _candidates(claims, conflicts, question)
        i = next((j for j in near if _states(claims[j], kind, lang, question)), i)
    items = _ptkp_items_line(claims, lang, question) if question else ""
    if items:
        return items
    lead = claims[i]
    j = _list_opener(claims, i)
    opener = (claims[j].quote, j + 1) if j is not None else None
    sentence, _rate = _fact_sentence(lead, i + 1, lang, kind, question, as_of, opener)
    premise = _premise(question, lead, lang) if question else ""
    side = _bound_comparison(question, lead, i + 1, lang) if question else ""
    second = _conflict_sentence(lead, claims, conflicts, lang)
    return " ".join(p for p in (premise, sentence, side, second) if p)


#: a rule stating when by an event: "Faktur Pajak wajib dibuat ... pada saat penyerahan"
_AT_THE_MOMENT = re.compile(r"\bpada\s+saat\b", re.I)
#: a length counted from an event: "3 (tiga) bulan sejak tanggal dikirim", "... setelah akhir Tahun Pajak"
_FROM_EVENT = re.compile(r"\b(?:sejak|setelah|terhitung)\b", re.I)


def _counted_from_event(c: ShownClaim) -> bool:
    """The claim's length of time runs from an event ("dalam waktu 3 (tiga) bulan sejak tanggal dikirim surat
    ketetapan pajak"): the answer to when, unlike a span ("disimpan selama 10 (sepuluh) tahun", which answers
    how long) or a rule naming the moment itself ("pada saat penyerahan")."""
    period = _deadline_phrase(c, True)
    return bool(period and _FROM_EVENT.search(period)) and not _AT_THE_MOMENT.search(c.quote)


def _as_period(kind: str | None, asks: str) -> str | None:
    """A deadline asked as "berapa lama" / "sampai berapa tahun" (``asks``: the plain question) is a length of
    time: the answer line states the period the rule sets, not a date."""
    return "period" if kind == "deadline" and _ASKS_PERIOD.search(asks) else kind


def _states(c: ShownClaim, kind: str, lang: str, question: str = "") -> bool:
    return bool(_rate_phrase(c, lang, question) if kind == "rate" else _deadline_phrase(c, kind == "period"))


def _candidates(claims: Sequence[ShownClaim], conflicts: Sequence[Conflict], question: str) -> list[int]:
    """Claims that may carry the answer, in order: no examples, no conflict losers, no other tax's rule."""
    losers = _losers(conflicts)
    asked = set(mentioned_taxes(question))
    return [
        j
        for j, c in enumerate(claims)
        if not c.is_example
        and c.role not in ("example", "definition")
        and c.source.doc_id not in losers
        and not _other_tax(c, asked)
    ]


def _ptkp_items_line(claims: Sequence[ShownClaim], lang: str, question: str) -> str:
    """For a PTKP asked by status ("Berapa PTKP untuk status K/2?"): every item of the PTKP the status
    takes, each with its citation (the taxpayer's own, being married, dependants), when the claims hold them
    all; "" otherwise.  One item alone read as the whole PTKP ("jumlahnya Rp54.000.000,00 ... untuk diri Wajib
    Pajak", session 66).  No total is computed: its number would stand in no quote."""
    taken = asked_ptkp_items(question)
    at = {name: [j for j, c in enumerate(claims) if PTKP_ITEMS[name].search(c.quote)] for name in taken}
    if len(taken) < 2 or not all(at.values()):
        return ""
    found = [at[name][0] for name in taken]
    said = []
    for j in found:
        item = " ".join(_LEAD_LABEL.sub("", claims[j].quote.strip()).split())
        item = _ITEM_JOINER.sub("", item).rstrip(";,. ")
        said.append(f"{item} [{j + 1}]" if lang == "id" else f'"{item}" [{j + 1}]')
    src = _source_name(claims[found[0]])
    joined = "; ".join(said[:-1]) + ("; dan " if lang == "id" else "; and ") + said[-1]
    if lang == "id":
        return f"Menurut {src}, Penghasilan Tidak Kena Pajak-nya terdiri atas: {joined}."
    return f"Under {src}, the non-taxable income (PTKP) is made of: {joined}."


def _per_window(claims: Sequence[ShownClaim], lang: str, kind: str | None, windows: Sequence[str]) -> str:
    """A period that straddles a change of the rule: one sentence per side, each with its dates."""
    out = []
    for w in windows:
        side = [j for j, c in enumerate(claims) if c.applies == w and not c.is_example]
        if not side:
            continue
        j = next((k for k in side if _states(claims[k], kind or "rate", lang)), side[0])
        sentence, _ = _fact_sentence(claims[j], j + 1, lang, kind)
        start, _sep, end = w.partition("..")
        out.append(
            f"{'From' if lang == 'en' else 'Untuk'} {start} – {end}: {sentence[0].lower()}{sentence[1:]}"
        )
    return " ".join(out)


_MISSING_PART = {
    "rate": {
        "id": "Sumber yang ditemukan tidak menyebut tarifnya.",
        "en": "The sources found do not state the rate.",
    },
    "deadline": {
        "id": "Sumber yang ditemukan tidak menyebut batas waktunya.",
        "en": "The sources found do not state the deadline.",
    },
}


def _multi_part(
    claims: Sequence[ShownClaim],
    lang: str,
    question: str,
    conflicts: Sequence[Conflict],
    kinds: Sequence[str],
) -> str:
    """One sentence per part of a multi-part question, each from the first claim that states it."""
    losers = _losers(conflicts)
    asked = set(mentioned_taxes(question))
    order = sorted(
        range(len(claims)),
        key=lambda j: (claims[j].source.doc_id in losers or _other_tax(claims[j], asked), j),
    )
    parts: list[str] = []
    premise = ""
    asks = lexicon.plain_question(question)
    for kind in kinds:
        said = _as_period(kind, asks)
        found = None
        for j in order:
            c = claims[j]
            if c.is_example or c.role == "definition":
                continue
            phrase = _rate_phrase(c, lang) if kind == "rate" else _deadline_phrase(c, said == "period")
            if phrase:
                found = j
                break
        if found is None:
            parts.append(_MISSING_PART[kind][lang])
            continue
        parts.append(_fact_sentence(claims[found], found + 1, lang, said, question)[0])
        if kind == "rate":
            premise = _premise(question, claims[found], lang)
    return " ".join(p for p in (premise, *parts) if p)


# -- the message of one answer ------------------------------------------------------------------


def render(
    *,
    status: str,
    language: str,
    as_of: dt.date,
    claims: Sequence[ShownClaim],
    unsupported: Sequence[UnsupportedClaim],
    questions: Sequence[ClarifyingQuestion],
    conflicts: Sequence[Conflict],
    unknowns: Sequence[str],
    warnings: Sequence[str],
    escalation_reason: str | None,
    low_confidence: bool,
    headline: str | None = None,
    question: str = "",
) -> str:
    """``Answer.answer``: the answer line, or the one message of a non-answer (deterministic).

    The evidence arguments are accepted for the pipeline's call and used only where they change the
    message; front ends render the evidence from the answer's other fields.
    """
    del unsupported, unknowns, warnings, questions
    if status == "clarify":
        return label("clarify", language)
    if escalation_reason in ("out_of_scope", "personal_data"):  # declined, never offered to the tax team
        return headline or label("out_of_scope", language)  # a topic's own reply says why
    if status == "abstained":
        return f"{headline or label('no_source', language)} {label('offer', language)}"
    if escalation_reason == "answer_failed":  # the turn opens the ticket and says so
        return label("answer_failed", language)
    if escalation_reason == "advice" and headline:
        return f"{headline} {label('offer', language)}"  # the refusal names the rule the scheme would break
    if escalation_reason in ("advice", "protected_determination"):
        head = label("advice" if escalation_reason == "advice" else "protected", language)
        tail = label("advice_sources", language) if claims else label("no_source", language)
        return f"{head} {label('offer', language)} {tail}"
    line = answer_line(claims, language, question, conflicts, as_of=as_of)
    if not line:
        line = label("no_source", language)
    if low_confidence or escalation_reason == "low_confidence":
        return f"{label('low', language)} {line} {label('offer', language)}"
    if escalation_reason:
        return f"{line} {label('offer', language)}"
    return line


# -- terminal ----------------------------------------------------------------------------------


def _fmt_date(d: dt.date | None) -> str:
    return d.isoformat() if d else "…"


def _claim_markup(n: int, c: ShownClaim, language: str) -> list[str]:
    from rich.markup import escape

    s = c.source
    tags: list[str] = []
    if c.role in ("condition", "exception", "definition"):
        tags.append(label(c.role, language))
    if c.is_example:
        tags.append(label("example", language))
    if c.applies:
        tags.append(f"{label('period', language)} {c.applies}")
    tag = f"[italic]({escape(', '.join(tags))})[/italic] " if tags else ""
    end = _fmt_date(s.effective_to) if s.effective_to else label("now", language)
    window = f"{_fmt_date(s.effective_from)} – {end}"
    heading = claim_heading(c.text, c.quote)  # the quote follows on its own line: print the passage once
    return [
        f"[bold]\\[{n}][/bold] {tag}{escape(heading)}".rstrip(),
        f'    [dim]"{escape(c.quote)}"[/dim]',
        f"    — [cyan]{escape(s.number)}[/cyan] {escape(s.location)} "
        f"[dim]({escape(s.status)}, {window})[/dim]",
    ]


def render_terminal(answer: Answer) -> str:
    """The whole answer for ``dasar ask`` as rich markup (print with ``console.print``)."""
    from rich.markup import escape

    lang = answer.language
    lines = _parts_markup(answer) if answer.parts else [f"[bold]{escape(answer.answer)}[/bold]"]
    for q in answer.clarifying_questions if not answer.parts else ():
        opts = f" [dim]({escape(' / '.join(q.options))})[/dim]" if q.options else ""
        lines.append(f"  • {escape(q.question)}{opts}")
    numbered = list(enumerate(answer.claims, start=1)) if not answer.parts else []
    for layer_key, wanted in (("legal_basis", True), ("policy", False)):
        part = [(n, c) for n, c in numbered if (c.layer == "regulation") is wanted]
        if part:
            lines.append("")
            lines.append(f"[bold underline]{label(layer_key, lang)}[/bold underline]")
            for n, c in part:
                lines.extend(_claim_markup(n, c, lang))
    if answer.conflicts:
        lines.append("")
        lines.append(f"[bold underline]{label('conflicts', lang)}[/bold underline]")
        lines.extend(f"  • {escape(cf.explanation or cf.topic)}" for cf in answer.conflicts)
    if answer.withheld_summary:
        lines.append("")
        lines.append(f"[yellow]{escape(answer.withheld_summary)}[/yellow]")
    if answer.warnings:
        lines.append("")
        lines.append(f"[bold underline]{label('warnings', lang)}[/bold underline]")
        lines.extend(f"  • {escape(w)}" for w in answer.warnings)
    lines.append("")
    lines.append(f"[dim]({label('as_of', lang).format(d=answer.as_of.isoformat())})[/dim]")
    return "\n".join(lines)


def _parts_markup(answer: Answer) -> list[str]:
    """One numbered section per part of a multi-part message: its question, its answer line (markers count
    the message's claims), its clarifying questions, and its quotes with citations (each passage once: a
    passage an earlier part already printed is referred to by its number)."""
    from rich.markup import escape

    lang = answer.language
    lines: list[str] = []
    printed: set[int] = set()
    for part in answer.parts:
        if lines:
            lines.append("")
        lines.append(f"[bold underline]{part.index}. {escape(part_question(part.question))}[/bold underline]")
        lines.append(f"[bold]{escape(part.line)}[/bold]")
        for q in part.answer.clarifying_questions:
            opts = f" [dim]({escape(' / '.join(q.options))})[/dim]" if q.options else ""
            lines.append(f"  \u2022 {escape(q.question)}{opts}")
        new, above = part_claims(part.claim_numbers, len(answer.claims), printed)
        for n in new:
            lines.extend(_claim_markup(n, answer.claims[n - 1], lang))
        if above:
            lines.append(f"    [dim]{escape(quoted_above(above, lang))}[/dim]")
    return lines


#: Words of the per-part rendering (every front end uses them).
PART_LABELS: dict[str, dict[str, str]] = {
    "above": {"id": "{refs}: kutipan di atas", "en": "{refs}: quoted above"},
}
#: How much of a part's question a section heading shows.
PART_QUESTION_CHARS = 160


def part_question(text: str, limit: int = PART_QUESTION_CHARS, ellipsis: str = "\u2026") -> str:
    """A part's question, whitespace-collapsed and clipped to ``limit`` characters (a section heading)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - len(ellipsis)].rstrip() + ellipsis


def part_claims(numbers: Iterable[object], total: int, printed: set[int]) -> tuple[list[int], list[object]]:
    """A part's claim numbers (positions in the message's ``claims``): those to print under it now (recorded
    in ``printed``), and those an earlier part printed (or out of range), referred to as quoted above.
    Every front end prints each passage of a multi-part message once this way."""
    new: list[int] = []
    above: list[object] = []
    for n in numbers:
        if not isinstance(n, int) or n in printed or not 1 <= n <= total:
            above.append(n)
            continue
        printed.add(n)
        new.append(n)
    return new, above


def quoted_above(numbers: Sequence[object], language: str) -> str:
    """ "[2], [3]: kutipan di atas": the passages a part cites that an earlier part printed."""
    refs = ", ".join(f"[{n}]" for n in dict.fromkeys(numbers))
    return PART_LABELS["above"][_lang(language)].format(refs=refs)
