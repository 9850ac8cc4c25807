"""Deterministic default support judge: word coverage, negation agreement, figure agreement.

It is a screen, not an understanding: it catches the common, cheap-to-detect failures of a drafted
answer (content the passage never mentions, a flipped "tidak"/"not", a changed figure) and needs
no model, so it runs everywhere and always gives the same answer.  A real NLI model can replace it
through :class:`guardrails.verify.nli.NliSupportJudge`.

Decision rules (fixed from first principles, not tuned on evaluation data):

1. **Figures.**  Every figure of the claim must be backed by the passage (same rules as the number
   gate, :mod:`guardrails.verify.numbers`).  If the passage holds a *different* figure of the same
   kind (claim 12%, passage 11%), the claim is ``contradicted``; if it holds none of that kind the
   claim is ``not_supported``.
2. **Negation.**  A negator (tidak, bukan, tanpa, belum, dilarang, tak, jangan, not, no, never,
   without, ...) scopes the next :data:`NEGATION_SCOPE` content words of its clause.  A claim word
   whose polarity is the opposite of *every* occurrence of the matching word in the passage
   ("wajib" vs "tidak wajib") makes the claim ``contradicted``.  Words the passage uses with both
   polarities are left alone: the lexical judge cannot tell which occurrence the claim is about.
3. **Coverage.**  The share of the claim's distinct content words (stopwords and figures removed,
   so "Rp", "persen" or the unit of "30 hari" never count as words)
   found in the passage.  Words match when equal after light normalisation (Indonesian -nya, English
   plurals) or when one is a prefix of the other differing by at most :data:`MAX_SUFFIX` characters
   (pajak/pajaknya, kena/kenakan, cook/cooking).  At least :data:`ENTAIL_COVERAGE` is required for
   ``entailed``: three quarters of what the claim says must literally be in the passage, which still
   lets a paraphrase name a subject the passage leaves implicit (one word in four).  Standard tax
   acronyms (:data:`ACRONYMS`: PPN, PPh, PTKP, ...) are expanded first, in both texts.

Score = coverage halved once for every negation or figure problem, so it stays in [0, 1] and orders
claims by how well they are supported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from guardrails.verify.numbers import Figure, extract_figures, provided_keys
from guardrails.verify.records import JudgeResult, SupportVerdict

#: Minimum share of claim content words present in the passage for "entailed".
ENTAIL_COVERAGE = 0.75
#: How many content words after a negator it negates.
NEGATION_SCOPE = 2
#: Longest suffix tolerated by the prefix match (Indonesian -kan/-nya/-an, English -ing/-ed/-ly).
MAX_SUFFIX = 3
#: Shortest word eligible for prefix matching (avoids "an" ~ "and").
MIN_PREFIX = 4

NEGATORS: frozenset[str] = frozenset(
    {
        # Indonesian
        "tidak",
        "tak",
        "bukan",
        "tanpa",
        "belum",
        "dilarang",
        "jangan",
        "tiada",
        "takkan",
        # English
        "not",
        "no",
        "never",
        "without",
        "none",
        "nor",
        "cannot",
        "neither",
        "nothing",
        "nobody",
    }
)

STOPWORDS_ID: frozenset[str] = frozenset(
    [
        "yang",
        "dan",
        "di",
        "ke",
        "dari",
        "untuk",
        "dengan",
        "pada",
        "dalam",
        "atas",
        "atau",
        "ini",
        "itu",
        "tersebut",
        "adalah",
        "merupakan",
        "sebagai",
        "oleh",
        "akan",
        "telah",
        "sudah",
        "dapat",
        "bisa",
        "juga",
        "serta",
        "bagi",
        "kepada",
        "secara",
        "sebesar",
        "sebagaimana",
        "dimaksud",
        "ialah",
        "yaitu",
        "yakni",
        "para",
        "suatu",
        "sesuatu",
        "setiap",
        "tiap",
        "se",
        "sama",
        "hal",
        "apabila",
        "jika",
        "bila",
        "maka",
        "karena",
        "sehingga",
        "agar",
        "supaya",
        "namun",
        "tetapi",
        "hanya",
        "lebih",
        "masih",
        "ada",
        "antara",
        "terhadap",
        "tentang",
        "mengenai",
        "hingga",
        "sampai",
        "sejak",
        "saat",
        "ketika",
        "masing",
        "seluruh",
        "semua",
        "beberapa",
        "sebelum",
        "sesudah",
        "setelah",
        "per",
        "nya",
        "ia",
        "mereka",
        "kami",
        "kita",
        "anda",
        "saya",
        "kamu",
        "dia",
        "apa",
        "siapa",
        "bagaimana",
        "berapa",
        "mana",
        "kapan",
        "mengapa",
        "pun",
        "lah",
        "kah",
        "begitu",
        "demikian",
        "yakni",
        "sedangkan",
        "melalui",
        "berdasarkan",
        "oleh",
        "tanggal",
        "huruf",
        "ayat",
        "pasal",
        "angka",
    ]
)
STOPWORDS_EN: frozenset[str] = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "their",
        "theirs",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "hers",
        "we",
        "you",
        "your",
        "yours",
        "our",
        "ours",
        "i",
        "me",
        "my",
        "mine",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "than",
        "then",
        "so",
        "such",
        "if",
        "also",
        "can",
        "could",
        "will",
        "would",
        "shall",
        "should",
        "may",
        "might",
        "must",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "having",
        "into",
        "about",
        "over",
        "under",
        "up",
        "down",
        "out",
        "more",
        "most",
        "some",
        "any",
        "all",
        "each",
        "other",
        "only",
        "very",
        "just",
        "because",
        "while",
        "during",
        "before",
        "after",
        "between",
        "through",
        "per",
        "both",
        "either",
        "own",
        "same",
        "too",
        "here",
        "s",
        "t",
        "am",
        "us",
        "via",
        "onto",
        "upon",
        "within",
        "among",
        "whether",
        "yet",
    ]
)
STOPWORDS: frozenset[str] = STOPWORDS_ID | STOPWORDS_EN

#: Standard Indonesian tax acronyms, expanded in claim and passage alike so "PPN" matches the
#: "Pajak Pertambahan Nilai" that regulations spell out (case-sensitive: acronyms are upper case).
ACRONYMS: dict[str, str] = {
    "PPN": "Pajak Pertambahan Nilai",
    "PPnBM": "Pajak Penjualan atas Barang Mewah",
    "PPh": "Pajak Penghasilan",
    "PTKP": "Penghasilan Tidak Kena Pajak",
    "PKP": "Pengusaha Kena Pajak",
    "BKP": "Barang Kena Pajak",
    "JKP": "Jasa Kena Pajak",
    "NPWP": "Nomor Pokok Wajib Pajak",
    "SPT": "Surat Pemberitahuan",
    "DJP": "Direktorat Jenderal Pajak",
    "KPP": "Kantor Pelayanan Pajak",
    "WP": "Wajib Pajak",
    "PBB": "Pajak Bumi dan Bangunan",
    "BPHTB": "Bea Perolehan Hak atas Tanah dan Bangunan",
    "SKPKB": "Surat Ketetapan Pajak Kurang Bayar",
    "SKPLB": "Surat Ketetapan Pajak Lebih Bayar",
}
_ACRONYM = re.compile(r"\b(" + "|".join(sorted(ACRONYMS, key=lambda a: (-len(a), a))) + r")\b")

#: clause boundaries: punctuation and a blank line, not a single line break.  A PDF wraps lines inside a
#: clause ("tidak boleh\ndikurangkan dari penghasilan bruto"): split there, the negated verb read as affirmed
#: and a claim quoting the same clause on one line was withheld as contradicted (outside tester, session 33).
#: A table cell ends at its "|": "| ... bukan pegawai | PPh 21 |" negates no word of the next cell
_CLAUSE = re.compile(r"[.;:!?()\[\]{}|]|\n\s*\n|,\s|\s[-–—]\s")
_TOKEN = re.compile(r"[^\W\d_]+", re.UNICODE)


def normalize_token(word: str) -> str:
    """Lowercase and strip the suffixes that never change a word's meaning for this purpose.

    Indonesian ``-nya`` (possessive/definite) and English plurals (``taxes`` -> ``tax``,
    ``rates`` -> ``rate``, ``companies`` -> ``company``).
    """
    w = word.lower()
    if len(w) > 6 and w.endswith("nya"):
        w = w[:-3]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("sses", "xes", "ches", "shes", "zes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def words_match(a: str, b: str) -> bool:
    """Suffix-insensitive equality of two normalised words (see the module docstring)."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= MIN_PREFIX and long_.startswith(short) and len(long_) - len(short) <= MAX_SUFFIX


