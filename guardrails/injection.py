"""Prompt-injection flagging for user turns and ingested documents.

Why rules, not a classifier: no model can be downloaded here, and a rule id tells a reviewer exactly
why a turn or document was flagged. Rules target *attempts to change the assistant's rules* -- fake role
markers, "ignore previous instructions", persona/mode switches, requests to answer without sources --
in English and Indonesian. They deliberately do NOT fire on single trigger words ("ignore this
warning", "system requirements", "act as a tutor"), because staff ask ordinary questions with those
words all day; the benign false-positive rate is measured on NotInject by ``bench/eval_guardrails.py``.

A flag does not refuse the turn by itself: the caller decides (e.g. answer with sources only, log the
rule ids, quarantine a document at ingest).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

_F = re.IGNORECASE | re.MULTILINE

_IGNORE_VERBS = r"(?:ignore|disregard|forget|overlook|skip|bypass|override|discard|drop|set aside|throw out|abandon|neglect)"
_PRIOR = r"(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial|old|existing|system|all|any|every|your|the|these|those|my)"
_RULE_NOUNS = (
    r"(?:instructions?|directions?|directives?|rules?|guidelines?|prompt(?:s|ing)?|commands?|constraints?|restrictions?|programming"
    r"|orders?|policies|policy|guardrails?|safeguards?|context|training|(?:what|everything|anything|all)(?: that)? you(?:'ve| have| were| had)?(?: been)? (?:told|instructed|taught|programmed))"
)
_ID_IGNORE = r"(?:abaikan|lupakan|acuhkan|hiraukan|tinggalkan|langgar|jangan (?:ikuti|patuhi|hiraukan|pedulikan|gunakan))"
_ID_RULES = r"(?:instruksi|perintah|aturan|arahan|petunjuk|ketentuan|batasan|prompt|pedoman)"


@dataclass(frozen=True)
class InjectionRule:
    """One injection pattern with a stable id reported to callers."""

    rule_id: str
    pattern: re.Pattern[str]


INJECTION_RULES: tuple[InjectionRule, ...] = (
    # "ignore all previous instructions", "disregard prior directives", "forget what you were told"
    InjectionRule(
        "ignore_instructions",
        re.compile(
            rf"\b{_IGNORE_VERBS}\b(?:[\s,'\"-]+[\w']+){{0,5}}?[\s,'\"-]+{_RULE_NOUNS}\b"
            r"|\bregardless of (?:any |all |the |your )?(?:previous|prior|above|earlier|original|preceding) (?:tasks?|instructions?|rules|directives?|prompts?)\b",
            _F,
        ),
    ),
    # "ignore the above", "forget everything before this"
    InjectionRule(
        "ignore_above",
        re.compile(
            rf"\b{_IGNORE_VERBS}\b\W+(?:(?:all|everything|anything)\W+)?(?:the\W+|of\W+the\W+)?(?:above|previous|prior|preceding|earlier|foregoing)\b(?!\s+(?:error|warning|step|example|code|message|line|comment|section|paragraph)s?\b)"
            rf"|\b{_IGNORE_VERBS}\b\W+(?:everything|all|anything|what) (?:i(?:'ve| have)?|you(?:'ve| have)?) (?:just )?(?:said|told|written|read)\b"
            r"|(?:previous|prior|above|earlier|original|initial) (?:instructions|rules|directives|prompts?) (?:are|is|were) (?:now )?(?:false|void|invalid|null|cancel+ed|obsolete|out of date|revoked|no longer (?:valid|in effect))\b",
            _F,
        ),
    ),
    InjectionRule(
        "ignore_instructions_id",
        re.compile(
            rf"\b{_ID_IGNORE}\b(?:\W+\w+){{0,3}}?\W+{_ID_RULES}\b|\b{_ID_IGNORE}\b\W+(?:semua\W+)?(?:yang\W+)?(?:di\s?atas|sebelumnya)\b",
            _F,
        ),
    ),
    # fake role markers at line start, chat-template tokens, fake system tags
    InjectionRule(
        "role_marker",
        re.compile(
            r"^\s*(?:#{1,6}\s*)?(?:system|assistant|developer|sistem)\s*(?:prompt|message|pesan)?\s*:"
            r"|^\s*#{2,6}\s*(?:instruction|instructions|system|new instructions?|instruksi)\b"
            r"|</?\s*(?:system|sys|instructions?|assistant|developer)\s*>|<\|(?:im_start|im_end|system|endoftext)\|>"
            r"|\[/?INST\]|<<\s*/?SYS\s*>>",
            _F,
        ),
    ),
    # "new instructions:", "from now on you will", "your new task is"
    InjectionRule(
        "new_instructions",
        re.compile(
            r"\bnew (?:instructions?|rules|directives?|system prompt)\s*(?::|are\b|follow\b)"
            r"|\byour new (?:task|role|instructions?|rules|goal|purpose|objective) (?:is|are)\b"
            r"|\bfrom now on,? (?:you|ignore|do not|don't|always|never|respond|answer|act)\b"
            r"|\bmulai (?:sekarang|saat ini),? (?:kamu|anda|abaikan|jangan|selalu|jawab)\b"
            r"|\binstruksi baru\s*:"
            r"|\byour (?:initial|original|real|actual|true|updated) instructions (?:were|are)\b",
            _F,
        ),
    ),
    # persona switches: "you are now DAN", "kamu sekarang adalah ..."
    InjectionRule(
        "persona_switch",
        re.compile(
            r"\byou are now\b(?! (?:logged|connected|subscribed|registered|signed|able|ready|enrolled)\b)"
            r"|\byou(?:'re| are) no longer (?:an? )?(?:ai|assistant|bound|restricted|limited|chatgpt|claude)"
            r"|\b(?:kamu|anda) (?:sekarang|kini) (?:adalah|menjadi|berperan)\b"
            r"|\bpretend (?:to be|that you are|you are|you're) (?:an? )?(?:unrestricted|unfiltered|jailbroken|evil|different ai|ai without)"
            r"|\bact as (?:an? )?(?:unrestricted|unfiltered|jailbroken|uncensored)\b",
            _F,
        ),
    ),
    # mode switches and DAN-style jailbreaks
    InjectionRule(
        "jailbreak_mode",
        re.compile(
            r"\b(?:developer|dev|god|admin|debug|maintenance|jailbreak|unrestricted|sudo|root|system|override)[\s_-]mode\b"
            r"|\bmode (?:pengembang|developer|admin|tanpa batas)\b"
            r"|\bdo anything now\b|\bDAN\b(?= (?:mode|prompt|jailbreak|can|will|has|is)\b)|\b(?:you are|you're|now|be|stay) jailbroken\b"
            r"|\bunrestricted (?:ai|bot|assistant|model|chatbot)\b|\bnot (?:restricted|bound|limited) by (?:the |any |your )?(?:rules|instructions|guidelines|policies)\b"
            r"|\b(?:without|no|free (?:of|from)|bypass(?:ing)?|remove|disable) (?:any |all |your )?(?:ethical |content |safety )?(?:restrictions|filters|filtering|censorship|guardrails|limitations|rules|safeguards)\b"
            r"|\b(?:tanpa|bebas dari|abaikan) (?:batasan|filter|sensor|aturan)\b",
            _F,
        ),
    ),
    # answer outside the knowledge base: "answer from memory", "jawab tanpa sumber"
    InjectionRule(
        "answer_without_sources",
        re.compile(
            r"\banswer (?:only )?(?:from|using) (?:your )?(?:own )?(?:memory|knowledge|training)\b"
            r"|\b(?:without|don't|do not|no need to) (?:cit(?:e|ing)|quot(?:e|ing)|check(?:ing)?|us(?:e|ing)|search(?:ing)?|look(?:ing)? up) (?:any |the )?(?:sources?|citations?|references?|knowledge base|documents?|regulations?)\b"
            r"|\bjawab(?:lah)? (?:saja )?(?:tanpa|dari) (?:sumber|kutipan|referensi|ingatan|pengetahuan)"
            # "tanpa sumber" alone is ordinary Indonesian ("tanpa sumber tenaga dari luar" in a tariff table):
            # only the phrase ending the request counts
            r"|\btanpa (?:perlu )?(?:mengutip|kutipan|menyebut(?:kan)? sumber)\b"
            r"|\btanpa (?:sumber|referensi)(?=\s*(?:[.,!?;]|$|apa ?pun\b|dan\b|atau\b))"
            r"|\bdari ingatan(?:mu| anda)?\b",
            _F,
        ),
    ),
    # attempts to extract the hidden instructions
    InjectionRule(
        "reveal_prompt",
        re.compile(
            r"\b(?:reveal|show|print|repeat|output|display|leak|tell me|what (?:is|are)) (?:me )?(?:your|the) (?:full |hidden |initial |original |secret )?(?:system prompt|(?:system|hidden|initial|original) (?:instructions|message)|prompt instructions)\b"
            r"|\b(?:repeat|reveal|print|show|list|relay|output|recite|dump|respond with|tell me)\b(?:\W+[\w']+){0,4}?\W+your(?:\W+[\w']+){0,3}?\W+(?:instructions|system prompt|prompt)\b"
            r"|\binstructions? you(?:'ve| have| were| had)? (?:been )?given\b"
            r"|\b(?:tampilkan|tunjukkan|bocorkan|ulangi) (?:prompt|instruksi) (?:sistem|awal|rahasia)\b",
            _F,
        ),
    ),
    # claimed authority to switch the model into a privileged state
    InjectionRule(
        "authority_claim",
        re.compile(
            r"\b(?:i am|i'm) (?:your|the) (?:developer|creator|admin(?:istrator)?|owner|system administrator|programmer)\b"
            r"|\b(?:saya|aku) (?:adalah )?(?:developer|pengembang|admin|pembuat)mu\b"
            r"|\b(?:mode|override|access) (?:activated|enabled|granted|unlocked)\b",
            _F,
        ),
    ),
)


@dataclass(frozen=True)
class InjectionVerdict:
    """Outcome of an injection scan.

    Attributes:
        flagged: Whether any rule matched.
        rule_ids: Sorted distinct ids of the rules that matched.
    """

    flagged: bool
    rule_ids: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """Return the JSON shape used in ``Inspection.to_json``."""
        return {"flagged": self.flagged, "rule_ids": list(self.rule_ids)}


CLEAN = InjectionVerdict(flagged=False, rule_ids=())

# Zero-width and bidi controls used to split trigger words ("ig\u200bnore") are dropped before matching.
_INVISIBLE = dict.fromkeys(
    [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E]
)


def normalise(text: str) -> str:
    """Fold width/compatibility forms (NFKC), drop invisible characters, unify apostrophes."""
    folded = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return folded.replace("\u2019", "'").replace("\u2018", "'")


def scan_injection(text: str) -> InjectionVerdict:
    """Flag text that tries to change the assistant's rules.

    Args:
        text: A user turn or a document passage.

    Returns:
        The verdict with the ids of every rule that matched (sorted, deterministic).
    """
    normalised = normalise(text)
    ids = sorted({rule.rule_id for rule in INJECTION_RULES if rule.pattern.search(normalised)})
    return InjectionVerdict(flagged=bool(ids), rule_ids=tuple(ids))


def scan_documents(documents: Mapping[str, str]) -> dict[str, InjectionVerdict]:
    """Scan documents at ingest and report per document id (ids sorted for deterministic output).

    Args:
        documents: Document id -> full text.

    Returns:
        Document id -> verdict, for every document (clean ones included).
    """
    return {doc_id: scan_injection(documents[doc_id]) for doc_id in sorted(documents)}
