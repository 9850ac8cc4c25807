"""The one lexicon: every word list of query understanding, retrieval and answering.

Loaded once from ``kb/data/lexicon.yaml`` (a draft, unreviewed file: see its header) and validated: a
malformed file fails loudly with the file name and the key, instead of silently searching with an empty
list.  Nothing else in dasar keeps word lists in code.

* :func:`stopwords` -- function words (Indonesian + English), never topic terms;
* :func:`language_hints` -- domain words that mark a question's language;
* :func:`frame_words` -- words that ask for a definition, not what it is about;
* :func:`generic_words` -- question words that say nothing about the topic ("tarif", "berapa", ...);
* :func:`policy_words` -- phrases that mean the asker wants the company's internal policy;
* :func:`law_topics` -- per base law (KUP, PPN, PPh), the words of its topics, to place a "Pasal n"
  written without a law (:mod:`kb.query`), and the Pasal that set its administrative sanctions;
* :func:`asks_penalty` -- whether a question asks what the sanction is;
* :func:`en_id` -- English question word -> Indonesian words used by the sources;
* :func:`law_words` -- everyday Indonesian question word -> the words the regulations write for it ("lewat"
  -> "melebihi"), for concept coverage;
* :func:`search_words` -- an everyday phrase for a thing -> the law's own name of it ("fasilitas karyawan" ->
  "natura", "kenikmatan"), searched too (:mod:`kb.query` adds them like an alias expansion);
* :func:`ask_words` -- interrogatives that make a sentence of a message its question;
* :func:`message_words` -- how a chat message strings its asks together (joining words, yes/no tags,
  ending particles, follow-up openers);
* :func:`not_terms` -- capitalised tokens that are never a specific term the sources must contain (IDR, USD);
* :func:`question_kind` -- what a question asks (a rate, a deadline, an amount, a period, a sanction,
  confirmation of what it states, something other than the rate), as one compiled pattern per kind;
* :func:`question_object` -- the objects a question can name (rent of land/buildings, construction, a
  payee without NPWP, a payment to a bank), question side only;
* :func:`special_regime` -- the special regimes a question can name (the 0% export rate, a rate derived
  from the tax rate, the no-NPWP surcharge), question side only;
* :func:`passage_cue` -- words that mark what a unit of a regulation states (a rate or obligation, an
  exception);
* :func:`procedures` -- the tax procedures a rule can be bound to (a correction of the return, an audit, an
  objection), read the same way in a question and in a passage.

The five pattern sections (``question_kinds``, ``question_objects``, ``special_regimes``, ``passage_cues``,
``procedures``)
map a name to ``patterns`` -- regular-expression alternatives joined with ``|`` in order and compiled once,
case-insensitively -- and ``seen_in``, the eval items an entry was written while reading.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kb.errors import KbError

DEFAULT_LEXICON_PATH = Path(__file__).with_name("data") / "lexicon.yaml"


#: The word lists of ``message_words`` (see :func:`message_words`).
MESSAGE_WORDS = (
    "join",
    "ask_tags",
    "tail_particles",
    "follow_up_openers",
    "lead_joins",
    "plea_words",
    "refers_back",
    "vocatives",
    "leave_to_ask",
    "check_tags",
    "counter_openers",
    "greetings",
    "company_forms",
    "choice_words",
    "choice_negations",
    "not_policy",
    "part_labels",
    "duration_units",
)


class LexiconError(KbError):
    """The lexicon file is missing or malformed; the message names the file and the key."""


@dataclass(frozen=True)
class LawTopic:
    law: str  # canonical key of the base law ("UU 6/1983")
    name: str  # what users call it ("KUP")
    words: tuple[str, ...]
    #: its Pasal that set administrative sanctions (UU KUP's 7, 8, 9, 13, 14): candidates of a question asking
    #: the sanction, whatever tax it names
    sanction_pasal: tuple[str, ...] = ()
    #: its Pasal that sets the tax's general rate (UU PPN's 7): a candidate of a question asking the rate of
    #: the tax the topic is named after, whatever it is charged on ("ppn impor berapa?")
    rate_pasal: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lexicon:
    stopwords_id: frozenset[str]
    stopwords_en: frozenset[str]
    hints_id: frozenset[str]
    hints_en: frozenset[str]
    frame_words: frozenset[str]
    generic_words: frozenset[str]
    policy_words: tuple[str, ...]
    law_topics: tuple[LawTopic, ...]
    en_id: Mapping[str, tuple[str, ...]]
    status: str
    ask_words: frozenset[str] = frozenset()
    term_ends: frozenset[str] = frozenset()
    #: verbs that name no act of their own ("dilakukan"): their subject is the act (``light_verbs``)
    light_verbs: frozenset[str] = frozenset()
    #: words that head a month name in a date of the case ("bulan Agustus"): no topic there (``month_heads``)
    month_heads: frozenset[str] = frozenset()
    #: the acts' names of taxes made of everyday words ("pajak pertambahan nilai"): a word inside one is no
    #: mention of the thing (``tax_names``)
    tax_names: tuple[str, ...] = ()
    #: two-word phrases that open with a term end yet belong to the term ("subjek pajak *dalam negeri*")
    term_compounds: frozenset[tuple[str, str]] = frozenset()
    no_subject_words: frozenset[str] = frozenset()
    question_kinds: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    question_objects: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    special_regimes: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    passage_cues: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    procedures: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: levies an act gives a chapter of its own, unknown to the alias dictionary (``chapter_levies``)
    chapter_levies: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: the procedures a procedure's rules name as their subject (``procedures.<name>.concerns``)
    procedure_concerns: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: capitalised tokens that are never a term the knowledge base must contain (currency codes: "IDR 350
    #: million" is an amount, not a topic)
    not_terms: frozenset[str] = frozenset()
    #: words naming a transaction, its document or its parties ("transaksi", "invoice", "vendor"): in a rate
    #: question about a named tax, a passage about that tax covers them (``case_words``)
    case_words: frozenset[str] = frozenset()
    #: interrogatives after which a question names what it asks ("Bagaimana verifikasi ...", "What mark-up
    #: ..."): the first topic word after one is the question's focus (``focus_openers``)
    focus_openers: frozenset[str] = frozenset()
    #: words that may stand between such an interrogative and the focus without being it ("cara")
    focus_skip: frozenset[str] = frozenset()
    #: words asking the bound of what follows them ("batas omzet", "maksimal pembayaran"): the passage stating
    #: the bound must name that thing (``limit_heads``)
    limit_heads: frozenset[str] = frozenset()
    #: words between such a noun and the thing bounded ("batas *maksimal* pembayaran") (``limit_qualifiers``)
    limit_qualifiers: frozenset[str] = frozenset()
    #: chat spelling -> the formal word ("brp" -> "berapa"), for rules written in formal Indonesian
    chat_spellings: Mapping[str, str] = field(default_factory=dict)
    #: how a chat message strings its asks together (``message_words.<name>``: join, ask_tags,
    #: tail_particles, follow_up_openers, lead_joins)
    message_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: everyday Indonesian question word -> the words the regulations write for it (``law_words``)
    law_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: everyday phrase (its tokens joined by one space) -> the law's words for the thing, searched too
    #: (``search_words``)
    search_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: how amounts are written (``amounts``, read by kb/amounts.py): currency words, percent words, and the
    #: scale words of each register ("formal", "chat", "english") -> the power of ten they stand for
    amount_currency: frozenset[str] = frozenset()
    percent_words: frozenset[str] = frozenset()
    amount_scales: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    path: str = ""  # the file it was read from (error messages)


def _words(path: Path, data: Mapping[str, Any], *keys: str) -> list[str]:
    node: Any = data
    for k in keys:
        if not isinstance(node, Mapping) or k not in node:
            raise LexiconError(f"{path}: missing key {'.'.join(keys)}")
        node = node[k]
    if not isinstance(node, list) or not all(isinstance(w, str) and w.strip() for w in node):
        raise LexiconError(f"{path}: {'.'.join(keys)} must be a list of non-empty strings")
    return [str(w) for w in node]


def _optional_words(path: Path, data: Mapping[str, Any], *keys: str) -> list[str]:
    """A word list that a lexicon may leave out (an older or a custom file): empty when absent."""
    node: Any = data
    for k in keys[:-1]:
        node = node.get(k) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping) or keys[-1] not in node:
        return []
    return _words(path, data, *keys)


def _compounds(path: Path, phrases: list[str]) -> frozenset[tuple[str, str]]:
    """``term_compounds`` as word pairs: :func:`kb.query.defined_term` reads a term end with its next word."""
    pairs = [tuple(p.lower().split()) for p in phrases]
    bad = [p for p, pair in zip(phrases, pairs, strict=True) if len(pair) != 2]
    if bad:
        raise LexiconError(f"{path}: term_compounds must be two-word phrases, not {bad[0]!r}")
    return frozenset((a, b) for a, b in pairs)


def _spellings(path: Path, data: Mapping[str, Any]) -> dict[str, str]:
    node = data.get("chat_spellings") or {}
    if not isinstance(node, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and k.strip() and v.strip() for k, v in node.items()
    ):
        raise LexiconError(f"{path}: chat_spellings must map a chat spelling to a formal word")
    return {str(k).lower(): str(v) for k, v in node.items()}


def _concerns(path: Path, procedures: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """``procedures.<name>.concerns``: other procedures, by name, that the procedure's rules are about.
    ``procedures`` is the section :func:`_patterns` has validated (a mapping of mappings)."""
    names = set(procedures)
    out: dict[str, frozenset[str]] = {}
    for name, entry in procedures.items():
        concerns = entry.get("concerns", [])
        if not isinstance(concerns, list) or not all(isinstance(c, str) and c in names for c in concerns):
            known = ", ".join(sorted(names))
            key = f"procedures.{name}.concerns"
            raise LexiconError(f"{path}: {key} must be a list of procedure names ({known})")
        if concerns:
            out[name] = frozenset(concerns)
    return out


def _patterns(path: Path, data: Mapping[str, Any], section: str) -> dict[str, re.Pattern[str]]:
    """``section``: name -> {patterns, seen_in}, each name's alternatives joined with ``|`` and compiled."""
    node = data.get(section)
    if not isinstance(node, Mapping) or not node:
        raise LexiconError(f"{path}: missing key {section} (a mapping of name -> patterns, seen_in)")
    out: dict[str, re.Pattern[str]] = {}
    for name, entry in node.items():
        key = f"{section}.{name}"
        if not isinstance(name, str) or not isinstance(entry, Mapping):
            raise LexiconError(f"{path}: {key} must be a mapping with patterns and seen_in")
        seen = entry.get("seen_in")
        if not isinstance(seen, list) or not all(isinstance(x, str) for x in seen):
            raise LexiconError(f"{path}: {key}.seen_in must be a list of eval item ids ([] when none)")
        alternatives = entry.get("patterns")
        # an empty list would join to "", which matches every question
        if (
            not isinstance(alternatives, list)
            or not alternatives
            or not all(isinstance(a, str) and a.strip() for a in alternatives)
        ):
            raise LexiconError(f"{path}: {key}.patterns must be a non-empty list of regular expressions")
        for i, alt in enumerate(alternatives):
            try:
                re.compile(alt, re.IGNORECASE)
            except re.error as exc:
                raise LexiconError(
                    f"{path}: {key}.patterns #{i + 1} is not a valid regular expression ({exc}): {alt!r}"
                ) from exc
        try:
            out[name] = re.compile("|".join(alternatives), re.IGNORECASE)
        except re.error as exc:
            raise LexiconError(f"{path}: {key}.patterns do not compile together ({exc})") from exc
    return out


