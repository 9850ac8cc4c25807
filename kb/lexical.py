"""Lexical evidence: how much of the question a passage covers, and in what order -- the one rule.

BM25 over an OR query rewards a passage for repeating one rare term as much as for matching every
term of the question, and it is blind to word order.  Regulations are full of near-identical
passages (ayat (2) and ayat (4) of one Pasal share most of their words), so the passage that
answers is usually the one that covers *all* the question's concepts and repeats its phrases
("kategori tarif efektif bulanan", "Pajak Keluaran lebih besar daripada Pajak Masukan").

Concept coverage exists once, here: retrieval's re-rank features (:func:`evidence`), the answer
composer's relevance test and the answer confidence all use :func:`question_concepts` and
:func:`coverage`.

* a **concept** is one reviewed alias entry found in the question (any of its surface forms counts, so
  "VAT invoice" is covered by "faktur pajak"), or one content word of the question -- not a stopword,
  frame or generic word (``kb/data/lexicon.yaml``), not a number, not part of a named regulation or of
  the date phrase.  Words are compared by a light Indonesian/English stem ("pemotongannya" ~
  "pemotongan").  In an English question a word with an English->Indonesian entry of the lexicon is
  covered by its Indonesian forms too; one without counts only against English passages, unless it is
  an acronym as written (SNR, NITKU);
* ``coverage``: the share of the question's concepts the passage mentions;
* ``phrases``: adjacent content-word pairs of the question found adjacent in the passage, capped.

Features are computed from the passage's own text (an internal section keeps its "## Facts" heading
line), never from the retrieval prefix of document titles, which every passage of a document shares.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from kb import lexicon
from kb.dates import MONTH_PATTERN, MONTHS
from kb.query import FRAME_WORDS, SEARCH_WORD_SOURCE, STOPWORDS, QueryPlan, english_bases, tokenize

_PHRASE_CAP = 3

Concept = frozenset[tuple[str, ...]]
#: Marker phrase of a concept that only English passages can mention.
EN_ONLY: tuple[str, ...] = ("\x00en",)


def stem(tok: str) -> str:
    """A light suffix strip ("-nya", then "-kan", "-an", "-s") so inflected forms meet.

    The suffix is stripped after the enclitic too: "pengenaannya" meets the act's "pengenaan" only as
    "pengena", the stem of both ("dasar pengenaannya?" had covered no "Dasar pengenaan")."""
    tok = lexicon.without_enclitic(tok)  # a root ending in -nya stays whole there
    for suf in ("kan", "an", "s"):
        if len(tok) > len(suf) + 3 and tok.endswith(suf):
            return tok[: -len(suf)]
    return tok


_VOWELS = frozenset("aeiou")


def _active_form(root: str) -> str:
    """The meN- (active) form of a verb root: the nasal takes the root's first sound ("aju" -> "mengaju",
    "potong" -> "memotong", "setor" -> "menyetor", "terbit" -> "menerbit", "kredit" -> "mengkredit")."""
    first, second = root[0], root[1:2]
    vowel_next = second in _VOWELS
    if root.startswith("per"):
        return "mem" + root  # "diperhitungkan" -> "memperhitungkan"
    if first in _VOWELS or first in "gh":
        return "meng" + root
    if first == "k":
        return "meng" + (root[1:] if vowel_next else root)
    if first == "p":
        return "mem" + (root[1:] if vowel_next else root)
    if first in "bfv":
        return "mem" + root
    if first == "t":
        return "men" + (root[1:] if vowel_next else root)
    if first == "s" and vowel_next:
        return "meny" + root[1:]
    if first in "dcjz":
        return "men" + root
    return "me" + root


def active_roots(form: str) -> tuple[str, ...]:
    """The roots a meN- form can come from ("mengaju" -> "aju" or "kaju": the nasal may replace a k)."""
    for prefix, dropped in (("meny", "s"), ("meng", "k"), ("mem", "p"), ("men", "t")):
        if form.startswith(prefix):
            rest = form[len(prefix) :]
            if prefix == "meny":
                return (dropped + rest,)
            return (rest, dropped + rest) if rest[:1] in _VOWELS else (rest,)
    return (form[2:],) if form.startswith("me") else ()


#: a peN-an noun, which may name an act ("pengajuan" the filing of, "pelunasan" the paying off of)
PEN_NOUN = r"pe[a-z]{4,}an"
_PEN_NOUN = re.compile(PEN_NOUN)


def is_pen_noun(word: str) -> bool:
    """Whether ``word`` has the peN-an shape of an act's noun ("pelunasan", "pengajuan")."""
    return bool(_PEN_NOUN.fullmatch(word))


def pen_nouns(text: str) -> list[str]:
    """The text's peN-an nouns, in order ("pengajuan", "pembayaran", "penyampaian")."""
    return [t for t in tokenize(text) if is_pen_noun(t)]


def verbs_of_pen_noun(noun: str) -> tuple[str, ...]:
    """The active and passive stems of the verb a peN-an noun names the act of ("pengajuan" -> "mengaju",
    "diaju"; "penyetoran" -> "menyetor", "disetor"), as :func:`stem` reads the verbs: peN- is meN- with its
    nasal, so the active form is the noun's with "me" for "pe", and its roots give the passive."""
    active = "me" + noun[2:-2]
    return (active, *(f"di{root}" for root in active_roots(active) if len(root) >= 3))


def voice_forms(tok: str) -> tuple[str, ...]:
    """The passive of an active -kan verb, words as written: "mengajukan" -> "diajukan"
    (:func:`voice_partners` gives both voices as stems, for concept coverage).

    The acts state a rule in the passive, and the index matches whole words: "Berapa lama batas waktu
    mengajukan keberatan?" had UU KUP Pasal 25 ayat (3), "Keberatan harus diajukan dalam jangka waktu 3 (tiga)
    bulan", below the ten passages read (session 71, a probe of our own). Retrieval searches these words
    (:func:`kb.query.fts_query`); a form that is no word of the acts ("dikajukan") matches nothing. Not the
    active of a passive the asker wrote: measured, "digunakan" searched as "menggunakan", a word of nearly
    every act, and moved two answers of the outside set."""
    if not tok.endswith("kan") or len(tok) < 8 or not tok.startswith("me"):
        return ()
    return tuple(f"di{root}kan" for root in active_roots(tok[:-3]) if len(root) >= 3)


def voice_partners(tok: str) -> tuple[tuple[str], ...]:
    """The other voice of a -kan verb, as stems: "mengajukan" ~ "diajukan", "disampaikan" ~ "menyampaikan".

    The acts state a rule in the passive ("Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan") that
    askers write in the active ("batas waktu mengajukan keberatan"), and the other way round; the same verb
    in the other voice is the same topic.  Only -kan verbs, whose prefix is surely a verb's ("menteri" or
    "direktur" is not); a partner that is no word of the acts matches nothing."""
    if not tok.endswith("kan") or len(tok) < 8:
        return ()
    base = tok[:-3]
    if base.startswith("di") and len(base) >= 5:
        return ((stem(_active_form(base[2:]) + "kan"),),)
    return tuple((stem(form),) for form in voice_forms(tok))


