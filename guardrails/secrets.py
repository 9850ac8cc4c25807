"""Secret detection: credentials are REFUSED, never masked.

Why refuse instead of mask: a password or key pasted into chat is already compromised the moment it is
sent; masking it would let the conversation continue as if nothing happened. Refusing tells the user to
rotate it, and guarantees the value reaches no model, log, cache or ticket.

Rules are data (:data:`SECRET_RULES`): an id-like ``kind``, a regex, and an optional value check that
rejects look-alikes (e.g. "password saya sudah expired" is not a password). Results name the kinds that
matched, never the matched text. A secret needs a value: "password policy" or "lupa kata sandi, bagaimana
reset?" talk about credentials without holding one and pass.

Text is normalised before scanning (NFKC, zero-width characters removed, Unicode spaces read as spaces),
so a key split by zero-width spaces or typed in full-width letters is still a key.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from guardrails.injection import normalise


def shannon_entropy(value: str) -> float:
    """Return the Shannon entropy of ``value`` in bits per character (random base64 ~ 5-6, words ~ 3)."""
    if not value:
        return 0.0
    counts = Counter(value)
    size = len(value)
    return -sum(n / size * math.log2(n / size) for n in counts.values())


def _looks_random(value: str) -> bool:
    """A token is key-like when long, mixing character classes, and high-entropy."""
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    return len(value) >= 16 and classes >= 2 and shannon_entropy(value) >= 3.5


_PASSWORD_STOPWORDS = frozenset(
    [
        "saya",
        "anda",
        "kamu",
        "sudah",
        "belum",
        "lupa",
        "tidak",
        "bisa",
        "reset",
        "ganti",
        "diubah",
        "expired",
        "kadaluarsa",
        "salah",
        "benar",
        "policy",
        "kebijakan",
        "baru",
        "lama",
        "harus",
        "wajib",
        "minimal",
        "yang",
        "untuk",
        "dan",
        "atau",
        "the",
        "is",
        "my",
        "your",
        "was",
        "has",
        "have",
        "not",
        "will",
        "please",
        "tolong",
        "bagaimana",
        "how",
        "what",
        "apa",
        "berapa",
        "digit",
        "karakter",
        "characters",
        "must",
        "should",
        "never",
        "jangan",
        "selalu",
        "changed",
        "change",
        "required",
        "requirement",
        "requirements",
        "rules",
        "aturan",
        "ketentuan",
        "forgot",
        "forgotten",
    ]
)


def _password_value_ok(value: str) -> bool:
    """Accept a value after "password:" unless it is an ordinary word (a question, not a credential)."""
    cleaned = value.strip("\"'`.,;:!?()[]{}")
    return not (len(cleaned) < 4 or cleaned.lower() in _PASSWORD_STOPWORDS)


def _password_loose_value_ok(value: str) -> bool:
    """Without an explicit separator ("kata sandi saya X"), require a credential-looking value."""
    cleaned = value.strip("\"'`.,;:!?()[]{}")
    if not _password_value_ok(cleaned) or len(cleaned) < 6:
        return False
    return bool(
        re.search(r"\d", cleaned) or re.search(r"[^\w\s]", cleaned) or re.search(r"[a-z][A-Z]", cleaned)
    )


@dataclass(frozen=True)
class SecretRule:
    """One secret pattern.

    Attributes:
        kind: Stable name reported to callers (``aws_access_key``, ``password``, ...).
        pattern: Compiled regex; group ``v`` (if present) is the value passed to ``check``.
        check: Optional predicate on the value that must hold for the rule to fire.
    """

    kind: str
    pattern: re.Pattern[str]
    check: Callable[[str], bool] | None = None


_I = re.IGNORECASE
_PW_WORDS = r"(?:password|passwd|passcode|pass ?phrase|pwd|pw|kata ?sandi|kata ?kunci|sandi|pin)"
_USER_WORDS = (
    r"(?:username|user ?name|user(?: ?id)?|login|email|e-mail|akun|nama pengguna|id pengguna|userid)"
)
_OWNER = r"(?:saya|sy|ku|aku|nya|akun|anda|kamu|my|our|kami)"


def _digits_value_ok(value: str) -> bool:
    """A PIN or one-time code: 4-8 digits that are not a year (2024)."""
    return value.isdigit() and 4 <= len(value) <= 8 and not re.fullmatch(r"(?:19|20)\d\d", value)


SECRET_RULES: tuple[SecretRule, ...] = (
    SecretRule("private_key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    SecretRule("aws_access_key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b")),
    SecretRule(
        "aws_secret_key",
        re.compile(
            r"(?:aws_?secret_?(?:access_?)?key"
            r"|secret_?access_?key)\W{0,5}(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
            _I,
        ),
    ),
    SecretRule(
        "github_token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b")
    ),
    SecretRule("slack_token", re.compile(r"\bxox[abposre]-[0-9A-Za-z-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}")),
    SecretRule("slack_webhook", re.compile(r"hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}")),
    SecretRule("teams_webhook", re.compile(r"\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{20,}", _I)),
    SecretRule(
        "azure_client_secret",
        re.compile(r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])"),
    ),
    SecretRule(
        "azure_connection_secret",
        re.compile(
            r"(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=(?P<v>[A-Za-z0-9%/+=]{20,})", _I
        ),
    ),
    SecretRule("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    SecretRule("stripe_key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,}\b")),
    SecretRule("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    SecretRule(
        "url_credentials",
        re.compile(r"\b[a-z][a-z0-9+.-]{1,15}://[^\s:/@]{1,64}:[^\s:/@]{1,128}@[^\s/@]+", _I),
    ),
    SecretRule(
        "card_cvv",
        re.compile(
            r"\b(?:cvv2?|cvc2?|cvn|kode keamanan kartu)\b[^\d\n]{0,25}?(?<![\d.,])\d{3,4}\b(?![.,]\d)", _I
        ),
    ),
    SecretRule(
        "password",
        # up to three words may name the account between the keyword and the value:
        # "password e-Faktur saya: X", "kata sandi djponline saya adalah X"
        re.compile(
            _PW_WORDS
            + r"\b(?:\s+[\w.@-]+){0,3}?\s*(?:[:=]|->|\bis\b|\badalah\b|\bialah\b)\s*[\"'`]?(?P<v>\S+)",
            _I,
        ),
        _password_value_ok,
    ),
    SecretRule(
        "password",
        # "kata sandi saya X", "kata sandi coretax saya adalah X", "password email kantor saya: X"
        re.compile(
            r"(?:\bmy\s+|\b)"
            + _PW_WORDS
            + r"(?:\s+[\w.@-]+){0,2}?\s+"
            + _OWNER
            + r"\s+(?:(?:adalah|yaitu|ialah|is)\s+)?[\"'`]?(?P<v>\S+)",
            _I,
        ),
        _password_loose_value_ok,
    ),
    SecretRule(
        "password",
        # "username budi, password Rahasia1", "user: budi pass: x", "email a@b.co / pwd: y"
        re.compile(
            r"\b"
            + _USER_WORDS
            + r"\b\s*[:=]?\s*\S+?[\s,;/|]+(?:(?:dan|and|&)\s+)?(?:"
            + _PW_WORDS
            + r"|pass)\b\s*(?:[:=]|->)?\s*(?:(?:nya|adalah|is|yaitu)\s+)?[\"'`]?(?P<v>\S+)",
            _I,
        ),
        _password_value_ok,
    ),
    SecretRule("password", re.compile(r"\bpass\s*[:=]\s*[\"'`]?(?P<v>\S+)", _I), _password_value_ok),
    SecretRule(
        "pin",
        # "PIN ATM 123456", "pin kartu debit saya: 1234", "my card PIN is 4321"
        re.compile(
            r"\bpin\b(?:[\s-]+(?:atm|kartu|debit|kredit|bank|card|m-?banking|mobile|banking|bca|bri|bni"
            r"|mandiri|"
            r"btn|cimb|saya|ku|aku|nya|akun|my|number|code|kode|transaksi|efin|e-fin))*\s*(?:[:=]|\bis\b"
            r"|\badalah\b)?\s*"
            r"(?<![\d.,])(?P<v>\d{4,8})\b(?![.,]\d)",
            _I,
        ),
        _digits_value_ok,
    ),
    SecretRule(
        "otp",
        # one-time codes: "OTP 482913", "kode verifikasi saya 551204", "verification code: 0042"
        re.compile(
            r"\b(?:otp|one[- ]time (?:password|passcode|code|pin)|(?:kode|code) (?:otp|verifikasi|aktivasi"
            r"|token|sms)"
            r"|verification code|security code|auth(?:entication)? code|2fa code|kode keamanan|token (?:sms"
            r"|bank))\b"
            r"[^\d\n]{0,25}?(?<![\d.,])(?P<v>\d{4,8})\b(?![.,]\d)",
            _I,
        ),
        _digits_value_ok,
    ),
    SecretRule(
        "bearer_token",
        re.compile(r"\b(?:authorization\s*:\s*)?bearer\s+(?P<v>[A-Za-z0-9._~+/-]{16,}=*)", _I),
        _looks_random,
    ),
    SecretRule(
        "api_key",
        re.compile(
            r"(?:api[_ -]?key|apikey|api[_ -]?token|access[_ -]?token|auth[_ -]?token|secret[_ -]?key"
            r"|client[_ -]?secret"
            r"|private[_ -]?token|x-api-key)[\"']?\s*(?:[:=]|=>|\bis\b"
            r"|\badalah\b)\s*[\"'`]?(?P<v>[A-Za-z0-9_\-./+=~]{12,})",
            _I,
        ),
        lambda v: len(v) >= 12 and shannon_entropy(v) >= 3.0,
    ),
    SecretRule(
        "api_key",
        re.compile(
            r"\b(?:key|token|secret|kunci"
            r"|rahasia)\b[^\n]{0,24}?(?<![A-Za-z0-9_\-/+=])(?P<v>[A-Za-z0-9_\-/+=]{20,})",
            _I,
        ),
        _looks_random,
    ),
)


@dataclass(frozen=True)
class SecretVerdict:
    """Outcome of a secret scan: which kinds matched, and nothing about the values.

    Attributes:
        kinds: Sorted distinct rule kinds that matched (empty when clean).
    """

    kinds: tuple[str, ...]

    @property
    def found(self) -> bool:
        """Return whether any secret was found (the turn must be refused)."""
        return bool(self.kinds)


def scan_secrets(text: str) -> SecretVerdict:
    """Scan ``text`` for credentials.

    Args:
        text: Raw user text.

    Returns:
        The kinds that matched, sorted; never the secret itself.
    """
    text = normalise(text)
    kinds: set[str] = set()
    for rule in SECRET_RULES:
        if rule.kind in kinds:
            continue
        for match in rule.pattern.finditer(text):
            value = match.groupdict().get("v")
            if rule.check is None or (value is not None and rule.check(value)):
                kinds.add(rule.kind)
                break
    return SecretVerdict(kinds=tuple(sorted(kinds)))