def _word_map(file: Path, data: Mapping[str, Any], key: str, what: str) -> dict[str, tuple[str, ...]]:
    """``key``: {<what> -> the words the acts use}, keys lower-cased with their spaces normalised; a key
    listed twice (in another case or spacing) is an error naming it."""
    node = data.get(key) or {}
    if not isinstance(node, Mapping):
        raise LexiconError(f"{file}: {key} must map {what} to the words the acts use")
    out: dict[str, tuple[str, ...]] = {}
    for raw in node:
        if not isinstance(raw, str) or not raw.strip():
            raise LexiconError(f"{file}: {key} keys must be non-empty")
        norm = " ".join(raw.lower().split())
        if norm in out:
            raise LexiconError(f"{file}: {key} entry {raw!r} is listed twice")
        out[norm] = tuple(_words(file, node, raw))
    return out


#: the registers of ``amounts.scales``
SCALE_REGISTERS = ("formal", "chat", "english")


def _scales(file: Path, data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """``amounts.scales``: register -> {scale word -> power of ten}; a register may be left out."""
    amounts = data.get("amounts") or {}
    if not isinstance(amounts, Mapping):
        raise LexiconError(f"{file}: amounts must be a mapping (currency, percent, scales)")
    node = amounts.get("scales") or {}
    if not isinstance(node, Mapping) or set(node) - set(SCALE_REGISTERS):
        raise LexiconError(f"{file}: amounts.scales must map {', '.join(SCALE_REGISTERS)} to scale words")
    out: dict[str, dict[str, int]] = {}
    for register in SCALE_REGISTERS:
        words = node.get(register) or {}
        if not isinstance(words, Mapping) or not all(
            isinstance(k, str) and k.strip() and isinstance(v, int) and 0 < v <= 15 for k, v in words.items()
        ):
            raise LexiconError(f"{file}: amounts.scales.{register} must map a word to a power of ten (1-15)")
        out[register] = {str(k).lower(): int(v) for k, v in words.items()}
    return out


def load(path: str | Path | None = None) -> Lexicon:
    """Read and validate a lexicon file (default ``kb/data/lexicon.yaml``)."""
    file = Path(path) if path is not None else DEFAULT_LEXICON_PATH
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise LexiconError(f"{file}: cannot read the lexicon ({exc})") from exc
    if not isinstance(data, Mapping) or data.get("version") != 1:
        raise LexiconError(f"{file}: expected a mapping with version: 1")
    topics = []
    for i, t in enumerate(data.get("law_topics") or []):
        if (
            not isinstance(t, Mapping)
            or not isinstance(t.get("law"), str)
            or not isinstance(t.get("name"), str)
        ):
            raise LexiconError(f"{file}: law_topics #{i + 1} needs law, name and words")
        pasal_lists = {}
        for key in ("sanction_pasal", "rate_pasal"):
            listed = t.get(key) or []
            if not isinstance(listed, list) or not all(isinstance(p, str) and p for p in listed):
                raise LexiconError(
                    f"{file}: law_topics #{i + 1} {key} must be a list of Pasal numbers as text"
                )
            pasal_lists[key] = tuple(listed)
        topics.append(LawTopic(t["law"], t["name"], tuple(_words(file, t, "words")), **pasal_lists))
    pairs: dict[str, tuple[str, ...]] = {}
    for i, e in enumerate(data.get("en_id") or []):
        if not isinstance(e, Mapping) or not isinstance(e.get("en"), str):
            raise LexiconError(f"{file}: en_id #{i + 1} needs en and id")
        if e["en"] in pairs:
            raise LexiconError(f"{file}: en_id word {e['en']!r} is listed twice")
        pairs[e["en"]] = tuple(_words(file, e, "id"))
    law = _word_map(file, data, "law_words", "a question word")
    search = _word_map(file, data, "search_words", "an everyday phrase")
    return Lexicon(
        # chat spellings of the same function words ("yg", "brp") and chat particles count as function words
        stopwords_id=_with_question_particle(
            _words(file, data, "stopwords", "id") + _optional_words(file, data, "stopwords", "id_chat")
        ),
        stopwords_en=frozenset(_words(file, data, "stopwords", "en")),
        hints_id=frozenset(_words(file, data, "language_hints", "id")),
        hints_en=frozenset(_words(file, data, "language_hints", "en")),
        frame_words=frozenset(_words(file, data, "frame_words")),
        term_ends=frozenset(_optional_words(file, data, "term_ends")),
        term_compounds=_compounds(file, _optional_words(file, data, "term_compounds")),
        no_subject_words=frozenset(_optional_words(file, data, "no_subject_words")),
        light_verbs=frozenset(_optional_words(file, data, "light_verbs")),
        month_heads=frozenset(_optional_words(file, data, "month_heads")),
        tax_names=tuple(w.lower() for w in _optional_words(file, data, "tax_names")),
        generic_words=frozenset(_words(file, data, "generic_words")),
        policy_words=tuple(_words(file, data, "policy_words")),
        law_topics=tuple(topics),
        en_id=pairs,
        status=str(data.get("status", "draft")),
        ask_words=frozenset(_words(file, data, "ask_words", "id"))
        | frozenset(_words(file, data, "ask_words", "en")),
        question_kinds=_patterns(file, data, "question_kinds"),
        question_objects=_patterns(file, data, "question_objects"),
        special_regimes=_patterns(file, data, "special_regimes"),
        passage_cues=_patterns(file, data, "passage_cues"),
        procedures=_patterns(file, data, "procedures"),
        chapter_levies=_patterns(file, data, "chapter_levies"),
        procedure_concerns=_concerns(file, data["procedures"]),
        not_terms=frozenset(_words(file, data, "not_terms")),
        case_words=frozenset(w.lower() for w in _optional_words(file, data, "case_words")),
        focus_openers=frozenset(w.lower() for w in _optional_words(file, data, "focus_openers")),
        focus_skip=frozenset(w.lower() for w in _optional_words(file, data, "focus_skip")),
        limit_heads=frozenset(w.lower() for w in _optional_words(file, data, "limit_heads")),
        limit_qualifiers=frozenset(w.lower() for w in _optional_words(file, data, "limit_qualifiers")),
        chat_spellings=_spellings(file, data),
        message_words={
            name: tuple(_optional_words(file, data, "message_words", name)) for name in MESSAGE_WORDS
        },
        law_words=law,
        search_words=search,
        amount_currency=frozenset(w.lower() for w in _optional_words(file, data, "amounts", "currency")),
        percent_words=frozenset(w.lower() for w in _optional_words(file, data, "amounts", "percent")),
        amount_scales=_scales(file, data),
        path=str(file),
    )


@functools.lru_cache(maxsize=1)
def default() -> Lexicon:
    """The packaged lexicon, loaded and validated once per process."""
    return load()


def _with_question_particle(words: list[str]) -> frozenset[str]:
    """``words`` and each with the question particle -kah ("bolehkah", "bisakah", "perlukah"): a function
    word asked with it is still one ("Bolehkah kompensasi kerugian ...?" asked passages to contain
    "bolehkah", session 61).  A content word keeps its -kah form a topic ("wajibkah" asks a duty)."""
    return frozenset((*words, *(f"{w}kah" for w in words if len(w) >= 3 and not w.endswith("kah"))))


def stopwords() -> frozenset[str]:
    lex = default()
    return lex.stopwords_id | lex.stopwords_en


def language_hints() -> tuple[frozenset[str], frozenset[str]]:
    """``(indonesian, english)`` hint words."""
    lex = default()
    return lex.hints_id, lex.hints_en


def frame_words() -> frozenset[str]:
    return default().frame_words


def no_subject_words() -> frozenset[str]:
    """Words that carry no subject for a clarifying question ("Deadline-nya kapan?" names nothing)."""
    return default().no_subject_words


def term_ends() -> frozenset[str]:
    """Words that end the term a definition question asks about ("Masa Pajak *menurut* UU KUP")."""
    return default().term_ends


def term_compounds() -> frozenset[tuple[str, str]]:
    """Two-word phrases that open with a term end yet belong to the term ("Wajib Pajak *dalam negeri*")."""
    return default().term_compounds


def light_verbs() -> frozenset[str]:
    """Verbs that name no act of their own ("dilakukan", "melaksanakan"): the act is their subject's."""
    return default().light_verbs


def tax_names() -> tuple[str, ...]:
    """The acts' names of taxes made of everyday words ("pajak penjualan atas barang mewah")."""
    return default().tax_names


def month_heads() -> frozenset[str]:
    """Words that head a month name in a date ("*bulan* Agustus"): a date of the case, no topic."""
    return default().month_heads


def generic_words() -> frozenset[str]:
    """Topic-free question words, including the frame words and the light verbs."""
    lex = default()
    return lex.generic_words | lex.frame_words | lex.light_verbs


def policy_words() -> tuple[str, ...]:
    return default().policy_words


@functools.cache
def _policy_pattern() -> re.Pattern[str]:
    phrases = sorted({w.strip().lower() for w in policy_words() if w.strip()}, key=lambda w: (-len(w), w))
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in phrases) + r")(?!\w)")