def passive_forms(tok: str) -> tuple[str, ...]:
    """The root and the act's noun of a di- passive, words as written: "disetor" -> "setor", "penyetoran".

    The acts, the company's tables and askers name one act by its passive, its root or its noun: the closing
    calendar says "Setor paling lambat: tanggal 15 bulan berikutnya" for "Kapan PPh 21 karyawan harus
    disetor?" (session 70, a probe of our own; the index matches whole words, and the row ranked beyond 60).
    Retrieval searches these words (:func:`kb.query.fts_query`); concept coverage does not count them:
    measured, a passage's "Penerimaan" in its title then covered "diterima", and a right lead of our check
    half was lost. Not a -kan or -i verb (its root is often another word: "disampaikan" -> "sampai"), nor a
    noun's passives (those of "pembayaran", "pemotongan" are in nearly every passage); a non-verb's would-be
    root ("dividen" -> "viden") is no word of the acts and matches nothing."""
    if not tok.startswith("di") or len(tok) < 7 or not tok.isalpha() or tok.endswith(("kan", "i")):
        return ()
    root = tok[2:]
    active = _active_form(root)
    return (root, active[3:] + "an" if active.startswith("memper") else "pe" + active[2:] + "an")


#: an English plural by its spelling: "-ies" (companies, penalties), "-es" after a sibilant (taxes, branches,
#: businesses), else a plain "-s" (services) -- not "-ss", "-us", "-is" (business, status, basis)
_EN_IES = re.compile(r"(?<=[^aeiou])ies$")
_EN_ES = re.compile(r"(?:ss|x|z|ch|sh)es$")
_EN_S = re.compile(r"(?<![su'])(?<!i)s$")


def english_singular(word: str) -> str:
    """The singular an English question word is listed under ("subsidiaries" -> "subsidiary", "taxes" ->
    "tax", "invoices" -> "invoice").  The English-to-Indonesian pairs and the topic-free words are singular,
    and the light :func:`stem` reads "subsidiaries" as "subsidiarie", which meets nothing (session 40)."""
    if len(word) <= 4:
        return word
    if _EN_IES.search(word):
        return word[:-3] + "y"
    if _EN_ES.search(word):
        return word[:-2]
    return word[:-1] if _EN_S.search(word) else word


def _is_acronym(tok: str, question: str) -> bool:
    """An all-caps word as written in the question (SNR, NITKU): a name, the same in both languages."""
    return bool(re.search(rf"\b{re.escape(tok.upper())}\b", question)) and len(tok) >= 2


_SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+|\n+")
#: an amount written the chat way ("6jt", "350rb", "4,8m", "15k"): a fact of the case, never a topic word a
#: passage must contain (a percentage stays: "10%" is matched against the rate a rule states)
_AMOUNT = re.compile(r"\d+(?:[.,]\d+)?(?:jt|juta|rb|ribu|k|m|mio|miliar|milyar|t|triliun|an)")
#: an amount with its currency written on ("Rp7.500.000" tokenizes to "rp7", "500", "000"; "IDR350"): a fact
#: of the case like the chat amounts above; the digits after it are skipped as numbers already
_CURRENCY_AMOUNT = re.compile(r"(?:rp|idr|usd)\d+")
#: a reduplicated plural written the chat way ("bukti2" = "bukti-bukti", "dokumen2"): the word itself
_REDUPLICATED = re.compile(r"([a-z]{3,})2")
#: "waktu itu" / "saat itu" (at that time) points back to the date the message told; it names no topic
_THAT_TIME = re.compile(
    r"\b(?:pada\s+)?(?:waktu|saat|ketika|kala)\s+itu\b|\bat\s+that\s+time\b|\bback\s+then\b", re.I
)
#: "tetap" as the adverb "still" before what still applies ("apakah tetap harus bayar?", "tetap kena PPh?"):
#: no topic, but it matched every "bentuk usaha tetap"; "pegawai tetep" (permanent) keeps it (session 38)
_STILL = re.compile(
    r"\b(?:tetap|tetep)\b(?=\s+(?:harus|hrs|wajib|kena|dikenakan|dikenai|bayar|membayar|dipotong|bisa|bs|boleh"
    r"|berlaku|perlu|dihitung|lapor|dilaporkan|setor|disetor)\b)|(?<=\bapakah\s)(?:tetap|tetep)\b"
    r"|(?<=\bapa\s)(?:tetap|tetep)\b|(?<=\bmasih\s)(?:tetap|tetep)\b",
    re.I,
)
#: "berapa lama" / "how long" asks a period (kb/data/lexicon.yaml ``question_kinds.period``): "lama" is the
#: frame of the ask, like "tarif" in "berapa tarif", not a word the rule must contain ("disimpan selama
#: 10 tahun"); so is the unit of "sampai berapa tahun" / "how many years" (session 38): the rule states the
#: number of its years ("paling lama: a. 7 (tujuh) Tahun Pajak"), a definition of "Tahun Pajak" only the word
_PERIOD_FRAME = re.compile(
    r"\b(?:berapa|brp|brapa)\s+(?:lama|tahun|thn|bulan|bln)(?:nya)?\b|\bhow\s+(?:long|many\s+(?:years|months))\b",
    re.I,
)
#: "bagaimana caranya" / "gmn caranya" (how) asks a manner: "cara" is the frame of the ask, not a word the
#: rule must contain (session 36; the acts' "tata cara" titles share it with every procedure)
_MANNER_FRAME = re.compile(r"\b(?:bagaimana|gimana|gmn|gmana|bgmn|bgm)\s+cara(?:nya)?\b", re.I)
#: "siapa (saja) yang termasuk / dianggap ..." asks who or what counts as a term: the verb is the frame of the
#: ask, answered by the term's definition, not a word the rule must contain (kb/data/lexicon.yaml
#: ``question_kinds.counts_as_frame``).  "blm termasuk PPN" is a fact of the case and stays
_COUNTS_AS_FRAME = lexicon.question_kind("counts_as_frame")
#: "kapan WNA dianggap ...", "when does a company count as ...": the status verb (each pattern's one captured
#: group) is the frame of the ask; the words before it name whom the status is asked for and stay
#: (kb/data/lexicon.yaml ``question_kinds.status_frame``)
_STATUS_FRAME = lexicon.question_kind("status_frame")


def _without_status_verb(m: re.Match[str]) -> str:
    """The match of a status frame up to its verb: "kapan WNA dianggap" -> "kapan WNA ", so the subject
    stays a topic and the verb, which every rule using it would share, is none."""
    verb = next(i for i in range(1, (m.re.groups or 0) + 1) if m.group(i) is not None)
    return f"{m.string[m.start() : m.start(verb)]} "