@dataclass(frozen=True)
class _Token:
    word: str  # normalised
    negated: bool


def _mask_figures(text: str) -> str:
    """Blank out figures ("Rp60 juta", "30 (tiga puluh) hari"): they are judged by the figure rule."""
    chars = list(text)
    for fig in extract_figures(text):
        chars[fig.start : fig.end] = " " * (fig.end - fig.start)
    return "".join(chars)


def _content_tokens(text: str) -> list[_Token]:
    """Content words of ``text`` with their polarity (negated when inside a negator's scope)."""
    text = _mask_figures(text)
    text = re.sub(r"n't\b", " not", text, flags=re.IGNORECASE)
    text = _ACRONYM.sub(lambda m: ACRONYMS[m.group(1)], text)
    out: list[_Token] = []
    for clause in _CLAUSE.split(text):
        scope = 0
        for m in _TOKEN.finditer(clause):
            raw = m.group(0).lower()
            if raw in NEGATORS:
                scope = NEGATION_SCOPE
                continue
            if raw in STOPWORDS:
                continue
            out.append(_Token(normalize_token(raw), scope > 0))
            scope = max(scope - 1, 0)
    return out


def _same_kind(fig: Figure, passage_figures: list[Figure]) -> bool:
    """Whether the passage states a figure of the claim figure's kind (amounts and numbers are one kind)."""
    kinds = {fig.kind} | ({"amount", "number"} if fig.kind in ("amount", "number") else set())
    kinds |= {"ayat", "index"} if fig.kind in ("ayat", "index") else set()
    kinds |= {"date", "month"} if fig.kind in ("date", "month") else set()
    return any(p.kind in kinds for p in passage_figures)