def names_policy(text: str) -> bool:
    """Whether ``text`` asks for the company's own policy ("SOP", "memo", "kebijakan internal").

    Whole words only: "memo" is not in "memotong" (to withhold), nor "sop" in "sopir"; a substring test read
    every "lupa memotong PPh 23" as a question about company documents and searched only those.  An activity
    the company holds in house ("honor narasumber utk training internal") is no company document either
    (lexicon ``message_words.not_policy``): only company passages were searched, none was found, and the
    PPh 21 base the law states went unanswered.
    """
    lowered = text.lower()
    events = _not_policy()
    if events is not None:
        lowered = events.sub(" ", lowered)
    return bool(_policy_pattern().search(lowered))


@functools.lru_cache(maxsize=1)
def _not_policy() -> re.Pattern[str] | None:
    events = message_words("not_policy")
    return re.compile(rf"(?<!\w)(?:{_phrases(events)})(?!\w)") if events else None


def law_topics() -> tuple[LawTopic, ...]:
    return default().law_topics


def ask_words() -> frozenset[str]:
    """Interrogatives and request formulas (both languages) that make a sentence a question."""
    return default().ask_words


def message_words(name: str) -> tuple[str, ...]:
    """How a chat message strings its asks together: ``join`` -- words joining two asks ("dan", "terus");
    ``ask_tags`` -- the tag closing a yes/no ask ("ga", "belum"); ``tail_particles`` -- particles after the
    ask word ("sih", "ya"); ``follow_up_openers`` -- how a follow-up asking the question before again opens
    ("kalau", "gimana"); ``lead_joins`` -- a joining word a part opens with ("terus", "lalu");
    ``plea_words`` -- the words of a request for help that asks nothing ("dibantu", "penjelasannya");
    ``refers_back`` -- words by which an ask points back to the ask before it ("tersebut", "if yes");
    ``vocatives`` -- how a message addresses a person ("pak", "bu"); ``leave_to_ask`` -- asking leave to ask
    ("ijin bertanya"); ``check_tags`` -- the tag asking whether what was said is right ("bener ga");
    ``counter_openers`` -- how a sentence opens that argues with the ask before it ("bukannya sudah 11%?");
    ``greetings`` -- a greeting ("selamat siang", "pagi"); ``company_forms`` -- the legal forms a company's
    name follows ("PT", "CV"); ``choice_words`` -- the word between the answers a question offers ("atau");
    ``choice_negations`` -- a word after it that makes the ask a yes/no one ("atau tidak"); ``not_policy`` --
    phrases in which a policy word names an activity ("training internal"), not a company document;
    ``part_labels`` -- the label a numbered part opens with ("Question 1 :", "Pertanyaan 2.");
    ``duration_units`` -- the unit of a duration glued to its number ("45hari", "12bln")."""
    if name not in MESSAGE_WORDS:
        raise LexiconError(f"unknown message_words list {name!r} (known: {', '.join(MESSAGE_WORDS)})")
    return default().message_words.get(name, ())