#: a month name is a date of the case ("faktur bulan Juni", "skrg udh September"), not a topic word a passage
#: must contain -- the date phrase with a year is dropped already (the plan's as-of span)
_MONTH_NAMES = frozenset(MONTHS)


#: a list marker: "1)" / "1." / "a)" written after a space, a colon or a question mark, or at the start of a
#: line ("honor narasumber Rp4jt: 1) bisa tunai? 2) DPP PPh 21 nya berapa?").  "ayat (2)" is no marker (its
#: bracket opens before the number), nor "Rp6.000" (a digit precedes), nor "a." (too many abbreviations).
_MARKER = re.compile(r"(?:^|(?<=[\s:;?!]))(?:(\d{1,2})[.)]|([a-h])\))\s+(?=\S)", re.IGNORECASE)
#: a marker cut off by a sentence break ("... berapa? 1. x" splits after "1.")
_LONE_MARKER = re.compile(r"(?:\d{1,2}|[a-h])[.)]", re.IGNORECASE)
#: a bullet at the start of a line ("- boleh dari kas kecil?", "• tarifnya?")
_BULLET = re.compile(r"^(?:[-*\u2022\u2023\u25aa\u25cf\u2013]|\d{1,2}[.)]|[a-h]\))\s+", re.IGNORECASE)


def _list_items(text: str) -> list[str]:
    """``text`` cut before the markers of a list it numbers or letters in order ("1) ... 2) ...", "a) ...
    b) ..."), the markers dropped.  Only a run that starts at 1 (or a) and counts up cuts: a lone "21." in
    "PPh 21. Terus ..." or "2)" after a sentence is no list."""
    chain: list[re.Match[str]] = []
    for m in _MARKER.finditer(text):
        value = int(m.group(1)) if m.group(1) else ord(m.group(2).lower()) - ord("a") + 1
        kind = "n" if m.group(1) else "a"
        if chain:
            last = chain[-1]
            last_kind = "n" if last.group(1) else "a"
            last_value = int(last.group(1)) if last.group(1) else ord(last.group(2).lower()) - ord("a") + 1
            if kind == last_kind and value == last_value + 1:
                chain.append(m)
                continue
        if value == 1 and len(chain) < 2:
            chain = [m]
    if len(chain) < 2:
        return [text]
    pieces = [text[: chain[0].start()]]
    for m, nxt in itertools.zip_longest(chain, chain[1:]):
        pieces.append(text[m.end() : nxt.start() if nxt is not None else len(text)])
    return pieces


def sentences(text: str) -> list[str]:
    """The sentences of a message, stripped: split after ".", "?" or "!", at line breaks, and before the
    items of a numbered or lettered list (:func:`_list_items`); a list's markers and a line's bullet are
    dropped (they are no words of the ask)."""
    out = []
    for piece in _list_items(text):
        for p in _SENTENCE_BREAK.split(piece):
            p = _BULLET.sub("", p.strip()).strip() if p else ""
            if p and not _LONE_MARKER.fullmatch(p):
                out.append(p)
    return out


@functools.lru_cache(maxsize=1)
def _duration() -> re.Pattern[str]:
    """A duration glued to its number ("45hari", "12bln"; lexicon ``message_words.duration_units``): a fact of
    the case, as a chat amount is (the digits split off "45 hari" already)."""
    units = "|".join(re.escape(w) for w in lexicon.message_words("duration_units"))
    return re.compile(rf"\d+(?:{units})")  # read with fullmatch: the order of the units does not matter


@functools.lru_cache(maxsize=1)
def _join() -> re.Pattern[str]:
    """A word that joins two asks in one sentence (lexicon ``message_words.join``: "PPh 21 nya berapa dan
    kapan disetor?", "boleh dikreditkan ga, terus fakturnya gimana?")."""
    words = "|".join(re.escape(w) for w in lexicon.message_words("join"))
    return re.compile(rf"\s*,?\s*\b(?:{words})\b\s+", re.IGNORECASE)


def _ask_tags() -> frozenset[str]:
    """The tag that closes a yes/no ask in chat ("boleh ga", "sudah belum"); an ask word at the end of a
    clause closes a question the same way ("berapa", "kapan", "gimana")."""
    return frozenset(lexicon.message_words("ask_tags"))


def _tail_particles() -> frozenset[str]:
    """Particles a chat ask ends on after its ask word ("berapa sih", "boleh ga ya")."""
    return frozenset(lexicon.message_words("tail_particles"))


def _chat_tokens(text: str) -> list[str]:
    """The tokens of ``text``, chat spellings read as the formal word ("brp" -> "berapa")."""
    spell = lexicon.default().chat_spellings
    return [spell.get(t, t) for t in tokenize(text)]


def _asks(sentence: str) -> bool:
    """A sentence asks when it has a "?", an Indonesian interrogative anywhere, or an English one first
    (:func:`kb.lexicon.ask_words`)."""
    words = lexicon.ask_words()
    toks = tokenize(sentence)
    if "?" in sentence or (toks and toks[0] in words):
        return True
    en = lexicon.default().stopwords_en
    return any(t in words and t not in en for t in toks)


def asks_in_words(text: str) -> bool:
    """Whether ``text`` asks in words, not by its "?" alone: an interrogative (an English one first), or a
    chat yes/no tag ("kena ga?").  "Atau perlu digali lagi ya mas/mba?" asks by its mark only."""
    toks = _chat_tokens(text)
    words = lexicon.ask_words()
    en = lexicon.default().stopwords_en
    if toks and toks[0] in words:
        return True
    return any((t in words and t not in en) or t in _ask_tags() for t in toks)


def _ends_an_ask(clause: str) -> bool:
    """The clause closes on an ask word or a yes/no tag ("... berapa", "... boleh ga ya")."""
    toks = _chat_tokens(clause)
    while toks and toks[-1] in _tail_particles():
        toks.pop()
    en = lexicon.default().stopwords_en
    return bool(toks) and (
        toks[-1] in _ask_tags() or (toks[-1] in lexicon.ask_words() and toks[-1] not in en)
    )


def _clauses(sentence: str) -> list[str]:
    """An asking sentence cut where a joining word ("dan", "terus", "sama" ...) follows a closed ask and
    an ask follows it ("tarifnya berapa dan kapan disetor?" asks two things; "apakah PPh 21 dan PPh 23
    ..." asks one: its "dan" follows no closed ask)."""
    out: list[str] = []
    rest = sentence
    while True:
        cut = None
        for m in _join().finditer(rest):
            left, right = rest[: m.start()], rest[m.end() :]
            if _ends_an_ask(left) and _asks(right) and content_words(right) and content_words(left):
                cut = m
                break
        if cut is None:
            out.append(rest)
            return out
        out.append(rest[: cut.start()].strip())
        rest = rest[cut.end() :].strip()


def content_words(text: str) -> int:
    """How many words of ``text`` name something: not stopwords, not topic-free words, three letters or
    more ("Mohon pencerahan." and "Gimana?" name nothing)."""
    generic = lexicon.generic_words()
    return sum(1 for t in tokenize(text) if t not in STOPWORDS and t not in generic and len(t) >= 3)