class LexicalSupportJudge:
    """Default :class:`~guardrails.verify.protocol.SupportJudge`; see the module docstring for the rules.

    Args:
        entail_coverage: Override of :data:`ENTAIL_COVERAGE` (for experiments; production uses the default).
    """

    def __init__(self, *, entail_coverage: float = ENTAIL_COVERAGE) -> None:
        self._entail_coverage = entail_coverage

    def judge(self, claim: str, passage: str) -> JudgeResult:
        """Judge ``claim`` against ``passage``; deterministic, no model."""
        reasons: list[str] = []
        problems = 0
        contradicted = False
        missing_figure = False

        # 1. figures
        passage_figs = extract_figures(passage)
        provided = provided_keys(passage)
        for fig in extract_figures(claim):
            if fig.keys & provided:
                continue
            problems += 1
            if _same_kind(fig, passage_figs):
                contradicted = True
                reasons.append(f"figure_conflict={fig.surface}")
            else:
                missing_figure = True
                reasons.append(f"figure_absent={fig.surface}")

        # 2. negation + 3. coverage
        claim_tokens = _content_tokens(claim)
        passage_tokens = _content_tokens(passage)
        by_word: dict[str, set[bool]] = {}
        for tok in passage_tokens:
            by_word.setdefault(tok.word, set()).add(tok.negated)
        passage_words = sorted(by_word)

        claim_words: dict[str, set[bool]] = {}
        for tok in claim_tokens:
            claim_words.setdefault(tok.word, set()).add(tok.negated)
        matched = 0
        for word in sorted(claim_words):
            polarities: set[bool] = set()
            if word in by_word:
                polarities |= by_word[word]
            for other in passage_words:
                if other != word and words_match(word, other):
                    polarities |= by_word[other]
            if not polarities:
                continue
            matched += 1
            claim_pol = claim_words[word]
            if len(claim_pol) == 1 and len(polarities) == 1 and claim_pol != polarities:
                contradicted = True
                problems += 1
                reasons.append(f"negation_mismatch={word}")
        total = len(claim_words)
        coverage = matched / total if total else 1.0
        reasons.insert(0, f"coverage={coverage:.3f} ({matched}/{total})")

        score = coverage * (0.5**problems)
        verdict: SupportVerdict
        if contradicted:
            verdict = "contradicted"
        elif missing_figure or coverage < self._entail_coverage:
            verdict = "not_supported"
        else:
            verdict = "entailed"
        return JudgeResult(verdict, round(score, 6), tuple(reasons))