def case_words() -> frozenset[str]:
    """Words that name a transaction, its document or its parties, not what a rate is charged on."""
    return default().case_words


def not_terms() -> frozenset[str]:
    """Capitalised tokens a question may write that are no specific term (currency codes such as IDR)."""
    return default().not_terms


@functools.lru_cache(maxsize=1)
def _spelling_pattern() -> re.Pattern[str] | None:
    words = sorted(default().chat_spellings, key=lambda w: (-len(w), w))
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.I) if words else None


def formal_spelling(text: str) -> str:
    """``text`` with chat spellings written out ("pph brp utk sewa?" -> "pph berapa untuk sewa?"), so rules
    written in formal Indonesian (scope, clarification) read a Slack message as they read a formal one."""
    pattern = _spelling_pattern()
    if pattern is None:
        return text
    spellings = default().chat_spellings
    return pattern.sub(lambda m: spellings[m.group(1).lower()], text)


def _phrases(words: tuple[str, ...]) -> str:
    """An alternation of ``words`` (phrases: any whitespace between their words), longest first."""
    return "|".join(r"\s+".join(map(re.escape, w.split())) for w in sorted(words, key=len, reverse=True))


@functools.lru_cache(maxsize=1)
def _addressing() -> re.Pattern[str] | None:
    vocatives = message_words("vocatives")
    leave = message_words("leave_to_ask")
    alternatives = []
    if vocatives:
        # vocatives in any case, then one capitalised word that ends its clause: "pak Pri,", "Dear Mr Tan,"
        words = "|".join(re.escape(v) for v in sorted(vocatives, key=len, reverse=True))
        alternatives.append(rf"\b(?:(?i:{words})\.?\s+)+(?P<name>[A-Z][a-z]+)\b(?=\s*(?:[,.!?;:]|$))")
    if leave:
        alternatives.append(rf"\b(?i:{_phrases(leave)})\b")
    return re.compile("|".join(alternatives)) if alternatives else None