def asking_sentences(question: str) -> list[str]:
    """The sentences of a message that ask something, in order (empty for a message of one ask).

    A sentence asks when it has a "?", an Indonesian interrogative anywhere, or an English one first
    (:func:`kb.lexicon.ask_words`).  A sentence that joins two asks ("... berapa dan kapan disetor?") counts
    as two (:func:`_clauses`).
    """
    units: list[tuple[str, bool]] = []
    for s in sentences(question):
        # every clause of a cut sentence asks: the one before the joining word closes on an ask
        units += [(c, True) for c in _clauses(s)] if _asks(s) else [(s, False)]
    if len(units) < 2:
        return []
    return [u for u, asks in units if asks]


def story_sentences(question: str) -> list[str]:
    """The sentences of a message that ask nothing (the case it tells: "Kami membayar jasa konsultan ke PT
    A.", "honor narasumber Rp4jt:"), in order."""
    return [s for s in sentences(question) if not _asks(s)]


def is_plea(ask: str) -> bool:
    """A request for help that asks nothing of its own ("Mohon dibantu saran atau penjelasannya Pak/Bu.",
    "Please kindly advise."): besides stopwords, request formulas and topic-free words it writes only the
    words of a plea (lexicon ``message_words.plea_words``).  It is the courtesy around the questions, not one
    of them."""
    plea, ignored = _plea_words()
    words = [t for t in tokenize(ask) if t not in ignored and len(t) >= 3]
    return bool(words) and all(t in plea for t in words)


def plea_spans(question: str) -> list[tuple[int, int]]:
    """Where ``question`` writes a plea (:func:`is_plea`): the span of each such sentence.

    Why: "Mohon dibantu saran atau penjelasannya Pak / Bu." opens a forum question and asks nothing, yet its
    "penjelasan" was a search term that every elucidation ("Penjelasan ...") matched and "saran"/"dibantu"
    pulled passages of their own into the candidates.  Only a whole plea sentence is skipped: "masukan" and
    "informasi" elsewhere are words of the ask ("Pajak Masukan", "informasi keuangan")."""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for sentence in sentences(question):
        start = question.find(sentence, cursor)
        if start < 0:
            continue
        cursor = start + len(sentence)
        if is_plea(sentence):
            spans.append((start, cursor))
    return spans


@functools.lru_cache(maxsize=1)
def _plea_words() -> tuple[frozenset[str], frozenset[str]]:
    """The words of a plea, and the words a plea may write besides them (stopwords, request formulas,
    topic-free words): read from the lexicon once, not for every sentence of every message."""
    plea = frozenset(lexicon.message_words("plea_words"))
    return plea, STOPWORDS | lexicon.ask_words() | lexicon.generic_words()


#: "kapan" asking the moment of a state ("Kapan PPN terutang?"), not the limit of a duty ("kapan batas ...")
_ASKED_STATE = re.compile(
    r"\bkapan\s+(?:(?!batas|jatuh|paling|harus|wajib)\w+\s+){0,2}(?P<state>(?:ter|ber)[a-z]{4,})\b", re.I
)


@functools.lru_cache(maxsize=256)
def asked_state(question: str) -> str | None:
    """The ter-/ber- word whose moment a "kapan" question asks ("terutang"), None when it asks none.

    Why: "Kapan PPN terutang?" asks when the tax becomes owed, which UU PPN Pasal 11 states ("Terutangnya
    pajak terjadi pada saat: a. penyerahan ..."); PP 49/2022 Pasal 32 ayat (5), the month to pay a tax owed
    after an exemption lapses, shares its words, and its time limit led (session 60, a probe of our own).
    The state is the asked act (bot.answer.extractive: a limit binding another act, the payment, does not
    answer it)."""
    m = _ASKED_STATE.search(lexicon.plain_question(question))
    return m.group("state").lower() if m else None


def ask_text(question: str) -> str:
    """The sentences of a message that ask something; the whole message when none or all of them do.

    A message often tells the case before it asks ("PT A owns 45% of PT B, which is still developing ... my
    question: is PPh due on the interest, and at what rate?"): the story gives facts, the ask says what a
    passage must state.  A plea ("Mohon dibantu saran atau penjelasannya.", :func:`is_plea`) opens with a
    request formula yet asks nothing: its "dibantu", "saran", "penjelasan" were concepts a passage had to
    cover.
    """
    chosen = [s for s in asking_sentences(question) if not is_plea(s)]
    return " ".join(chosen) if chosen and len(chosen) < len(sentences(question)) else question


def question_parts(question: str) -> list[str]:
    """The separate questions of a multi-part message: its asking sentences when two or more ask.

    "Is royalty paid abroad subject to PPh 26? How is it withheld? How do we gross it up?" asks three
    things; a passage rarely covers the words of all three, so a message nothing answers as a whole is
    answered part by part (``bot.answer.pipeline``).
    """
    # "Mohon pencerahan." / "Gimana?" ask nothing of their own
    asks = [a for a in asking_sentences(question) if content_words(a) >= 2]
    return asks if len(asks) >= 2 else []


#: an Indonesian active verb (meN-: "menghitung", "membayar", "melaporkan"): the action a question asks about
_VERB = re.compile(r"me(?:m|n|l|r|w|y)[a-z]{3,}")


def focus_word(question: str, names: frozenset[str] = frozenset()) -> str | None:
    """The word naming what the question asks about, or None when it does not say.

    It is the first topic word after an interrogative that opens an asking sentence and is followed by the
    thing asked (kb/data/lexicon.yaml ``focus_openers``: "Bagaimana *verifikasi* perubahan rekening ...",
    "What *mark-up* ..."), past stopwords, generic words, ``focus_skip`` ("cara") and active verbs.  A party
    or document of the case (``case_words``: "Gimana vendor kami ...") or one of ``names`` (the asking
    company's codes) tells who the case is about, not what is asked: None; so is a message of several asks.
    The result is the form :func:`question_concepts` gives the word (matched as a stem of its concept).
    """
    lex = lexicon.default()
    openers = lex.focus_openers
    if not openers:
        return None
    if len(asking_sentences(question)) > 1:
        return None  # a message of several asks: what one asks need not be in the passage answering another
    skip = STOPWORDS | lexicon.generic_words() | lex.focus_skip
    for sentence in sentences(ask_text(question)):
        toks = [lex.chat_spellings.get(t, t) for t in tokenize(sentence)]
        # the interrogative opens the sentence ("Apa sanksi ..."); after a noun it asks which one ("Syarat apa
        # yang ..."), and "apa yang ..." asks for a clause, not a thing
        start = next((i for i, t in enumerate(toks) if t not in STOPWORDS or t in openers), None)
        if start is None or toks[start] not in openers or toks[start + 1 : start + 2] == ["yang"]:
            continue
        for nxt in toks[start + 1 :]:
            if nxt in skip or _VERB.match(nxt):
                continue  # "Bagaimana cara menghitung sanksi ...": the action asked is no thing
            word = _question_word(nxt, skip)
            if word is None:
                continue
            # ... also with the enclitic ("vendornya", "penerimanya": the one of this case)
            if {nxt, word, lexicon.without_enclitic(word)} & lex.case_words or nxt.upper() in names:
                return None
            return word
    return None


