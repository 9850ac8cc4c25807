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
* the names the earlier parts told the case by (acronyms as written: "biaya jasa SNR ke SNL ...? SNL potong
  PPh 23 ga?" -> "SNR.", :func:`case_names`) are put before a part that does not write them;
* a part that names only another topic ("Kalau PPh 23?", :func:`follow_up_of`) asks the question before
  it again: that question, told as a statement ("sanksi terlambat lapor SPT Masa PPN."), is put before it;
* a part that points back to the ask before it ("... bagaimana perlakuannya? Apakah penjualan tersebut
  wajib dibuatkan faktur?", "if so, at what rate?": :func:`refers_back`) gets that ask, told as the case,
  before it, unless the message tells its case in a story (the story says what "tersebut" is);
* a leading joining word ("Terus ...", "trs ...") is dropped: it names nothing a passage must contain;
* a date the message names outside the part is put before it too.

Each part's answer is then checked against what the part itself asks (:func:`unaddressed`): a lead that
mentions none of the part's own words is replaced by a claim of the part that does, else the part says
that no source answers it (``no_source``) instead of showing a passage that only shares its tax type.

The pipeline then judges relevance on the asking sentence (``kb.lexical.ask_text``) and searches with the
whole text.  A message of one question is answered exactly as :func:`answer_question` answers it; one of
more than :data:`MAX_PARTS` parts is answered as a whole, as before, with a note saying so.

The combined :class:`~bot.answer.model.Answer` keeps every part (``parts``) and fills the top-level fields
for the consumers that read only those (eval, tickets, cache, history):

* ``claims``: the parts' claims in part order, each passage once (a passage two parts cite is listed under
  the first); ``claims[0]`` is the lead of the first part that has claims.  Each part's line is renumbered
  to these positions (``PartAnswer.line``, ``PartAnswer.claim_numbers``);
* ``answer``: one line per part, ``"1. <question> — <its answer line>"``;
* ``status``: ``answered`` when every part is answered, and also when the first part (the question that
  states what the asker needs; the later ones narrow it or add to it) is answered and every open part
  found no source or is no tax question (``no_source``, ``out_of_scope``: :func:`stays_answered`).  The
  open part then says so on its own line, a note names the open parts the tax team can take (not an
  out-of-scope one), and ``escalation`` is the first open part's offered one: a ticket is offered, never
  opened by itself, since the asker has an answer to the question that states the need.  A part answered
  with low confidence still escalates the message: its quote is shown with a doubt and the turn opens a
  ticket for it at once, so the message is in fact with the tax team.  Otherwise
  the status and ``escalation`` are those of the open part whose reason binds most (advice or a protected
  determination, then low confidence, no source, out of scope: ``_REASON_ORDER``; an offered escalation
  before one that is not, then the first such part), else of the first open part (a clarification): a
  message whose first question has no source is ``abstained``
  although a later part is answered (its claims are still shown), and a part escalated for advice or a
  protected determination escalates the whole message.  The turn's ledger holds every part's retrieval
  and withheld claims, so a ticket carries the open part's evidence.  A part that asks a fact of the case
  back (``clarify``) goes first when the other open parts only lack a source or confidence: they may turn
  on that fact too.  When some part is answered, a note names the parts that are not;
* ``confidence``, ``as_of``, ``period``: those of the part whose lead is ``claims[0]`` (else the first
  part); ``warnings``, ``unsupported_claims``, ``conflicts``, ``clarifying_questions``: each part's, in
  order, once; ``timings``: summed.

Deterministic: the same message, reader, date and corpus give the same parts and the same answer.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import re
from collections.abc import Sequence
from typing import Any

from bot.answer import scope as scope_mod
from bot.answer.extractive import asked_fact, figure_match, question_figures, states_asked
from bot.answer.model import (
    Answer,
    ClarifyingQuestion,
    Conflict,
    Escalation,
    PartAnswer,
    ShownClaim,
    UnsupportedClaim,
)
from bot.answer.pipeline import PipelineConfig, W, answer_question, known_acts, resident_search
from bot.answer.protocol import Composer
from bot.answer.render import answer_line, part_question
from guardrails.verify import SupportJudge
from identity.principal import Principal
from kb import lexicon
from kb.lexical import (
    EN_ONLY,
    asking_sentences,
    blank_spans,
    choice_spans,
    content_words,
    coverage,
    is_plea,
    question_concepts,
    stem,
    story_sentences,
)
from kb.query import STOPWORDS, QueryPlan, detect_language, tokenize, understand
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
    "unaddressed": {
        "id": "Saya tidak menemukan sumber yang menjawab pertanyaan ini: sumber terdekat ({doc}) tidak "
        "menyebut {missing}.",
        "en": "I don't have a source that answers this question: the nearest one ({doc}) does not mention "
        "{missing}.",
    },
    "open_parts": {
        "id": "Pertanyaan ke-{i} dari {n} dalam pesan Anda belum terjawab dengan pasti dari sumber; bagian "
        "itu dapat diteruskan ke tim pajak.",
        "en": "Question {i} of the {n} in your message is not answered with certainty from the sources; that "
        "part can go to the tax team.",
    },
    "open_parts_many": {
        "id": "Pertanyaan ke-{i} dari {n} dalam pesan Anda belum terjawab dengan pasti dari sumber; "
        "bagian-bagian itu dapat diteruskan ke tim pajak.",
        "en": "Questions {i} of the {n} in your message are not answered with certainty from the sources; "
        "those parts can go to the tax team.",
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
    for text in (question, *parts):
        # a person's data asked for, by the message or by one of its parts ("Berapa gaji Pak X? sekalian
        # NPWP-nya"): declined as a whole, since the other parts ask about the same person
        verdict = scope_mod.classify(text, has_tax_signal=True)
        if verdict.topic is not None and verdict.topic.whole_message:
            return ask(text)
    message_plan = understand(question, aliases=services.aliases, catalog=acts)
    lang = message_plan.language
    if len(parts) > MAX_PARTS:
        whole = ask(question)
        said = _PIPELINE_PARTS_NOTE.get(lang, _PIPELINE_PARTS_NOTE["id"])
        if any(w.startswith(said) for w in whole.warnings):
            return whole  # the pipeline already said it answered the message as a whole (or one part of it)
        return _with_warning(whole, _note("too_many", lang, n=len(parts), m=MAX_PARTS))
    texts = part_texts(question, parts, message_plan, services.aliases, acts)
    asked = [text for _own, text in texts]
    answers = [unaddressed(own, text, ask(text), services.aliases, acts, lang) for own, text in texts]
    return combine(parts, asked, answers, lang)


#: a part's answer whose lead mentions less than this share of the part's own words does not answer it
ADDRESS_MIN = 0.5
#: the words a part is judged by are this long at least: a short word the lexicon does not list as a
#: function word ("jadi", "lagi", "udah") is rarely what is asked
CONCEPT_MIN = 5
#: a part is declined only when its lead mentions none of at least this many of its own words
DECLINE_MIN = 2
#: whether a claim of the part that mentions its words may lead instead of one that does not
PROMOTE = True


def unaddressed(own: str, asked: str, answer: Answer, aliases: Any, acts: Any, language: str) -> Answer:
    """The part's answer led by a claim that addresses the part, or a decline when none of its claims does.

    A part is answered on its text plus the message's context, and its lead is judged on that text: a lead
    can pass on the context's words and on its tax type while it mentions nothing the part itself asks (a
    GL reconciliation rule that names PPh 23 and nothing else, for a question on a service's PPh 23).
    The plain words of what the part asks on its own (``own``, read as :func:`kb.lexicon.plain_question`
    reads it; its tax types and documents aside, they are the topic the whole message shares; words of at
    least :data:`CONCEPT_MIN` letters, no interrogatives) should be mentioned, at least
    :data:`ADDRESS_MIN` of them, by the lead claim's quote.  When the lead does not and another of the
    part's claims does (not a definition or an example), that claim leads (its answer line rebuilt).  When
    none does and the lead mentions none of at least :data:`DECLINE_MIN` of them, the part says that no
    source answers it and is open (``no_source``) like a part nothing was found for, instead of showing
    filler.  A lead that mentions some of them stays: word matching cannot tell "telat lapor" from
    "keterlambatan SPT", and a decline there would drop a right answer.

    A part escalated for low confidence is judged the same way, and a lead that mentions none of it is not
    shown either ("Keyakinan rendah ..." above a passage about something else): the part says that no source
    answers it, and stays escalated (the message's ticket carries the evidence its search found).
    """
    doubtful = (
        answer.status == "escalated"
        and answer.escalation is not None
        and answer.escalation.reason == "low_confidence"
    )
    if (answer.status != "answered" and not doubtful) or not answer.claims:
        return answer
    # read as the question-kind rules read it: "tarifnya" is the topic-free "tarif" with its -nya
    own = lexicon.plain_question(own)
    plan = understand(own, aliases=aliases, catalog=acts)
    # the tax types and documents it names: the topic the whole message shares, mentioned by any passage on it
    shared = tuple(
        e for e in plan.expansions if e.doc or understand(e.term, aliases=aliases, catalog=acts).tax_types
    )
    named = set(question_concepts(dataclasses.replace(plan, expansions=shared), "", keep_named_refs=True))
    concepts = [
        c
        for c in question_concepts(plan, own, keep_named_refs=True, focus_ask=True)
        if c not in named
        and any(len(s) >= CONCEPT_MIN for phrase in c for s in phrase)
        and not any(s in lexicon.ask_words() for phrase in c for s in phrase)  # "berapakah"
    ]
    if not concepts:
        return answer  # "Kalau PPh 23?": nothing of its own to judge the answer by
    if resident_search(own, plan) is not None:
        # a person working in Indonesia asks in words the act does not use ("work permit", "expat"): the part
        # was searched in the act's residence terms (UU PPh Pasal 2 ayat (3)), which is why its lead shares
        # none of the asker's words
        return answer
    lead = answer.claims[0]
    if detect_language(lead.quote) != plan.language:
        if plan.language != "en":
            return answer  # an English policy quoted for an Indonesian ask: its words cannot be compared
        # an English part answered from an Indonesian act is judged on the words the lexicon also reads in
        # Indonesian (en_id pairs: "days" ~ "hari"); a word with no Indonesian form ("strictly",
        # "immigration") is mentioned there only as a name ("Indonesia").  A part asking only such words,
        # naming no tax or act and no fact of a rule (a rate, a deadline), asks what no act states ("is it
        # enforced strictly in practice?") when its lead mentions none of them
        untranslated = concepts
        concepts = [c for c in concepts if EN_ONLY not in c]
        if not concepts:
            if (
                len(untranslated) < DECLINE_MIN
                or named
                or asked_fact(own)
                or coverage(untranslated, lead.quote)
            ):
                return answer
            return _declined(
                answer, language, lead, _concept_words(own, untranslated, lead.quote)[:3], doubtful
            )
    covered = coverage(concepts, lead.quote)
    if covered >= ADDRESS_MIN:
        return answer
    every = [*concepts, *named]
    ranked = sorted(
        (c for c in answer.claims[1:] if c.role != "definition" and not c.is_example),
        key=lambda c: (-coverage(concepts, c.quote), -coverage(every, c.quote)),
    )
    promote = PROMOTE and not doubtful  # a doubtful part's other claims are no surer than its lead
    better = ranked[0] if promote and ranked and coverage(concepts, ranked[0].quote) >= ADDRESS_MIN else None
    kind = asked_fact(own)
    if (
        better is not None
        and kind
        and states_asked(own, kind, lead.quote)
        and not states_asked(own, kind, better.quote)
    ):
        # the lead states the fact the part asks (PMK 51/2025's "sebesar 2,5% ... dari nilai impor" for a part
        # asking the PPh 22 rate customs collect on an import); a claim sharing more of the part's words that
        # states none (the import value's definition, "bea masuk ... kepabeanan") is no better lead
        better = None
    if better is not None:
        claims = (better, *(c for c in answer.claims if c is not better))
        line = answer_line(claims, language, asked, answer.conflicts, as_of=answer.as_of)
        return dataclasses.replace(answer, claims=claims, answer=line)
    if covered > 0 or len(concepts) < DECLINE_MIN:
        # the lead mentions some of what the part asks (it may answer in other words), or the part says too
        # little of its own to tell: one word ("dikenakan") is as often the ask's verb as its topic
        return answer
    figures = question_figures(own)
    if figures and figure_match(figures, lead.quote) == 1.0:
        # the lead states every rate or amount the part checks ("dipotong PPh 22 0,5% gk?" and "sebesar 0,5%
        # ... Pasal 22"): it answers in the act's words ("pungutan", "Pihak Lain"), not the asker's
        return answer
    return _declined(answer, language, lead, _concept_words(own, concepts, lead.quote)[:3], doubtful)


def _declined(
    answer: Answer, language: str, lead: ShownClaim, missing: list[str], escalated: bool = False
) -> Answer:
    """The part's answer as "no source answers it", naming the part's words its nearest source lacks; an
    ``escalated`` part keeps its status and escalation (only the passage it could not stand behind goes)."""
    if not missing:
        return answer  # the words cannot be named: no decline the reader could check
    doc = lead.source.number or lead.source.title
    line = _note("unaddressed", language, doc=doc, missing=", ".join(f'"{w}"' for w in missing))
    if escalated:
        return dataclasses.replace(answer, answer=line, claims=())
    return dataclasses.replace(
        answer,
        status="abstained",
        answer=line,
        claims=(),
        escalation=Escalation("no_source"),
    )


def _concept_words(part: str, concepts: Sequence[Any], quote: str) -> list[str]:
    """The part's words (as written) of the concepts the quote does not mention: a content word of each, not a
    function word of a phrase ("tidak" of "gak punya NPWP", which the reply showed as the word missing)."""
    out: list[str] = []
    for c in concepts:
        if coverage([c], quote) > 0:
            continue
        stems = {s for phrase in c for s in phrase}
        for raw in tokenize(part):
            if stem(raw) in stems and raw not in out and raw not in STOPWORDS:
                out.append(raw)
                break
    return out


def _with_warning(answer: Answer, note: str) -> Answer:
    if note in answer.warnings:
        return answer
    return dataclasses.replace(answer, warnings=(*answer.warnings, note))


def message_parts(question: str, aliases: Any = None, acts: Any = None) -> list[str]:
    """The questions of a message (:func:`kb.lexical.asking_sentences`: sentences, list items, asks joined by
    "dan"/"terus"), each kept when it is a question of its own (:func:`_is_part`; a plea for help such as
    "Mohon dibantu penjelasannya" is not, :func:`is_plea`); [] when fewer than two are.  Each sentence is
    judged alone: a short ask that names a topic ("PPh 21 nya berapa?") is a part beside a longer one that
    names none."""
    asks = asking_sentences(question)
    if len(asks) < 2:
        return []
    parts = [a for a in asks if _is_part(a, aliases, acts)]
    return parts if len(parts) >= 2 else []


#: a part of at most this many words may ask the question before it again ("Kalau PPh 23?")
FOLLOW_UP_WORDS = 4


def _is_part(ask: str, aliases: Any, acts: Any) -> bool:
    """A sentence of the message that is a question of its own: it names a topic, or two words that name
    something ("kode cabangnya apa?").  "Gimana?" and "Mohon pencerahan." are no parts, nor is "tarifnya?"
    (a message that adds only that is answered as one question: measured, splitting such messages lost
    right answers on the blind set)."""
    if topic_words(understand(ask, aliases=aliases, catalog=acts)):
        return True
    return content_words(ask) >= 2 and not is_plea(ask) and not argues_back(ask) and not only_offers(ask)


def only_offers(ask: str) -> bool:
    """A sentence that only offers the answers to the ask before it ("full 10jt atau setengah?",
    :func:`kb.lexical.choice_spans`): the options of that ask, not a question of its own."""
    spans = choice_spans(ask)
    return bool(spans) and content_words(blank_spans(ask, spans)) == 0


def argues_back(ask: str) -> bool:
    """A sentence that opens by arguing with the ask before it ("bukannya sudah 11%?", "padahal kan udah
    12%?"; lexicon ``message_words.counter_openers``): the premise of that ask, checked with it, not a
    question of its own."""
    words = tokenize(ask)
    return bool(words) and words[0] in set(lexicon.message_words("counter_openers"))


@functools.lru_cache(maxsize=1)
def _refers_back() -> re.Pattern[str]:
    """Words by which an ask points back to the ask before it (lexicon ``message_words.refers_back``:
    "... penjualan tersebut?", "if yes, what rate?")."""
    words = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in lexicon.message_words("refers_back"))
    return re.compile(rf"\b(?:{words})\b", re.IGNORECASE)


def refers_back(part: str) -> bool:
    """Whether a part points back to the case of the ask before it ("Apakah penjualan tersebut kena PPN?",
    "If so, at what rate?"): alone it does not say what "tersebut" or "so" is.  A word the part itself wrote
    earlier is what it points to ("Apakah bukti potong dibuat, dan apakah bukti potong tsb dikirim?")."""
    for m in _refers_back().finditer(part):
        before = tokenize(part[: m.start()])
        if not before or before[-1] not in before[:-1]:
            return True
    return False


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


#: an acronym as written ("NITKU", "SNL", "CV", "SPT"): a name the case is about
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{1,6}\b")


def case_names(part: str, topic: str) -> list[str]:
    """The names a part's case is told with besides its topic: acronyms as written ("biaya jasa SNR ke SNL
    ...": SNR, SNL), not the letters of its tax type ("PPN") nor a currency or a role (``not_terms``)."""
    said = topic.lower().split()
    out = [
        w
        for w in _ACRONYM.findall(part)
        if not w.isdigit()
        and w not in lexicon.not_terms()
        and w.lower() not in said
        and w.lower() not in STOPWORDS
    ]
    return list(dict.fromkeys(out))


def _is_term(name: str, plan: QueryPlan) -> bool:
    """Whether an acronym of a part is one of its reviewed alias terms ("NPWP"), not a name ("SNL")."""
    return any(name.lower() in tokenize(e.term) for e in plan.expansions)


def _statement(question: str) -> str:
    """A question told as the case ("NSFP berapa digit?" -> "NSFP digit."): its interrogatives and its mark
    dropped, so the text a part is answered from still asks only the part (the pipeline reads a text
    of two asks as a message to answer as a whole)."""
    words = lexicon.ask_words()
    kept = [w for w in question.split() if tokenize(w) == [] or tokenize(w)[0] not in words]
    return " ".join(kept).rstrip(" ?!.,") + "."


def follow_up_of(part: str, plan: QueryPlan, before: str = "") -> bool:
    """A part that names only a topic, a topic-free word or another date ("Kalau PPh 23?", "Trus utk PPN
    gimana?", "tarifnya?", "kalau faktur Mei 2022?"): it asks the question ``before`` it again, about its own
    topic, for that word or on that date.  Every word it writes besides a stopword, a topic-free word
    (``generic_words``), a word of its own date or a word of the question before is its topic's."""
    topic_tokens = {t for e in plan.expansions for t in tokenize(e.term)} | set(tokenize(topic_words(plan)))
    span = plan.as_of_span
    date_tokens = set(tokenize(part[span[0] : span[1]])) if span else set()
    known = topic_tokens | date_tokens | set(tokenize(before))
    generic = lexicon.generic_words()
    return not any(
        t not in STOPWORDS
        and t not in generic
        and stem(t) not in generic  # "tarifnya"
        and t not in known
        and len(t) >= 3
        and not t.isdigit()
        for t in tokenize(part)
    )


def _without_date(question: str, aliases: Any, acts: Any) -> str:
    """The question without the date it names: a follow-up that names its own date asks it on that date."""
    span = understand(question, aliases=aliases, catalog=acts).as_of_span
    if not span:
        return question
    return " ".join(f"{question[: span[0]]} {question[span[1] :]}".split())


@functools.lru_cache(maxsize=1)
def _opens_follow_up() -> re.Pattern[str]:
    """How a follow-up that asks the question before again opens (lexicon ``message_words.follow_up_openers``:
    "Kalau PPh 23?", "Trus utk PPN gimana?", "What about PPN?"); "PPh 21 nya berapa?" is a new question
    about PPh 21, not the one before again."""
    words = "|".join(re.escape(w) for w in lexicon.message_words("follow_up_openers"))
    return re.compile(rf"\s*(?:{words})\b", re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def _lead_join() -> re.Pattern[str]:
    """A joining word a part opens with (lexicon ``message_words.lead_joins``: "Terus ...", "Lalu ...")."""
    words = "|".join(re.escape(w) for w in lexicon.message_words("lead_joins"))
    return re.compile(rf"^(?:(?:{words})\b[\s,]*)+", re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def _part_label() -> re.Pattern[str]:
    """The label a numbered part opens with (lexicon ``message_words.part_labels`` and a number: "Question
    1 :", "Pertanyaan 2.", "Q3)"); the part's words follow it."""
    words = "|".join(re.escape(w) for w in lexicon.message_words("part_labels"))
    return re.compile(rf"^\s*(?:{words})\.?\s*\d+\s*[:.)\-]?\s*", re.IGNORECASE)


def joins(part: str) -> bool:
    """The part opens with a joining word or a follow-up opener ("trs kalo ...", "Terus ...", "Kalau ...")."""
    return bool(_lead_join().match(part) or _opens_follow_up().match(part))


def asked_texts(
    question: str, parts: Sequence[str], message_plan: QueryPlan, aliases: Any, acts: Any = None
) -> list[str]:
    """The text each part is answered from (:func:`part_texts`)."""
    return [asked for _own, asked in part_texts(question, parts, message_plan, aliases, acts)]


def part_texts(
    question: str, parts: Sequence[str], message_plan: QueryPlan, aliases: Any, acts: Any = None
) -> list[tuple[str, str]]:
    """Per part: the question it asks on its own, and the text it is answered from.

    The text answered is the story, a borrowed topic and the names of the case the earlier parts told, the
    message's date when the part names none, then the part.  A part that names only another topic
    ("Kalau PPh 23?") asks the question before it again: that question, told as the case, goes before it,
    and is part of what the part asks on its own (:func:`unaddressed` judges the answer on it).
    """
    story = story_sentences(question)
    story_text = " ".join(story)
    story_topic = topic_words(understand(story_text, aliases=aliases, catalog=acts)) if story else ""
    plans = [understand(p, aliases=aliases, catalog=acts) for p in parts]
    topics = [topic_words(plan) or names_levy(p) for plan, p in zip(plans, parts, strict=True)]
    names = [case_names(p, t) for p, t in zip(parts, topics, strict=True)]
    span = message_plan.as_of_span
    date_phrase = question[span[0] : span[1]].strip() if span else ""
    frames: list[str | None] = []  # the question a part asks, None for a follow-up (it asks an earlier one)
    out = []
    for i, part in enumerate(parts):
        context = list(story)
        # "trus utk kantor pusat kodenya apa?": the joining word ties the part to the one before; it names
        # nothing a passage must contain
        text = _lead_join().sub("", _part_label().sub("", part)) or part
        own = text
        before = next((j for j in range(i - 1, -1, -1) if frames[j] is not None), None)
        borrowed: list[str] = []
        if (
            before is not None
            and len(tokenize(part)) <= FOLLOW_UP_WORDS
            and _opens_follow_up().match(part)
            and follow_up_of(part, plans[i], frames[before] or "")
        ):
            # "sanksi terlambat lapor SPT Masa PPN? Kalau PPh 21?": the question before, told as the case,
            # then the part (a passage that states the rule for both taxes answers it); a part that names its
            # own date ("... kalau Mei 2022?") asks it on that date, not also on the one before
            asked_before = frames[before] or ""
            if plans[i].as_of is not None:
                asked_before = _without_date(asked_before, aliases, acts)
            case = _statement(asked_before)
            context.append(case)
            own = f"{case} {text}"
            frames.append(None)
        else:
            frames.append(text)
            told, told_topic = story_text, story_topic
            bare_join = bool(story) and not any(topics) and not story_topic and joins(part)
            # a story that names no topic (a text the asker pasted below the question) tells no case either:
            # "if yes, what's the percentage?" points back to the ask before it
            if before is not None and (((not story or not story_topic) and refers_back(part)) or bare_join):
                # "Jika PKP menjual inventaris kantor bekas, bagaimana perlakuannya? Apakah penjualan
                # tersebut wajib dibuatkan faktur?": the ask before, told as the case, says what "tersebut"
                # is.  A message that tells its case in a story of its own gives every part that case
                # already ("PT A lends to PT B ... Is the interest taxed? If so, at what rate?"): repeating
                # the ask before only adds its words to the search.  But a story that names no topic tells no
                # case either: a part that joins the ask before and names no topic, when no ask names one
                # ("SPT tahunan badan deadline nya kapan? kalo telat lapor dendanya brp? bos nanya nih"), is
                # about that ask's case
                case = _statement(frames[before] or "")
                context.append(case)
                told = f"{story_text} {case}"
                told_topic = topic_words(understand(told, aliases=aliases, catalog=acts))
            if not topics[i] and not told_topic:
                earlier = [j for j in range(i - 1, -1, -1) if topics[j]] or [
                    j for j in range(i + 1, len(parts)) if topics[j]
                ]
                if earlier:
                    borrowed.append(topics[earlier[0]])
            # the case the earlier parts told by name ("biaya jasa SNR ke SNL ...? SNL potong PPh 23 ga?"); a
            # name that is a reviewed term ("NITKU", "NPWP") is a topic: it goes only to a part without one
            said = f"{told} {part} {' '.join(borrowed)}"
            borrowed += [
                n
                for j in range(i)
                for n in names[j]
                if not re.search(rf"\b{re.escape(n)}\b", said) and not (topics[i] and _is_term(n, plans[j]))
            ]
        if borrowed:
            context.append(" ".join(dict.fromkeys(borrowed)) + ".")
        text = " ".join([*context, text])
        # the message's date is the part's unless the part names its own ("masa nov 2024 ...? trs kalo masa
        # jan 2025 masih sama?": the second part asks about January 2025)
        if date_phrase and date_phrase not in text and plans[i].as_of is None:
            text = f"{date_phrase}. {text}"
        out.append((own, text))
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


#: the escalation reasons of a part that a clarifying question of another part is asked before
_WAITS_FOR_FACTS = frozenset({"low_confidence", "no_source"})
#: the reasons an open part may have while the message is still answered (its first question is): no source
#: was found for it, or it is not a tax question.  Low confidence (a doubtful quote shown, a ticket opened at
#: once), advice, a protected determination and a clarifying question still decide the message's status.
#: Measured (session 28): counting low confidence here too answered one more real-set message right and one
#: more blind message that should be declined
OPEN_WHILE_ANSWERED = frozenset({"no_source", "out_of_scope", "personal_data"})

#: which open part's escalation the message takes, most binding first: a part asking to approve a scheme
#: or a determination only the tax team makes must reach them (the turn opens that ticket by itself) even
#: when an earlier part merely found no source, which is only offered
_REASON_ORDER = {
    "answer_failed": 0,  # a fault: nothing was verified, the tax team gets the evidence
    "advice": 0,
    "protected_determination": 0,
    "low_confidence": 1,
    "no_source": 2,
    "out_of_scope": 3,
    "personal_data": 3,
}


def _binding(r: PartAnswer) -> tuple[int, int, int]:
    """How binding an open part's escalation is (lowest first): its reason, then offered before not, then
    the part's position; a part with no escalation (a clarification) comes last."""
    esc = r.answer.escalation
    if esc is None:
        return (len(_REASON_ORDER) + 1, 1, r.index)
    return (_REASON_ORDER.get(esc.reason, len(_REASON_ORDER)), 0 if esc.offered else 1, r.index)


def stays_answered(records: Sequence[PartAnswer]) -> bool:
    """Whether a message with open parts is still answered: its first question is answered from a source,
    and every open part found no source or asks no tax question (:data:`OPEN_WHILE_ANSWERED`).

    The first question of a message states what the asker needs; the later ones narrow it or add to it
    ("... kena PPh 26? Bagaimana cara menghitung gross-up-nya?", "... apakah enforcement-nya ketat?").  When
    that need is answered, an open later part is a gap to name (its own line, a note, a ticket offered for
    it), not a reason to present the whole reply as a decline.  When the first question is open, the
    message is what that part is (the answered follow-ups are still shown)."""
    if not records or records[0].status != "answered":
        return False
    return all(
        r.status == "answered"
        or (
            r.status in ("abstained", "escalated")
            and r.answer.escalation is not None
            and r.answer.escalation.reason in OPEN_WHILE_ANSWERED
        )
        for r in records
    )


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
    chosen = min(open_parts, key=_binding, default=None)
    asking = next((r for r in open_parts if r.status == "clarify"), None)
    if asking is not None and all(
        r.answer.escalation is None or r.answer.escalation.reason in _WAITS_FOR_FACTS for r in open_parts
    ):
        # a fact of the case the rule depends on is asked first: the parts told by the same story that no
        # source settled (low confidence, no source) may turn on it too, and a ticket opened without it
        # would have to ask it again; advice, protected determinations and out-of-scope parts still go on
        chosen = asking
    status = chosen.status if chosen is not None else "answered"
    escalation = chosen.answer.escalation if chosen is not None else None
    if chosen is not None and stays_answered(records):
        # the first question is answered from a source and the open ones found none (or are not tax
        # questions): the message is answered, each open part saying so on its own line; the tax team is
        # offered (or sent) the first open part that can go to them, the ticket naming the open parts
        status = "answered"
        offered = next(
            (r for r in open_parts if r.answer.escalation is not None and r.answer.escalation.offered), None
        )
        escalation = offered.answer.escalation if offered is not None else None
    lead = next((r for r in records if r.answer.claims), records[0])
    warnings = [w for r in records for w in r.answer.warnings]
    # the open parts the tax team can take (an out-of-scope part says on its own line that it is not theirs)
    for_team = [r for r in open_parts if r.answer.escalation is None or r.answer.escalation.offered]
    if answered and for_team:
        open_numbers = [str(r.index) for r in for_team]
        last = " dan " if language != "en" else " and "
        which = (
            last.join([", ".join(open_numbers[:-1]), open_numbers[-1]])
            if open_numbers[1:]
            else open_numbers[0]
        )
        note = "open_parts" if len(open_numbers) == 1 else "open_parts_many"
        warnings.append(_note(note, language, i=which, n=len(records)))
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