def addressing_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` addresses a person by name or asks leave to ask ("ijin bertanya pak Pri, ...").

    Why: forum and Slack questions open and close with these ("Terima kasih Bu Ani"); the name and the leave
    formula name no topic, yet the search matched them and concept coverage asked passages to contain
    "pri" and "ijin".  A vocative's span includes it and the name (not every vocative is a stopword: "Mr",
    "bro"); a name is one capitalised word that ends its clause, so an acronym ("Pak, PPN ..."), a tax written
    in title case ("Bu Ppn atas jasa ...") or a phrase ("Ibu Rumah Tangga perlu ...") is no name."""
    pattern = _addressing()
    if pattern is None:
        return []
    return [m.span() for m in pattern.finditer(text)]


@functools.lru_cache(maxsize=1)
def _frame() -> re.Pattern[str] | None:
    alternatives = []
    greetings = message_words("greetings")
    if greetings:
        # a greeting opens the message (after "halo"), or is a "selamat ..." formula anywhere: "lembur malam"
        # names the night shift, "Siang rekan2," greets
        alternatives.append(rf"^\W*(?:(?i:halo|hallo|hai|hi)\W+)?(?i:{_phrases(greetings)})\b")
        alternatives.append(r"\b(?i:selamat\s+(?:pagi|siang|sore|malam))\b")
    forms = message_words("company_forms")
    if forms:
        # the name after a legal form, in title case or a placeholder ("PT Maju Jaya", "CV. Sinar", "PT X");
        # the form itself stays (a PT is a corporate taxpayer), and so do an acronym ("PT PMA" is a kind of
        # company) and a bank or insurer ("PT Bank ...": interest paid to a bank has its own rule)
        name = r"(?!Bank\b|Asuransi\b)(?:[A-Z][a-z]+|[A-Z]|ABC|XYZ)(?:\s+[A-Z][a-z]+){0,2}"
        alternatives.append(rf"\b(?:{_phrases(forms)})\.?\s+(?P<name>{name})\b")
    return re.compile("|".join(alternatives)) if alternatives else None


def frame_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` greets or names a company ("Siang rekan2, kita bayar konsultan PT Maju 50jt. PPh 23
    brp?").

    Why: "siang" and "maju" were concepts a passage had to contain, so UU PPh Pasal 23 ayat (1), which
    states the consultant rate, covered a third of the question and the answer said no source had it.
    These words tell the frame of the case, never what a rule must state.  "bulan ini" / "tahun lalu" are
    left as they are: "insentif ... tahun ini" asks what applies now."""
    pattern = _frame()
    if pattern is None:
        return []
    spans = []
    for m in pattern.finditer(text):
        if not m.group("name"):
            spans.append(m.span())
        elif m.group("name").split()[0].lower() not in stopwords():  # "berbentuk PT. Kami ..." names none
            spans.append(m.span("name"))
    return spans


@functools.lru_cache(maxsize=1)
def _check_tag() -> re.Pattern[str] | None:
    tags = message_words("check_tags")
    if not tags:
        return None
    phrases = _phrases(tags)
    tails = "|".join(map(re.escape, message_words("tail_particles")))
    tail = rf"(?:\s+(?:{tails}))*" if tails else ""
    # only where it closes its clause: "benar ga?" checks; "faktur salah ga bisa diganti?" asks of a mistake
    return re.compile(rf"\b(?:{phrases}){tail}(?=\s*(?:[?!.,;:]|$))", re.I)


def check_tag_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` asks whether what it just said is right ("masih 10%, bener ga?", "..., is that right?").

    Why: the tag names no topic, yet "salah"/"bener"/"right" were concepts a passage had to cover, and a
    rate provision that answered the check ("Tarif ... adalah 10%") fell under the coverage floor.  Only a
    tag that closes its clause counts, so a question about a mistake ("NPWP-nya salah gimana?") keeps it."""
    pattern = _check_tag()
    return [] if pattern is None else [m.span() for m in pattern.finditer(text)]


#: words whose root itself ends in "nya" ("bertanya" is ber+tanya, not berta+nya; "mempunya-i", "hanya")
NYA_ROOTS = ("tanya", "punya", "hanya")


def without_enclitic(word: str) -> str:
    """``word`` without the enclitic -nya ("sanksinya" -> "sanksi", "tarifnya" -> "tarif").

    Why: the index matches whole words, and the acts write the bare word while chat glues "-nya" (its, the)
    to the noun asked about: "sanksinya?" matched only the one passage that writes "sanksi-sanksinya".  At
    least three letters stay ("PPNnya" -> "ppn"), and a root that ends in -nya ("bertanya", "punya", "hanya")
    is kept whole.  :func:`plain_question` detaches the enclitic by the same rule."""
    if word.endswith(NYA_ROOTS) or len(word) <= 5 or not word.endswith("nya"):
        return word
    return word[:-3]


#: a word ending in -nya; :func:`without_enclitic` decides whether the ending is the enclitic
_ENDS_NYA = re.compile(r"\b[^\W\d_]+nya\b", re.I)
#: the enclitic written after a hyphen, as chat writes it after an abbreviation ("PPh-nya", "DPP-nya")
_HYPHEN_NYA = re.compile(r"\b([^\W_]+)-nya\b", re.I)
#: "due" after "how much" in one sentence names the sum owed, not a time ("How much stamp duty is due on a
#: receipt?" asks an amount; "When is it due?" a time): session 62, a probe of our own was answered "the
#: sources found do not state the deadline"
_HOW_MUCH_DUE = re.compile(r"(\bhow\s+much\b[^?.!;]*?)\bdue\b", re.I)


def _detach_nya(m: re.Match[str]) -> str:
    word = m.group(0)
    bare = without_enclitic(word.lower())
    return word if bare == word.lower() else f"{word[: len(bare)]} nya"


def plain_question(text: str) -> str:
    """``text`` as the question-kind rules (kb/data/lexicon.yaml ``question_kinds``) are written: chat
    spellings written out (:func:`formal_spelling`) and the enclitic -nya detached ("tarifnya brp?" ->
    "tarif nya berapa?", "PPh-nya berapa?" -> "PPh nya berapa?").  The rules say ``tarif`` and ``berapa``
    as whole words; without this "tarifnya brp?" asked no rate and "brp lama" no period, so the lead was not
    required to state either.  The sum "due" of "how much ... is due" is read as "payable", which asks no
    time (:data:`_HOW_MUCH_DUE`)."""
    text = _HOW_MUCH_DUE.sub(r"\1payable", formal_spelling(text))
    return _ENDS_NYA.sub(_detach_nya, _HYPHEN_NYA.sub(r"\1 nya", text))


def en_id() -> dict[str, tuple[str, ...]]:
    """English question word -> Indonesian words (draft table, see ``kb/data/lexicon.yaml``)."""
    return dict(default().en_id)


def law_words() -> dict[str, tuple[str, ...]]:
    """Everyday Indonesian question word -> the words the regulations write for the same thing ("omzet lewat
    4,8 M" is "peredaran bruto ... melebihi Rp4.800.000.000,00" in the law); used by concept coverage only."""
    return dict(default().law_words)


def search_words() -> dict[str, tuple[str, ...]]:
    """Everyday phrase -> the law's own words for the same thing, which the search adds ("inventaris kantor"
    is an "aktiva" in UU PPN Pasal 16D); unlike :func:`law_words` these are searched, not only covered."""
    return dict(default().search_words)


def _named(section: str, patterns: Mapping[str, re.Pattern[str]], name: str) -> re.Pattern[str]:
    if name not in patterns:
        raise LexiconError(f"{default().path}: missing key {section}.{name}")
    return patterns[name]


def question_kind(name: str) -> re.Pattern[str]:
    """What a question asks, compiled from ``question_kinds.<name>``: ``rate`` (it names a rate; its
    ``tax_then_berapa`` alternative, "PPh 22 berapa?", is also kb.retrieve's rate intent),
    ``other_than_rate`` (conditions, documents, procedure), ``rate_outright`` ("berapa", "what rate"),
    ``sanction``, ``deadline``, ``time_limit`` ("paling lambat"), ``amount`` ("berapa ...?"), ``threshold``
    ("kurang dari 75%"), ``period`` ("berapa lama"), ``confirm`` ("..., benar kan?"), ``withholding``,
    ``treaty``, ``paying``, ``filing``, ``when``, ``english_when`` ("when is it due?", not the conjunction),
    ``amount_outright`` ("berapa juta?"), ``domestic_party`` (a party in Indonesia: "dalam negeri", a PT or
    CV), ``permanent_establishment`` or ``counts_as_frame`` ("siapa yang termasuk/dianggap ...").  A name the
    file lacks raises :class:`LexiconError`."""
    return _named("question_kinds", default().question_kinds, name)


def question_object(name: str) -> re.Pattern[str]:
    """How a question names an object (``question_objects.<name>``: ``land_building_rent``, ``construction``,
    ``no_npwp``, ``paid_to_bank``, ``foreign_payee``); how a passage is about it is the answer layer's."""
    return _named("question_objects", default().question_objects, name)


def special_regime(name: str) -> re.Pattern[str]:
    """How a question names a special regime (``special_regimes.<name>``: ``export``, ``derived_rate``,
    ``no_npwp_surcharge``); a regime the question does not name never answers it."""
    return _named("special_regimes", default().special_regimes, name)


def passage_cue(name: str) -> re.Pattern[str]:
    """Words that mark what a unit of a regulation states (``passage_cues.<name>``: ``rule`` -- a rate or an
    obligation, ``exception`` -- an exception to the rule, ``pays`` / ``files`` -- the duty to pay a tax or to
    file a return, ``names_time`` / ``names_limit`` -- a word of time / a limit, date or moment in time,
    ``levy_vat`` / ``levy_income_tax`` -- the levy a clause is for, ``example_opener`` /
    ``example_heading`` -- where a worked example starts inside prose, ``payee_abroad`` -- the rule for a
    payee abroad, ``revokes`` -- a clause revoking acts, ``sets_base`` -- a tax base set as a share of the
    gross with no rate, ``charges_tax`` -- a unit that charges a tax)."""
    return _named("passage_cues", default().passage_cues, name)


def asks_penalty(text: str) -> bool:
    """The text asks what the sanction is: a sanction word (``question_kinds.penalty``: "sanksinya", "denda")
    or the interest a lateness costs (``question_kinds.late_interest``: "telat setor, kena bunga berapa?")."""
    return bool(question_kind("penalty").search(text) or question_kind("late_interest").search(text))


def procedure_concerns() -> Mapping[str, frozenset[str]]:
    """What each tax procedure's rules are about (``procedures.<name>.concerns``): an objection is raised
    against an assessment, so its rules name the assessment ("Keberatan harus diajukan dalam jangka waktu 3
    (tiga) bulan sejak tanggal dikirim surat ketetapan pajak") without being bound to another procedure."""
    return default().procedure_concerns


def chapter_levies() -> Mapping[str, re.Pattern[str]]:
    """Levies an act gives a chapter of its own and the alias dictionary knows no tax type for
    (``chapter_levies.<name>``: ``carbon``): a rule in such a chapter holds for that levy only."""
    return default().chapter_levies


def procedures() -> Mapping[str, re.Pattern[str]]:
    """The tax procedures a rule can be bound to (``procedures.<name>``: ``correction`` -- the taxpayer
    corrects a return, ``audit``, ``objection``, ``appeal``, ``review``, ``installment`` -- paying an
    assessment in instalments or later, ``disclosure`` -- disclosing an incorrect return during an audit,
    ``assessment`` -- an assessment the tax office issues (SKPKB), ``collection`` -- a warrant or seizure,
    ``investigation`` -- a criminal investigation),
    each as one pattern read in questions and passages alike."""
    return default().procedures