@functools.lru_cache(maxsize=256)  # asked of every candidate lead of a question (bot.answer.extractive)
def limited_word(question: str) -> str | None:
    """The word naming what a limit question asks the bound of ("Berapa batas *omzet* pengusaha kecil?"), or
    None when the question asks no bound of a named thing (kb/data/lexicon.yaml ``limit_heads``).

    It is the first topic word after the first limit head, past qualifiers ("batas maksimal"), stopwords and
    generic words; "batas waktu" asks a deadline (None).  A message of several asks names none: what one asks
    need not be in the passage answering another.  The result is the form :func:`question_concepts` gives it.
    """
    lex = lexicon.default()
    heads = lex.limit_heads
    if not heads or len(asking_sentences(question)) > 1:
        return None
    skip = STOPWORDS | lexicon.generic_words() | heads | lex.limit_qualifiers
    toks = [lex.chat_spellings.get(t, t) for t in tokenize(ask_text(question))]
    start = next((i for i, t in enumerate(toks) if t in heads), None)
    if start is None:
        return None
    for tok in toks[start + 1 :]:
        if tok == "waktu":
            return None
        if tok in skip:
            continue
        return _question_word(tok, skip)
    return None


def _question_word(tok: str, function_words: frozenset[str]) -> str | None:
    """The word a question token stands for in concept coverage, or None when it names no topic.

    A token is read as its formal spelling ("skrg" -> "sekarang", kb/data/lexicon.yaml ``chat_spellings``): a
    function or generic word is one however it is written.  (Reading "tarifnya" as the generic "tarif" too was
    measured and not shipped: the blind set lost a right lead that the word "tarif" had picked.)
    The chat verb suffix -in ("dikreditin" = "dikreditkan", "bayarin") is dropped; the result is matched as
    a prefix of the passage's stems (:func:`_has`), so "dikredit" meets "dikreditkan".
    """
    spellings = lexicon.default().chat_spellings
    bare = formal = spellings.get(tok, tok)
    if tok in function_words or formal in function_words:
        return None
    # -nya on a chat spelling or a function word ("sblmnya" = "sebelumnya", "nilainya" keeps its topic)
    if len(tok) > 5 and tok.endswith("nya"):
        base = spellings.get(tok[:-3], tok[:-3])
        if base in function_words or base + "nya" in function_words:
            return None
    if (
        bare.isdigit()
        or _AMOUNT.fullmatch(bare)
        or _CURRENCY_AMOUNT.fullmatch(bare)
        or _duration().fullmatch(bare)
        or bare in _MONTH_NAMES
    ):
        return None
    if m := _REDUPLICATED.fullmatch(bare):
        bare = m.group(1)
        if bare in function_words:  # "masing2" = "masing-masing"
            return None
    if len(bare) > 6 and bare.endswith("in") and _CHAT_IN.search(bare):
        bare = bare[:-2]
    return bare if len(bare) >= 3 else None


#: a word that ends in the chat verb suffix -in: after a consonant ("dikreditin"), after i/u/e/o, where no
#: formal word ends so ("cariin", "ngajuin", "pakein"), and after "a" in a passive di- verb ("dikenain",
#: "disediain") -- never a root's own "-ain" ("bermain", "pemain", "kain")
_CHAT_IN = re.compile(r"(?:[^a]|^di\w*a)in$")


#: how far a choice's words reach: a clause ends at a punctuation mark, not at a decimal one
_CLAUSE_END = re.compile(r"[?!;:\n]|[.,](?!\d)")  # "1,75%" and "4.8" go on
#: the most words an offered answer has ("pas barang dikirim"); a longer clause after "atau" is another ask
_CHOICE_WORDS = 3


@functools.lru_cache(maxsize=1)
def _choice_word() -> re.Pattern[str] | None:
    """The word between offered answers (lexicon ``message_words.choice_words``), not the "atau" of
    "dan/atau"."""
    words = lexicon.message_words("choice_words")
    return re.compile(rf"(?<!/)\b(?:{'|'.join(map(re.escape, words))})\b", re.I) if words else None


def blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of the (non-overlapping) ``spans`` replaced by a space, so the words either side
    stay apart: a greeting, an addressed name or the answers a question offers cut out of what it asks."""
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return text


def choice_spans(text: str) -> list[tuple[int, int]]:
    """Where a question offers the answers to choose from, closing its ask ("DPP nya full 20jt ato 50%?",
    "pas terima DP atau pas barang dikirim?"; lexicon ``message_words.choice_words``).

    Why: a sentence that only offers answers ("full 10jt atau setengah?") was split off as a question of its
    own (:func:`bot.answer.parts.only_offers`), and alone it names nothing a passage states.  (Dropping the
    offered words from the concepts too was measured and left out: it answered one more question the blind
    set says should be declined.)  The offer after the choice word runs to the "?" or the end (at most three
    words besides particles); before it, as many words besides amounts.  The choice is the ask of its
    clause: a clause that asks with a word of its own ("Paling lama berapa bulan ... pengangsuran atau
    penundaan pembayaran?") asks about both.
    "... atau tidak?" asks yes or no and offers nothing; "dan/atau" is no choice."""
    choice = _choice_word()
    if choice is None:
        return []
    negations = set(lexicon.message_words("choice_negations"))
    asking = lexicon.ask_words()
    spans: list[tuple[int, int]] = []
    for m in choice.finditer(text):
        rest = text[m.end() :]
        stop = _CLAUSE_END.search(rest)
        if stop is not None and stop.group() != "?":
            continue  # the offer closes no ask
        right = list(re.finditer(r"\S+", rest[: stop.start() if stop else len(rest)]))
        offered = [t for t in right if t.group().lower() not in STOPWORDS]
        if not offered or len(offered) > _CHOICE_WORDS or offered[0].group().lower() in negations:
            continue
        head = text[: m.start()]
        clause_start = max((c.end() for c in _CLAUSE_END.finditer(head)), default=0)
        if set(tokenize(head[clause_start:])) & asking:
            continue  # "Paling lama berapa bulan ... pengangsuran atau penundaan?": the choice is the topic
        need, taken, start = len(offered), 0, m.start()
        for t in reversed(list(re.finditer(r"\S+", head[clause_start:]))):
            w = t.group().lower()
            if not (_AMOUNT.fullmatch(w) or w in STOPWORDS):
                if taken == need:
                    break
                taken += 1
            start = clause_start + t.start()
        if taken:
            end = m.end() + right[-1].end()
            if spans and start < spans[-1][1]:  # "1,5% atau 2,5% atau 3%?": one offer of three answers
                start = min(start, spans[-1][0])
                spans.pop()
            spans.append((start, end))
    return spans


#: a word heading a month's name (lexicon ``month_heads``: "bulan" of "bulan Agustus"), as group 1
_MONTH_HEAD = re.compile(
    rf"\b({'|'.join(sorted(map(re.escape, lexicon.month_heads())))})\s+(?:{MONTH_PATTERN})\b", re.IGNORECASE
)
#: two-word terms that open with a function word ("dalam negeri": lexicon ``term_compounds``)
_COMPOUNDS = lexicon.term_compounds()


#: negations that are part of a term's name ("penghasilan *tidak* kena pajak"): without them a reviewed phrase
#: names its opposite ("Penghasilan Kena Pajak"), covered by every worked example of a taxable income
_PHRASE_NEGATIONS = frozenset({"tidak", "tak", "bukan", "tanpa", "non"})


def _phrase_stems(text: str, *, negations: bool = True) -> tuple[str, ...]:
    """The stems a phrase is mentioned by: its words but stopwords, keeping a negation
    (:data:`_PHRASE_NEGATIONS`, unless ``negations`` is False) and the function word that opens a two-word
    term (lexicon ``term_compounds``: the "dalam" of "dalam negeri").

    Why the compound: without "dalam", "Wajib Pajak dalam negeri" was mentioned by "Wajib Pajak Luar Negeri"
    (its opposite) and "dalam negeri" by every passage on payees abroad (session 69, a probe of our own: "When
    do I become an Indonesian tax resident ...?" was led by the definition of a foreign taxpayer's certificate
    of domicile)."""
    tokens = tokenize(text)
    return tuple(
        stem(t)
        for t, nxt in itertools.zip_longest(tokens, tokens[1:], fillvalue="")
        if t not in STOPWORDS or (negations and t in _PHRASE_NEGATIONS) or (t, nxt) in _COMPOUNDS
    )


def question_concepts(
    plan: QueryPlan,
    question: str | None = None,
    *,
    keep_named_refs: bool = False,
    focus_ask: bool = False,
) -> list[Concept]:
    """Topic concepts of the question, each a set of alternative phrases (stem tuples).

    A concept is mentioned by a text when every stem of one of its phrases occurs in it: "PPN" is
    mentioned by "PPN" or by "Pajak Pertambahan Nilai" (alias expansion), but not by "pajak" alone.
    With ``focus_ask`` the plain words come only from the sentences that ask (:func:`ask_text`, when those
    name at least two topic words): the answer's relevance is judged on what is asked, not on the story told
    around it; aliases (named acts, tax types) count wherever they are written.
    """
    generic = lexicon.generic_words()
    en_id = lexicon.default().en_id
    # retrieval drops the words of a named document ("PMK 168/2023": routing already found it); the
    # composer keeps them, so a passage of another document does not cover the question as well
    ref_tokens = set() if keep_named_refs else {t for ref in plan.doc_refs for t in tokenize(ref)}
    concepts: list[Concept] = []
    covered: set[str] = set()
    text = question if question is not None else plan.text
    # "bulan Agustus (2023)": the head of a month's name is the case's date as the month is; blanked with the
    # as-of span, which may hold the month and leave its head (one pass: a blank shifts what follows it)
    dated = [plan.as_of_span] if plan.as_of_span else []
    heads = [m.span(1) for m in _MONTH_HEAD.finditer(text)]
    dated += [h for h in heads if not any(h[0] < end and start < h[1] for start, end in dated)]
    text = blank_spans(text, dated)
    text = blank_spans(text, lexicon.addressing_spans(text))  # "pak Pri", "ijin bertanya": no topic
    text = blank_spans(text, lexicon.frame_spans(text))  # "Siang rekan2,", "PT Maju": no topic
    text = _THAT_TIME.sub(" ", _STILL.sub(" ", text))
    text = _MANNER_FRAME.sub(" bagaimana ", _PERIOD_FRAME.sub(" berapa ", text))
    text = _STATUS_FRAME.sub(_without_status_verb, _COUNTS_AS_FRAME.sub(" siapa ", text))
    whole = text  # aliases count wherever written, and so does the negation before one
    if focus_ask:
        ask = ask_text(text)
        # the ask alone must name something ("Gimana?" does not); named acts and tax types (the expansions
        # below) count wherever they are written: they set the topic the ask is about
        if sum(1 for t in tokenize(ask) if t not in STOPWORDS and t not in generic and len(t) >= 3) >= 2:
            text = ask
    text = blank_spans(text, lexicon.check_tag_spans(text))  # "..., bener ga?": no topic
    by_term: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    #: the law's words of each everyday phrase expanded -> the first written term expanding to them
    by_law_words: dict[frozenset[tuple[str, ...]], tuple[str, ...]] = {}
    for exp in plan.expansions:
        toks = [t for t in tokenize(exp.term) if t not in STOPWORDS]
        if not toks:
            continue
        covered.update(toks)
        generic_only = all(t in generic for t in toks)
        # a search word written in generic words ("tarif pajak perusahaan") names its thing ("wajib pajak
        # badan") by the phrase; its words alone cover nothing
        named_by_phrase = generic_only and exp.source.startswith(SEARCH_WORD_SOURCE)
        if (generic_only and not named_by_phrase) or all(t in ref_tokens for t in toks):
            continue  # "tarif" / the alias of a named document ("PMK 168/2023")
        # the written term with a two-word term's function word ("dalam negeri"); its negations are the
        # question's own words, read as written
        term = _phrase_stems(exp.term, negations=False)
        if exp.source.startswith(SEARCH_WORD_SOURCE):
            # two everyday phrases for one thing of the law are one topic, as one written term is: "fasilitas
            # karyawan berupa rumah dinas" asks about one benefit in kind (session 71)
            first = by_law_words.setdefault(frozenset(_phrase_stems(a) for a in exp.added), term)
            if first != term and first in by_term:
                if not named_by_phrase:
                    by_term[first].add(term)
                continue
        # one concept per written term: an alias and a search word expanding the same words are one topic
        alts = by_term.setdefault(term, set() if named_by_phrase else {term})
        for added in exp.added:
            phrase = _phrase_stems(added)
            if phrase:
                alts.add(phrase)
        if plan.language == "en" and len(toks) == 1 and toks[0] in en_id:
            # an English word an alias expands ("withholding": "pemotongan pajak") is also written the way the
            # acts' verbs write it ("dipotong pajak", en_id): UU PPh Pasal 26 ayat (1) says "dipotong", never
            # "pemotongan", and covered no "withholding" (session 73, a probe of our own)
            alts.update(tuple(stem(t) for t in tokenize(w)) for w in en_id[toks[0]])
    # a class the asker rules out ("bukan karyawan") is the other class: its every form keeps the negation,
    # which the text must write beside it too ("Bukan Pegawai"; :func:`_only_negated_nouns`)
    whole_tokens = tokenize(whole)
    concepts.extend(
        frozenset(_negated_forms(alts, _noun_negation(whole_tokens, term))) for term, alts in by_term.items()
    )
    # a tax's name written out ("Pajak Penjualan atas Barang Mewah") is one topic and its words none of their
    # own: coverage reads the words of such a name in a passage as the name only (:func:`coverage`)
    for m in _TAX_NAME.finditer(text) if _TAX_NAME is not None else ():
        toks = tokenize(m.group(0))
        if not set(toks) <= covered:
            concepts.append(frozenset({_phrase_stems(m.group(0))}))
            covered.update(toks)
    english = plan.language == "en"
    function_words = STOPWORDS | generic  # stopwords and topic-free words, once per question (not per token)
    law_words = lexicon.default().law_words
    abroad = lexicon.question_object("foreign_payee")
    tokens = tokenize(text)
    for i, raw in enumerate(tokens):
        # the second word of a two-word term ("dalam negeri") is the term: "negeri" alone is "luar negeri" too
        compound = (tokens[i - 1], raw) if i and (tokens[i - 1], raw) in _COMPOUNDS else None
        word = _question_word(raw, function_words)
        if word is None or raw in covered or word in covered or raw in ref_tokens:
            continue
        covered.update((raw, word))
        tok = word
        if any((stem(tok),) in c for c in concepts):
            continue  # a word an alias already expands to is that alias's topic ("VAT (PPN)" is one topic)
        if english:
            one = tok if tok in en_id else english_singular(tok)
            one = one if one in en_id else next((b for b in english_bases(one) if b in en_id), one)
            if one in function_words:
                continue  # "taxes", "companies" are as topic-free as "tax", "company"
            tok = one if one in en_id else tok
            if tok not in en_id:
                if _is_acronym(tok, question if question is not None else plan.text):
                    concepts.append(frozenset({(stem(tok),)}))
                else:  # counts only against English passages (internal memos, policies)
                    concepts.append(frozenset({(stem(tok),), EN_ONLY}))
                continue
            alts = {(stem(tok),), *(tuple(stem(t) for t in tokenize(w)) for w in en_id[tok])}
            concepts.append(frozenset(alts))
            continue
        # an everyday word the regulations write otherwise ("lewat" ~ "melebihi"): either covers it, also
        # with the enclitic ("omzetnya", "ruginya")
        law = law_words.get(tok) or law_words.get(raw) or law_words.get(lexicon.without_enclitic(tok)) or ()
        if abroad.fullmatch(tok):
            law = (*law, "luar negeri")  # "perusahaan di Jepang": the acts write "Wajib Pajak luar negeri"
        forms = {(stem(tok),), *voice_partners(tok), *(tuple(stem(t) for t in tokenize(w)) for w in law)}
        if compound is not None:
            forms = {tuple(stem(t) for t in compound)}
        negation = tokens[i - 1] if i and tokens[i - 1] in _NOUN_NEGATIONS else None
        concepts.append(frozenset(_negated_forms(forms, negation)))
    return concepts


def _noun_negation(tokens: list[str], term: tuple[str, ...]) -> str | None:
    """The noun's negation ("bukan", "non") the tokens have right before the term, if any."""
    if not term or term[0] in _PHRASE_NEGATIONS:
        return None
    n = len(term)
    for i in range(1, len(tokens) - n + 1):
        if tokens[i - 1] in _NOUN_NEGATIONS and tuple(stem(t) for t in tokens[i : i + n]) == term:
            return tokens[i - 1]
    return None


def _negated_forms(forms: Iterable[tuple[str, ...]], negation: str | None) -> set[tuple[str, ...]]:
    """The forms with the negation before each (English-only markers and negated forms stay as they are)."""
    if negation is None:
        return set(forms)
    return {f if not f or f[0] in _PHRASE_NEGATIONS or f == EN_ONLY else (negation, *f) for f in forms}


@functools.lru_cache(maxsize=4096)  # ~20 searches of candidates; bounded memory in a long-running bot
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(tokenize(text))


@functools.lru_cache(maxsize=4096)
def _passage(text: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    tokens = _tokens(text)
    return frozenset(stem(t) for t in tokens), frozenset(itertools.pairwise(tokens))


def word_stems(text: str) -> frozenset[str]:
    """The stems of the text's tokens (read once per text, with :func:`word_pairs`)."""
    return _passage(text)[0]


def word_pairs(text: str) -> frozenset[tuple[str, str]]:
    """The text's adjacent tokens as written (read once per text, with :func:`word_stems`)."""
    return _passage(text)[1]


def content_pairs(text: str, skip: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """The text's adjacent tokens neither of which is in ``skip`` (stopwords, frame words, ...), in order,
    once each: the phrases of a question that a passage may repeat."""
    return tuple(dict.fromkeys((a, b) for a, b in itertools.pairwise(tokenize(text)) if not {a, b} & skip))


@functools.lru_cache(maxsize=4096)
def _numbered(text: str) -> frozenset[tuple[str, str]]:
    """The (stem, number) pairs of the text: each number with the word it counts ("Pasal 23", "PPh 21"),
    from the adjacent pairs :func:`_passage` already read."""
    return frozenset((stem(a), b) for a, b in word_pairs(text) if b[:1].isdigit())


@functools.lru_cache(maxsize=4096)
def _negated(text: str) -> frozenset[tuple[str, str]]:
    """The (negation, stem) pairs of the text: each negation with the word it negates ("tidak kawin")."""
    return frozenset((a, stem(b)) for a, b in word_pairs(text) if a in _PHRASE_NEGATIONS)


#: how many tokens before "Pasal <n>" a tax name's words may stand ("Pajak Penghasilan sebagaimana dimaksud
#: dalam Pasal 23" names PPh 23; a passage of another act numbered "Pasal 23" that says "pajak" and
#: "penghasilan" somewhere does not)
_NAME_WINDOW = 12


@functools.lru_cache(maxsize=4096)
def _article_contexts(text: str) -> dict[str, tuple[frozenset[str], ...]]:
    """For each number that follows "pasal" in the text, the stems of the tokens before each occurrence."""
    tokens = _tokens(text)
    out: dict[str, list[frozenset[str]]] = {}
    for i in range(1, len(tokens)):
        if tokens[i - 1] == "pasal" and tokens[i][:1].isdigit():
            before = tokens[max(0, i - 1 - _NAME_WINDOW) : i - 1]
            out.setdefault(tokens[i], []).append(frozenset(stem(t) for t in before))
    return {k: tuple(v) for k, v in out.items()}


def _named_article(phrase: tuple[str, ...], text: str) -> bool:
    """A phrase naming a tax by its article ("pajak penghasilan pasal 23", "pph pasal 23") is mentioned only
    where its words stand shortly before that "Pasal <n>" (:data:`_NAME_WINDOW`)."""
    for i in range(1, len(phrase) - 1):
        if phrase[i] == "pasal" and phrase[i + 1][:1].isdigit():
            words = frozenset(phrase[:i])
            contexts = _article_contexts(text).get(phrase[i + 1], ())
            return any(all(_has(w, ctx) for w in words) for ctx in contexts)
    return True


def _has(s: str, stems: frozenset[str]) -> bool:
    return s in stems or (len(s) >= 4 and any(x.startswith(s) and len(x) - len(s) <= 3 for x in stems))


def writes_stems(stems: Iterable[str], text: str) -> bool:
    """Every stem is written in the text, negated or not: whether a text names a case at all, before
    reading whether it names it as its own or to exclude it (:func:`coverage` does not count a class the
    text names only negated, :func:`_only_negated_nouns`)."""
    written = word_stems(text)
    return all(_has(s, written) for s in stems)


#: the negations of a noun ("bukan pegawai", "non-PKP"): the class they name is the other one
_NOUN_NEGATIONS = frozenset({"bukan", "non"})


@functools.lru_cache(maxsize=4096)
def _only_negated_nouns(text: str) -> frozenset[str]:
    """The stems the text writes only right after a noun's negation: "Honorarium Bukan Pegawai" names no
    employee (:data:`_NOUN_NEGATIONS`; "tidak dipotong" still mentions withholding: an exemption answers
    the question whether a thing is withheld)."""
    tokens = _tokens(text)
    negated = {stem(b) for a, b in itertools.pairwise(tokens) if a in _NOUN_NEGATIONS}
    if not negated:
        return frozenset()
    plain = {stem(b) for a, b in itertools.pairwise(("", *tokens)) if a not in _NOUN_NEGATIONS}
    return frozenset(negated - plain)


def _mentions(phrase: tuple[str, ...], stems: frozenset[str], text: str) -> bool:
    """Every stem of the phrase is in the text, and a number in it beside the word it follows there.

    Why the number's neighbour: "pajak penghasilan pasal 23" was mentioned by a definition of "Anggota POLRI"
    numbered "angka 23" in an act on "Pajak Penghasilan Pasal 21" (session 51, "SKB PPh 23 itu apa?", a probe
    of our own): a number means something only beside the word it counts.
    """
    if not all(_has(s, stems) for s in phrase if s):
        return False
    if any(s in _PHRASE_NEGATIONS for s in phrase[:-1]):
        # ... and a negation beside the word it negates: "tidak kawin" (single) is not mentioned by
        # "Penghasilan Tidak Kena Pajak ...: b. ... Wajib Pajak yang kawin" (session 53: "What is the
        # non-taxable income threshold for a single taxpayer?", a probe of our own, got the married addition)
        negated = _negated(text)
        pairs = [(s, phrase[i + 1]) for i, s in enumerate(phrase[:-1]) if s in _PHRASE_NEGATIONS]
        if not all(p in negated for p in pairs):
            return False
    if any(pair in _COMPOUNDS and pair not in word_pairs(text) for pair in itertools.pairwise(phrase)):
        return False  # ... and a two-word term as written: "dalam negeri" is not "dalam" and "negeri" apart
    if not all((phrase[i - 1], s) in _numbered(text) for i, s in enumerate(phrase) if i and s[:1].isdigit()):
        return False
    return _named_article(phrase, text)


def _tax_name_pattern() -> re.Pattern[str] | None:
    names = lexicon.tax_names()
    if not names:
        return None
    alts = sorted((r"\s+".join(re.escape(w) for w in name.split()) for name in names), key=len, reverse=True)
    return re.compile(rf"\b(?:{'|'.join(alts)})\b", re.IGNORECASE)


_TAX_NAME = _tax_name_pattern()


@functools.lru_cache(maxsize=4096)
def _stems_outside_tax_names(text: str) -> frozenset[str]:
    """The stems of the text's words outside the names of taxes (``tax_names`` of the lexicon): "Pajak
    Penjualan atas Barang Mewah" mentions no sale."""
    return word_stems(_TAX_NAME.sub(" ", text)) if _TAX_NAME is not None else word_stems(text)


#: the words the listed names of taxes open with ("pajak", "bea"), as stems
_TAX_HEADS = frozenset(stem(name.split()[0]) for name in lexicon.tax_names())


def _names_a_tax(phrase: tuple[str, ...]) -> bool:
    """A concept phrase that is (part of) a tax's name as the acts write it ("pajak pertambah nilai")."""
    return not _TAX_HEADS.isdisjoint(phrase)


def coverage(concepts: list[Concept], text: str, language: str | None = None) -> float:
    """Share of the question's concepts the text mentions (0.0 when there are none).

    ``language`` is the passage's; English-only concepts (untranslated English words) count only
    against English passages (``language`` None counts everything).
    """
    if language not in (None, "en"):
        concepts = [c for c in concepts if EN_ONLY not in c]
    if not concepts:
        return 0.0
    hit = sum(1 for c in concepts if any(_mentions(p, _stems_for(p, text), text) for p in c if p != EN_ONLY))
    return hit / len(concepts)


def _stems_for(phrase: tuple[str, ...], text: str) -> frozenset[str]:
    """The stems of the text that can mention ``phrase``: a word inside a tax's name mentions only that name
    ("Pajak Penjualan atas Barang Mewah" is no sale, :func:`_stems_outside_tax_names`), and a word the asker
    writes plainly is no class the text names only negated ("karyawan" is not mentioned by "PPh 21 atas
    Honorarium Bukan Pegawai", :func:`_only_negated_nouns`)."""
    return _own_stems(text, _names_a_tax(phrase), bool(_PHRASE_NEGATIONS.intersection(phrase)))


@functools.lru_cache(maxsize=4096)
def _own_stems(text: str, tax_name: bool, negated: bool) -> frozenset[str]:
    stems = word_stems(text) if tax_name else _stems_outside_tax_names(text)
    return stems if negated else stems - _only_negated_nouns(text)


@dataclass(frozen=True)
class Concepts:
    """The question side of :func:`evidence`, built once per search."""

    groups: tuple[Concept, ...]
    pairs: tuple[tuple[str, str], ...]  # adjacent content-word pairs of the question

    @classmethod
    def of(cls, plan: QueryPlan) -> Concepts:
        ref_tokens = {t for ref in plan.doc_refs for t in tokenize(ref)}
        pairs = content_pairs(plan.text, STOPWORDS | FRAME_WORDS | ref_tokens)
        return cls(tuple(question_concepts(plan)), pairs)


def evidence(concepts: Concepts, text: str, language: str | None = None) -> tuple[float, float]:
    """``(coverage, phrases)`` of one passage, each in [0, 1]."""
    cov = coverage(list(concepts.groups), text, language)
    if not concepts.pairs:
        return cov, 0.0
    bigrams = word_pairs(text)
    phrases = sum(1 for p in concepts.pairs if p in bigrams)
    return cov, min(phrases, _PHRASE_CAP) / _PHRASE_CAP
