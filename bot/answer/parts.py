"""A message that asks several things gets one answer per part.

Chat messages pile asks on one another ("Tarif PPh 23 berapa? Kalau vendornya tidak punya NPWP gimana?
Bukti potongnya kapan dibuat?").  Answered as one question, the words of all the asks together outweigh
what any one passage states, and the parts after the first go silently unanswered.
:func:`answer_message` answers each part (:func:`message_parts`) by
:func:`bot.answer.pipeline.answer_question` on the part's own text, with the message's context:

* the *story*: the message's sentences that ask nothing ("Kami membayar jasa konsultan ke PT A.") are
  put before every part, as a one-question message tells its case before it asks;
* a part that names no topic of its own (no tax type, law or provision in :func:`kb.query.understand`,
  and no levy in its own words such as "pajak karbon", :func:`names_levy`; e.g. "Terus kalau vendornya
  tidak punya NPWP gimana?") leans on the message for it: the topic of the
  nearest earlier part that names one (else of the first later one) is put before it as a sentence of its
  own ("PPh 23."), unless the story already names a topic;
* a date the message names outside the part is put before it too.

The pipeline then judges relevance on the asking sentence (``kb.lexical.ask_text``) and searches with the
whole text.  A message of one question is answered exactly as :func:`answer_question` answers it; one of
more than :data:`MAX_PARTS` parts is answered as a whole, as before, with a note saying so.

The combined :class:`~bot.answer.model.Answer` keeps every part (``parts``) and fills the top-level fields
for the consumers that read only those (eval, tickets, cache, history):

* ``claims``: the parts' claims in part order, each passage once (a passage two parts cite is listed under
  the first); ``claims[0]`` is the lead of the first part that has claims.  Each part's line is renumbered
  to these positions (``PartAnswer.line``, ``PartAnswer.claim_numbers``);
* ``answer``: one line per part, ``"1. <question> — <its answer line>"``;
* ``status``: ``answered`` only when every part is answered.  Otherwise the status and ``escalation`` are
  those of the first part that is not answered and that the tax team can take (an offered escalation:
  low confidence, no source, advice ...), else of the first part that is not answered (out of scope, a
  clarification).  So a message whose second part has no source is ``abstained`` with reason
  ``no_source`` even though its first part is answered (its claims are still shown), and the turn offers
  or opens a ticket exactly as for a one-question answer of that status; the turn's ledger holds every
  part's retrieval and withheld claims, so the ticket carries that part's evidence.  When some part is
  answered, a note names the parts that are not;
* ``confidence``, ``as_of``, ``period``: those of the part whose lead is ``claims[0]`` (else the first
  part); ``warnings``, ``unsupported_claims``, ``conflicts``, ``clarifying_questions``: each part's, in
  order, once; ``timings``: summed.

Deterministic: the same message, reader, date and corpus give the same parts and the same answer.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Sequence
from typing import Any

from bot.answer.model import Answer, ClarifyingQuestion, Conflict, PartAnswer, ShownClaim, UnsupportedClaim
from bot.answer.pipeline import PipelineConfig, W, answer_question, known_acts
from bot.answer.protocol import Composer
from bot.answer.render import part_question
from guardrails.verify import SupportJudge
from identity.principal import Principal
from kb.lexical import asking_sentences, question_parts, sentences
from kb.query import STOPWORDS, QueryPlan, understand
from tools.ledger import Ledger

#: More parts than this are answered as one message (a list of questions is rarely one person's need).
MAX_PARTS = 4
#: How much of a part's question the answer line repeats.
QUESTION_CHARS = 120

_MARKER = re.compile(r"\[(\d{1,3})\]")

NOTES = {
    "too_many": {
        "id": "Pesan Anda berisi {n} pertanyaan, lebih dari {m}: dijawab sebagai satu pesan, tidak per "
        "pertanyaan. Tanyakan bagian-bagiannya secara terpisah.",
        "en": "Your message asks {n} questions, more than {m}: it was answered as one message, not question "
        "by question. Ask the parts separately.",
    },
    "open_parts": {
        "id": "Pertanyaan ke-{i} dari {n} dalam pesan Anda belum terjawab dengan pasti dari sumber; bagian "
        "itu dapat diteruskan ke tim pajak.",
        "en": "Question {i} of the {n} in your message is not answered with certainty from the sources; that "
        "part can go to the tax team.",
    },
}


#: How the pipeline's own notes on a multi-part message answered as a whole begin (``all_parts`` /
#: ``one_part`` of ``bot.answer.pipeline.W``), per language.
_PIPELINE_PARTS_NOTE: dict[str, str] = {
    lang: W["all_parts"][lang].split("{", 1)[0] for lang in ("id", "en") if lang in W["all_parts"]
}


def _note(key: str, lang: str, **kw: object) -> str:
    table = NOTES[key]
    return table.get(lang, table["id"]).format(**kw)


def answer_message(
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
    """Answer a chat message: one question as :func:`answer_question` does, several part by part.

    Same arguments and result type as :func:`bot.answer.pipeline.answer_question` (see the module docstring
    for how parts are asked and combined).
    """

    def ask(text: str) -> Answer:
        return answer_question(
            text,
            principal,
            services,
            as_of=as_of,
            composer=composer,
            judge=judge,
            mode=mode,
            explain=explain,
            config=config,
            today=today,
            ledger=ledger,
        )

    acts = known_acts(services)
    parts = message_parts(question, services.aliases, acts)
    if len(parts) < 2:
        return ask(question)
    message_plan = understand(question, aliases=services.aliases, catalog=acts)
    lang = message_plan.language
    if len(parts) > MAX_PARTS:
        whole = ask(question)
        said = _PIPELINE_PARTS_NOTE.get(lang, _PIPELINE_PARTS_NOTE["id"])
        if any(w.startswith(said) for w in whole.warnings):
            return whole  # the pipeline already said it answered the message as a whole (or one part of it)
        return _with_warning(whole, _note("too_many", lang, n=len(parts), m=MAX_PARTS))
    asked = asked_texts(question, parts, message_plan, services.aliases, acts)
    answers = [ask(text) for text in asked]
    return combine(parts, asked, answers, lang)


def _with_warning(answer: Answer, note: str) -> Answer:
    if note in answer.warnings:
        return answer
    return dataclasses.replace(answer, warnings=(*answer.warnings, note))


def message_parts(question: str, aliases: Any = None, acts: Any = None) -> list[str]:
    """The questions of a message: :func:`kb.lexical.question_parts`, plus the short asks it leaves out that
    name a topic of their own ("Berapa tarif PPN sekarang?" has one content word besides its tax type, so
    ``question_parts`` takes it for a formula like "Gimana?"); [] when fewer than two ask."""
    asks = asking_sentences(question)
    if len(asks) < 2:
        return []
    kept = set(question_parts(question))
    parts = [a for a in asks if a in kept or topic_words(understand(a, aliases=aliases, catalog=acts))]
    return parts if len(parts) >= 2 else []


# -- what each part asks ------------------------------------------------------------------------


def topic_words(plan: QueryPlan) -> str:
    """The topic a question names, as words: its tax types, the provisions it writes, the laws it names
    ("PPh 23", "Pasal 17 UU 7/1983"); "" when it names none."""
    if plan.tax_types:  # "PPh 23" names its Pasal and law already
        return " ".join(dict.fromkeys(plan.tax_types))
    words = [
        f"Pasal {p.pasal}" + (f" {p.law}" if p.law else "") for p in plan.provisions if p.origin == "text"
    ]
    written = " ".join(words)
    words += [ref for ref in plan.doc_refs if ref not in written]
    return " ".join(dict.fromkeys(words))


#: "pajak karbon", "bea keluar", "cukai rokok": a levy named by its own words (not "Wajib Pajak ...")
_LEVY = re.compile(r"(?<!wajib )\b(pajak|bea|cukai|retribusi)\s+([a-z]{3,})\b", re.IGNORECASE)
_LEVY_EN = re.compile(r"\b([a-z]{3,})\s+(tax|duty|levy)\b", re.IGNORECASE)


def names_levy(text: str) -> str:
    """The levy a question names in its own words when the alias table knows no tax type for it ("pajak
    karbon"); such a question has a topic of its own and borrows none.  "" when it names none."""
    for m in _LEVY.finditer(text):
        if m.group(2).lower() not in STOPWORDS:
            return m.group(0)
    for m in _LEVY_EN.finditer(text):
        if m.group(1).lower() not in STOPWORDS:
            return m.group(0)
    return ""


def asked_texts(
    question: str, parts: Sequence[str], message_plan: QueryPlan, aliases: Any, acts: Any = None
) -> list[str]:
    """The text each part is answered from: the story, a borrowed topic and date when needed, the part."""
    asks = set(asking_sentences(question))
    story = [s for s in sentences(question) if s not in asks]
    story_text = " ".join(story)
    story_topic = topic_words(understand(story_text, aliases=aliases, catalog=acts)) if story else ""
    plans = [understand(p, aliases=aliases, catalog=acts) for p in parts]
    topics = [topic_words(plan) or names_levy(p) for plan, p in zip(plans, parts, strict=True)]
    span = message_plan.as_of_span
    date_phrase = question[span[0] : span[1]].strip() if span else ""
    out = []
    for i, part in enumerate(parts):
        context = list(story)
        if not topics[i] and not story_topic:
            earlier = [t for t in reversed(topics[:i]) if t] or [t for t in topics[i + 1 :] if t]
            if earlier:
                context.append(f"{earlier[0]}.")
        text = " ".join([*context, part])
        # the message's date is the part's unless the part names its own ("masa nov 2024 ...? trs kalo masa
        # jan 2025 masih sama?": the second part asks about January 2025)
        if date_phrase and date_phrase not in text and plans[i].as_of is None:
            text = f"{date_phrase}. {text}"
        out.append(text)
    return out


# -- one answer from the parts' answers ---------------------------------------------------------------


def _heading(question: str) -> str:
    return part_question(question, QUESTION_CHARS, "...")


def _claim_key(c: ShownClaim) -> tuple[str, str, str | None]:
    return (c.source.chunk_id, " ".join(c.quote.split()), c.applies)


def _renumber(line: str, numbers: Sequence[int]) -> str:
    def sub(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return f"[{numbers[n - 1]}]" if 1 <= n <= len(numbers) else m.group(0)

    return _MARKER.sub(sub, line)


def _once(items: Sequence[Any], key: Any) -> list[Any]:
    seen: set[Any] = set()
    out = []
    for it in items:
        k = key(it)
        if k not in seen:
            seen.add(k)
            out.append(it)
    return out


def combine(parts: Sequence[str], asked: Sequence[str], answers: Sequence[Answer], language: str) -> Answer:
    """The message's answer from its parts' answers (the rule is in the module docstring)."""
    claims: list[ShownClaim] = []
    position: dict[tuple[str, str, str | None], int] = {}
    records: list[PartAnswer] = []
    for i, (part, text, ans) in enumerate(zip(parts, asked, answers, strict=True), start=1):
        numbers = []
        for c in ans.claims:
            key = _claim_key(c)
            if key not in position:
                claims.append(c)
                position[key] = len(claims)
            numbers.append(position[key])
        records.append(PartAnswer(i, part, text, ans, _renumber(ans.answer, numbers), tuple(numbers)))
    open_parts = [r for r in records if r.status != "answered"]
    answered = len(open_parts) < len(records)
    chosen = next(
        (r for r in open_parts if r.answer.escalation is not None and r.answer.escalation.offered),
        next(
            (r for r in open_parts if r.answer.escalation is not None), open_parts[0] if open_parts else None
        ),
    )
    status = chosen.status if chosen is not None else "answered"
    escalation = chosen.answer.escalation if chosen is not None else None
    lead = next((r for r in records if r.answer.claims), records[0])
    warnings = [w for r in records for w in r.answer.warnings]
    if answered and open_parts:
        which = (" dan " if language != "en" else " and ").join(str(r.index) for r in open_parts)
        warnings.append(_note("open_parts", language, i=which, n=len(records)))
    timings: dict[str, float] = {}
    for r in records:
        for k, v in r.answer.timings.items():
            timings[k] = timings.get(k, 0.0) + v
    explain = None
    if any(r.answer.explain is not None for r in records):
        explain = {"retrieval": [x for r in records for x in (r.answer.explain or {}).get("retrieval", [])]}
    unsupported: list[UnsupportedClaim] = _once(
        [u for r in records for u in r.answer.unsupported_claims], lambda u: (u.text, u.quote, u.source_id)
    )
    conflicts: list[Conflict] = _once(
        [c for r in records for c in r.answer.conflicts], lambda c: json.dumps(c.to_json(), sort_keys=True)
    )
    questions: list[ClarifyingQuestion] = _once(
        [q for r in records for q in r.answer.clarifying_questions], lambda q: (q.slot, q.question)
    )
    return Answer(
        status=status,
        answer="\n".join(f"{r.index}. {_heading(r.question)} \u2014 {r.line}" for r in records),
        claims=tuple(claims),
        unsupported_claims=tuple(unsupported),
        clarifying_questions=tuple(questions),
        conflicts=tuple(conflicts),
        confidence=lead.answer.confidence,
        as_of=lead.answer.as_of,
        corpus_version=lead.answer.corpus_version,
        escalation=escalation,
        warnings=tuple(dict.fromkeys(warnings)),
        language=language,
        period=lead.answer.period,
        explain=explain,
        timings=timings,
        parts=tuple(records),
    )
