"""Conflicting sources: only like claims conflict; precedence follows the legal hierarchy, said in words.

Two verified claims *conflict* only when they state the same kind of fact for the same subject and
disagree on its value:

- the same kind: a rate is compared with a rate, never with a surcharge ("100% lebih tinggi" for a
  payee without NPWP), a range for changing the rate ("paling rendah 5% ... paling tinggi 15%") or a
  factor ("10% dikali 11/12");
- the same subject: the same tax (PPh 23, PPh 26, PPh 4(2), PPN ...), the same object (services,
  construction, rent of land/buildings, rent of other assets, dividends ...), the same taxpayer class
  (no NPWP, non-resident, treaty, contractor qualification) and the same regime (final or not): the
  petty-cash procedure's 4% PPh 23 on services is not weighed against the matrix's 1.75% final PPh 4(2)
  on construction;
- from different documents that answer on the as-of date (in force, or amended with this wording
  still current), both stating the answer (role direct/policy, not an example).

Payment deadlines are like facts too (:func:`payment_deadlines`): a company document's monthly payment
day ("disetor paling lambat tanggal 20 bulan berikutnya") conflicts with another company document's day for
the same tax, and with the law's ceiling ("paling lama 15 (lima belas) hari setelah ... berakhirnya Masa
Pajak") when it is later than the ceiling allows.  A day within the ceiling is the company's practice inside
the law, not a conflict.  So are a permission and a restriction of the same act (:func:`permission`,
:func:`restricts`): "PPN ... dapat langsung dikreditkan ... tanpa menunggu faktur pajak" against "Pajak
Masukan hanya dapat dikreditkan bila faktur pajak memenuhi persyaratan".

Precedence, in order (the first rule that separates the two decides; reported as ``decided_by`` and
in words as ``explanation``, in the question's language):

1. ``regulation_over_policy`` -- a company document never overrides a regulation's rate; it is shown
   as the company's practice beside the rule;
2. ``higher_level`` -- the legal hierarchy (UU > PP > PMK > PER > SE/KEP), and for company documents
   policy > procedure > memo > FAQ;
3. ``later_effective_date`` -- at the same level, the later one took effect later and applies;
4. ``specific_over_general`` -- same level, same date, same subject: the document with the narrower
   scope (fewer tax types, named entities);
5. ``doc_id_order`` -- a deterministic tie-break only; the explanation says a person must look.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.answer.model import Conflict, ConflictSource, ShownClaim
from guardrails.verify import extract_figures
from kb.model import ANSWERABLE_STATUSES, DocumentMeta

_ANSWER_ROLES = frozenset({"direct", "policy"})

#: Rank in the legal hierarchy (lower = higher rank); company documents rank below every regulation.
LEVEL: dict[str, int] = {
    "UU": 1,
    "PERPU": 1,
    "PP": 2,
    "PERPRES": 3,
    "PMK": 4,
    "PER": 5,
    "SE": 6,
    "KEP": 6,
    "policy": 10,
    "procedure": 11,
    "memo": 12,
    "faq": 13,
}
_TYPE_WORDS: dict[str, tuple[str, str]] = {
    "UU": ("undang-undang", "a law (UU)"),
    "PERPU": ("perpu", "a government regulation in lieu of law"),
    "PP": ("peraturan pemerintah", "a government regulation (PP)"),
    "PERPRES": ("peraturan presiden", "a presidential regulation"),
    "PMK": ("peraturan menteri keuangan", "a Finance Minister regulation (PMK)"),
    "PER": ("peraturan Direktur Jenderal Pajak", "a DG Tax regulation (PER)"),
    "SE": ("surat edaran", "a circular (SE)"),
    "KEP": ("keputusan", "a decree (KEP)"),
    "policy": ("kebijakan perusahaan", "a company policy"),
    "procedure": ("prosedur perusahaan", "a company procedure"),
    "memo": ("memo internal", "an internal memo"),
    "faq": ("FAQ internal", "an internal FAQ"),
}

_TAX = re.compile(
    r"\bPPh\s*(?:final\s+)?(?:Pasal\s*|Psl\.?\s*)?(4\s*\(\s*2\s*\)|4\s+ayat\s*\(?\s*2\s*\)?|\d{2})(?!\w)"
    r"|\bPajak\s+Penghasilan\s+Pasal\s+(4\s+ayat\s*\(\s*2\s*\)|\d{2})(?!\w)"
    r"|\b(PPN|PPnBM)\b|\bPajak\s+Pertambahan\s+Nilai\b"
    r"|\b(Pajak\s+Penjualan\s+atas\s+Barang\s+Mewah)\b"
    # English: "VAT" / "value added tax" is PPN (session 58: "What is the VAT on imported goods?" named no
    # tax, so a passage on another tax was never "other_tax" for it)
    r"|\bVAT\b|\bvalue[\s-]+added\s+tax\b"
    # the stamp duty is a levy of its own (UU 10/2020): "What documents are needed to claim input VAT?" was
    # answered with the Bea Meterai act's "Dokumen" (session 62, a probe of our own)
    r"|\b(Bea\s+Meterai|stamp\s+dut(?:y|ies))\b",
    re.I,
)
_EXCLUSION = re.compile(r"\b(?:kecuali|selain|tidak\s+termasuk|except|other\s+than)\b", re.I)
_OBJECTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("construction", re.compile(r"konstruksi|construction", re.I)),
    ("other_rent", re.compile(r"sewa\s+harta\s+selain|selain\s+tanah|other\s+than\s+land", re.I)),
    (
        "land_building_rent",
        re.compile(r"(?:sewa|persewaan|rent)\w*\s+(?:\w+\s+){0,3}(?:tanah|bangunan|land|building)", re.I),
    ),
    ("rent", re.compile(r"\bsewa\b|\bpersewaan\b|\brent(?:al)?\b", re.I)),
    ("services", re.compile(r"\bjasa\b|\bservices?\b|\bfee\b", re.I)),
    ("dividend", re.compile(r"dividen|dividend", re.I)),
    ("interest", re.compile(r"\bbunga\b|\binterest\b", re.I)),
    ("royalty", re.compile(r"royalt", re.I)),
    ("export", re.compile(r"ekspor|export", re.I)),
    ("salary", re.compile(r"\bgaji\b|pegawai|honorarium|salary|employee", re.I)),
    ("turnover", re.compile(r"peredaran\s+bruto|omzet|turnover", re.I)),
    ("land_transfer", re.compile(r"pengalihan\s+hak\s+atas\s+tanah", re.I)),
)
_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "no_npwp",
        re.compile(
            r"tidak\s+(?:memiliki|mempunyai|punya)\s+(?:Nomor\s+Pokok\s+Wajib\s+Pajak|NPWP)|tanpa\s+NPWP"
            r"|NO-NPWP|non-NPWP|without\s+(?:an?\s+)?NPWP",
            re.I,
        ),
    ),
    ("non_resident", re.compile(r"luar\s+negeri|non-?resident|foreign", re.I)),
    ("treaty", re.compile(r"\bP3B\b|treaty|Formulir\s+DGT|persetujuan\s+penghindaran", re.I)),
    ("small", re.compile(r"kualifikasi\s+(?:usaha\s+)?kecil|perseorangan", re.I)),
    ("medium_large", re.compile(r"kualifikasi\s+(?:usaha\s+)?(?:menengah|besar)", re.I)),
    ("no_certificate", re.compile(r"tidak\s+memiliki\s+sertifikat|tanpa\s+sertifikat", re.I)),
)
_FINAL = re.compile(r"(?<!tidak\s)(?<!tidak\sbersifat\s)\bfinal\b", re.I)
_SURCHARGE = re.compile(r"^\s*(?:\([^)]{0,40}\)\s*)?(?:lebih\s+(?:tinggi|besar)|higher)\b", re.I)
_SURCHARGE_BEFORE = re.compile(r"(?:lebih\s+(?:tinggi|besar)|higher\s+by|tambahan|surcharge\s+of)\s*$", re.I)
#: Words around a percentage that make it a price term, not a tax rate ("A mark-up of 5%", "margin 10%").
_NOT_A_TAX_RATE = re.compile(r"mark-?\s?up|\bmargin|\blaba\b|\bprofit|diskon|discount|potongan\s+harga", re.I)
_FACTOR = re.compile(r"^\s*(?:\([^)]{0,40}\)\s*)?(?:dikali|x\b|×|dari\s+tarif)", re.I)
#: A sanction named in the sentence before a percentage ("ditambah dengan sanksi administrasi berupa kenaikan
#: sebesar: c. 100% ... yang tidak atau kurang dibayar"): the percentage is the sanction's, never a tax rate
#: (KUP's 100% increase on underpaid VAT is no rival of the VAT rate).  "bunga" is left out: interest is also
#: an object taxed at a rate ("15% dari jumlah bruto atas bunga").
_SANCTION_BEFORE = re.compile(r"\b(?:sanksi|denda|kenaikan|penalt(?:y|ies)|fines?)\b", re.I)


#: how a regulation names each object (the words of a rate question put to the law, :func:`rate_question`)
_OBJECT_WORDS: dict[str, str] = {
    "construction": "jasa konstruksi",
    "other_rent": "sewa harta selain tanah dan bangunan",
    "land_building_rent": "persewaan tanah dan bangunan",
    "rent": "sewa",
    "services": "jasa",
    "dividend": "dividen",
    "interest": "bunga",
    "royalty": "royalti",
    "export": "ekspor",
    "salary": "penghasilan pegawai",
    "turnover": "peredaran bruto",
    "land_transfer": "pengalihan hak atas tanah dan bangunan",
}


@dataclass(frozen=True)
class Fact:
    """One percentage a claim states, with what it is about."""

    kind: str  # rate | surcharge | sanction | range | factor | other (a mark-up, margin or discount)
    keys: frozenset[object]
    surface: str
    tax: str | None
    objects: frozenset[str]
    classes: frozenset[str]
    final: bool


def _norm_tax(m: re.Match[str]) -> str:
    art = m.group(1) or m.group(2)
    if art:
        art = re.sub(r"\s+", "", art.lower()).replace("ayat", "")
        return "PPh 4(2)" if art.startswith("4") else f"PPh {art}"
    if m.group(4):
        return "PPnBM"
    if m.group(5):
        return "Bea Meterai"
    return "PPN" if (m.group(3) or "PPN").upper() == "PPN" else "PPnBM"


def mentioned_taxes(text: str) -> list[str]:
    """Taxes the text is about (a tax named only after "kecuali"/"selain" is an exclusion).

    A table's cells are read one by one: "Sewa harta selain tanah/bangunan" excludes land within its own
    cell, not the PPh 23 beside it nor the PPh 4(2) rows below it (the company's rate matrix was about PPh 23
    only, and its construction row lost the lead of a PPh 4(2) rate question to UU PPh Pasal 23; session
    72, a probe of our own)."""
    lines = text.split("\n")
    cells = [c for ln in lines if ln.lstrip().startswith("|") for c in ln.split("|")]
    prose = "\n".join(ln for ln in lines if not ln.lstrip().startswith("|"))
    found = [t for part in (prose, *cells) for t in _taxes_before_exclusion(part)]
    return list(dict.fromkeys(found))


def _taxes_before_exclusion(text: str) -> list[str]:
    cut = _EXCLUSION.search(text)
    head = text[: cut.start()] if cut else text
    return [_norm_tax(m) for m in _TAX.finditer(head)]


def _claim_tax(c: ShownClaim, meta: DocumentMeta) -> str | None:
    text = c.text if c.quote.strip().startswith("|") else c.quote
    types = set(meta.tax_types)
    loc = re.match(r"Pasal\s+(\d+)\b(?:\s+ayat\s+\((\d+)\))?", c.source.location)
    if loc and meta.layer == "regulation":
        art = "PPh 4(2)" if loc.group(1) == "4" and loc.group(2) == "2" else f"PPh {loc.group(1)}"
        if art in types:
            return art
    mentioned = mentioned_taxes(text)
    if mentioned:
        return mentioned[0]
    if re.search(r"\bPPN\b|\bVAT\b|Pertambahan\s+Nilai", text, re.I):
        return "PPN"
    # the only income-tax article the document is about (a "4% dari jumlah bruto" line of a PPh 23 procedure)
    pph = [t for t in meta.tax_types if t.startswith("PPh ") and t != "PPh Badan"]
    return pph[0] if len(pph) == 1 else None


def _subject_text(c: ShownClaim) -> str:
    """The part of the claim that says what the figure is about (a table row's description cells)."""
    q = c.quote.strip()
    if q.startswith("|"):
        cells = [x.strip() for x in q.strip("|").split("|")]
        return " ".join(x for x in cells if not extract_figures(x) or not re.search(r"\d\s*%", x))
    return c.quote


def _objects(text: str) -> frozenset[str]:
    found = {name for name, p in _OBJECTS if p.search(text)}
    if "other_rent" in found:
        found.discard("land_building_rent")
    if found & {"land_building_rent", "other_rent"}:
        found.discard("rent")
    return frozenset(found)


def facts(c: ShownClaim, meta: DocumentMeta) -> list[Fact]:
    """The percentages claim ``c`` states, each classified (rate, surcharge, range, factor)."""
    quote = c.quote
    tax = _claim_tax(c, meta)
    objects = _objects(_subject_text(c))
    classes = frozenset(name for name, p in _CLASSES if p.search(quote))
    final = bool(_FINAL.search(quote))
    return [Fact(kind, keys, fig, tax, objects, classes, final) for kind, keys, fig in percent_kinds(c)]


def percent_kinds(c: ShownClaim) -> list[tuple[str, frozenset[object], str]]:
    """Each percentage the claim's quote states, once, as (kind, keys, surface): a ``rate``, or a
    ``surcharge``, ``sanction``, ``range``, ``factor`` or price term (``other``) no rate question asks."""
    quote = c.quote
    low = quote.lower()
    ranged = "paling rendah" in low and "paling tinggi" in low
    lead_in = _lead_in(c.text, quote)
    out: list[tuple[str, frozenset[object], str]] = []
    seen: set[frozenset[object]] = set()
    for f in extract_figures(quote):
        if f.kind != "percent":
            continue
        keys = frozenset(f.keys)
        if keys in seen:
            continue
        seen.add(keys)
        pos = quote.find(f.surface)
        after = quote[pos + len(f.surface) :] if pos >= 0 else ""
        before = quote[max(0, pos - 30) : pos] if pos >= 0 else ""
        if _NOT_A_TAX_RATE.search(quote[max(0, pos - 40) : pos + len(f.surface) + 40] if pos >= 0 else ""):
            kind = "other"  # a mark-up, margin or discount: a price term, never a tax rate to weigh
        elif _SURCHARGE.match(after) or _SURCHARGE_BEFORE.search(before):
            kind = "surcharge"
        elif _names_sanction(f"{lead_in} {quote[:pos] if pos >= 0 else ''}"):
            kind = "sanction"
        elif ranged:
            kind = "range"
        elif _FACTOR.match(after):
            kind = "factor"
        else:
            kind = "rate"
        out.append((kind, keys, f.surface))
    return out


def _lead_in(text: str, quote: str) -> str:
    """What the claim text says before the quote: a list item's lead-in ("... berupa kenaikan sebesar:")."""
    pos = text.find(quote[:40]) if quote else -1
    return text[:pos] if pos > 0 else ""


#: a full stop that ends a sentence: not a decimal point ("1.5"), not a list label ("c.", "2.")
_SENTENCE_END = re.compile(r"(?<!\d)(?<!\b[a-zA-Z])\.\s")


def _names_sanction(before: str) -> bool:
    """The sentence that runs up to a figure names a sanction (its last full stop that is not a decimal)."""
    start = max((m.end() for m in _SENTENCE_END.finditer(before)), default=0)
    return bool(_SANCTION_BEFORE.search(before[start:]))


def rate_questions(c: ShownClaim, meta: DocumentMeta) -> list[str]:
    """The rate questions claim ``c`` answers, in a regulation's words ("tarif PPh 23 atas jasa"): what to
    ask the law when a company document states a rate, so the law's provision for the same subject is found
    however the user worded the question (a company document shares the user's words: "kasir kas kecil")."""
    out: list[str] = []
    for f in facts(c, meta):
        if f.kind != "rate" or f.tax is None:
            continue
        about = " dan ".join(_OBJECT_WORDS[o] for o in sorted(f.objects) if o in _OBJECT_WORDS)
        q = f"Berapa tarif {f.tax}{' atas ' + about if about else ''}?"
        if q not in out:
            out.append(q)
    return out


def states_like(c: ShownClaim, other: ShownClaim, docs: dict[str, DocumentMeta]) -> bool:
    """Claim ``c`` states a rate like one ``other`` states (the same tax, object, class and regime)."""
    ma, mb = docs.get(c.source.doc_id), docs.get(other.source.doc_id)
    if ma is None or mb is None:
        return False
    return any(like(x, y) for x in facts(c, ma) for y in facts(other, mb))


def like(a: Fact, b: Fact) -> bool:
    """The same kind of fact about the same subject (so different values would be a real conflict)."""
    if a.kind != b.kind or a.kind != "rate":
        return False
    if a.tax is None or a.tax != b.tax:
        return False
    if a.final != b.final or a.classes != b.classes:
        return False
    if _zero(a) != _zero(b):
        # a 0% is zero-rating (exports, UU PPN Pasal 7 ayat (2)) or the case of wrongly applying it: another
        # regime than the tax's rate, never an earlier or lower-ranked value of it
        return False
    if a.objects and b.objects:
        # both name what they are about: they must share it (services vs rent of other assets differ)
        return bool(a.objects & b.objects) and not (
            {"land_building_rent", "other_rent"} <= (a.objects | b.objects)
        )
    return True  # one states the tax's rate without naming an object: the same subject


def _zero(f: Fact) -> bool:
    return bool(re.fullmatch(r"0+(?:[.,]0+)?\s*(?:%|persen|percent)", f.surface.strip(), re.I))


def _level(meta: DocumentMeta) -> int:
    return LEVEL.get(meta.type, 9 if meta.layer == "regulation" else 14)


def _scope_size(meta: DocumentMeta) -> tuple[int, int]:
    return (len(meta.tax_types) or 99, len(meta.entities) or 99)


def decide(a: DocumentMeta, b: DocumentMeta) -> tuple[str, str]:
    """(rule, preferred doc id) for two documents that disagree on a like fact."""
    if a.layer != b.layer:
        return "regulation_over_policy", a.id if a.layer == "regulation" else b.id
    la, lb = _level(a), _level(b)
    if la != lb:
        return "higher_level", a.id if la < lb else b.id
    fa, fb = a.effective_from, b.effective_from
    if fa and fb and fa != fb:
        return "later_effective_date", a.id if fa > fb else b.id
    sa, sb = _scope_size(a), _scope_size(b)
    if sa != sb:
        return "specific_over_general", a.id if sa < sb else b.id
    return "doc_id_order", min(a.id, b.id)


def _type_word(meta: DocumentMeta, lang: str) -> str:
    words = _TYPE_WORDS.get(meta.type)
    if words is None:
        return meta.type
    return words[1] if lang == "en" else words[0]


def explain(
    rule: str, win: DocumentMeta, lose: DocumentMeta, figures: dict[str, tuple[str, ...]], language: str
) -> str:
    """The decision in words, e.g. "UU 7/2021 applies because it took effect later (2022-04-01); ..."."""
    en = language == "en"
    w, lo = win.number, lose.number
    fw, fl = ", ".join(figures.get(win.id, ())), ", ".join(figures.get(lose.id, ()))
    if rule == "regulation_over_policy":
        if en:
            return (
                f"{w} (the regulation) says {fw}; {lo} says {fl}. The company document does not override "
                f"the regulation: it is shown as the company's practice; ask the tax team to align it."
            )
        return (
            f"{w} (peraturan) menyebut {fw}; {lo} menyebut {fl}. Dokumen perusahaan tidak mengubah "
            f"ketentuan peraturan: ia ditampilkan sebagai praktik perusahaan; minta tim pajak "
            f"menyelaraskannya."
        )
    if rule == "higher_level":
        if en:
            return (
                f"{w} ({fw}) applies because it ranks higher: {_type_word(win, 'en')} above "
                f"{_type_word(lose, 'en')} {lo} ({fl})."
            )
        return (
            f"{w} ({fw}) yang dipakai karena tingkatannya lebih tinggi: {_type_word(win, 'id')} di atas "
            f"{_type_word(lose, 'id')} {lo} ({fl})."
        )
    if rule == "later_effective_date":
        d = win.effective_from.isoformat() if win.effective_from else "?"
        if en:
            return f"{w} ({fw}) applies because it took effect later ({d}) than {lo} ({fl})."
        return f"{w} ({fw}) yang dipakai karena mulai berlaku lebih akhir ({d}) daripada {lo} ({fl})."
    if rule == "specific_over_general":
        if en:
            return f"{w} ({fw}) applies because it is the more specific provision here; {lo} says {fl}."
        return f"{w} ({fw}) yang dipakai karena lebih khusus mengatur hal ini; {lo} menyebut {fl}."
    if en:
        return f"{w} says {fw} and {lo} says {fl}; no rule decides between them: the tax team must check."
    return f"{w} menyebut {fw} dan {lo} menyebut {fl}; tidak ada aturan yang memutuskan: tim pajak memeriksa."


#: A monthly payment day: "(di)setor/penyetoran/pembayaran ... tanggal 20 bulan berikutnya" (a table row's
#: "Setor paling lambat: tanggal 15 bulan berikutnya"); never across a sentence, a cell or a "lapor" column.
_PAY_DAY = re.compile(
    r"\b(?:di)?(?:setor|penyetoran|setoran|bayar|pembayaran|dibayar)\w*\b(?:(?!\blapor|\bpelaporan)[^.;|])*?"
    r"\btanggal\s+(\d{1,2})\s+bulan\s+berikutnya",
    re.I,
)
#: The law's ceiling for paying a Masa tax: "paling lama 15 (lima belas) hari setelah saat terutangnya pajak
#: atau berakhirnya Masa Pajak" (KUP Pasal 9(1) and its elucidation's "tidak melampaui").
_PAY_CEILING = re.compile(
    r"(?:pembayaran|penyetoran)[^.]{0,200}?(?:paling\s+(?:lama|lambat)|tidak\s+(?:melampaui|melewati))\s+"
    r"(\d{1,2})\s*(?:\([^)]{0,30}\)\s*)?hari\s+setelah\s+saat\s+terutangnya\s+pajak\s+atau\s+"
    r"(?:berakhirnya\s+)?Masa\s+Pajak",
    re.I,
)


@dataclass(frozen=True)
class PaymentDeadline:
    """A monthly payment deadline a claim states: a company document's day ("tanggal 20 bulan berikutnya") or
    the law's ceiling in days after the Masa ends (``ceiling``)."""

    day: int
    surface: str
    taxes: frozenset[str]  # empty: every Masa tax (the law's ceiling)
    ceiling: bool


def payment_deadlines(c: ShownClaim, meta: DocumentMeta) -> list[PaymentDeadline]:
    """The monthly payment deadlines claim ``c`` states (see module docstring)."""
    if c.is_example:
        return []
    text = c.text if c.quote.strip().startswith("|") else c.quote
    if meta.layer == "regulation":
        m = _PAY_CEILING.search(text)
        if not m:
            return []
        day = int(m.group(1))
        return [
            PaymentDeadline(day, f"paling lama {day} hari setelah Masa Pajak berakhir", frozenset(), True)
        ]
    taxes = set(mentioned_taxes(text))
    if not taxes:
        own = _claim_tax(c, meta)
        taxes = {own} if own else set()
    if re.search(r"\bPPh\s*23\s*/\s*26\b", text):
        taxes |= {"PPh 23", "PPh 26"}
    if re.search(r"\bPPh\s*21\s*/\s*26\b", text):
        taxes |= {"PPh 21", "PPh 26"}
    out: list[PaymentDeadline] = []
    for m in _PAY_DAY.finditer(text):
        clause = re.split(r";|\.\s", text[: m.end()])[-1]
        if re.search(r"\b(?:19|20)\d\d\b", clause):
            continue  # a day for a named period ("Untuk Masa Pajak 2024 ... tanggal 10"): not today's rule
        day = int(m.group(1))
        if taxes and not any(d.day == day for d in out):
            out.append(PaymentDeadline(day, f"tanggal {day} bulan berikutnya", frozenset(taxes), False))
    return out


def deadline_question(c: ShownClaim, meta: DocumentMeta, *, practice: bool = False) -> str | None:
    """What to ask the law when a company document states a payment day ("Batas waktu penyetoran PPh 23 untuk
    suatu Masa Pajak?"), in the law's words, so its ceiling is found however the user worded the question;
    ``practice``: what to ask the company documents (a tax calendar's "Setor paling lambat" column)."""
    for d in payment_deadlines(c, meta):
        if not d.ceiling:
            tax = sorted(d.taxes)[0]
            if practice:
                return f"{tax} setor paling lambat tanggal berapa bulan berikutnya?"
            return f"Batas waktu pembayaran dan penyetoran pajak {tax} yang terutang untuk Masa Pajak?"
    return None


#: "dapat (langsung) <di-verb> ... tanpa (menunggu) <thing>": the act is allowed without the thing.
_PERMITS = re.compile(
    r"\b(?:dapat|boleh|bisa)\s+(?:langsung\s+|tetap\s+)?(di[a-z]+)\b[^.;]*?\btanpa\s+(?:menunggu\s+|adanya\s+"
    r"|perlu\s+)?([a-z]+(?:\s+pajak)?)",
    re.I,
)
#: "hanya dapat <di-verb> bila/jika/apabila/setelah ... <thing> ...": the act needs the thing.
_RESTRICTS = re.compile(
    r"\bhanya\s+(?:dapat|boleh|bisa)\s+(di[a-z]+)\s+(bila|jika|apabila|setelah|dengan)\b([^.;]*)", re.I
)


@dataclass(frozen=True)
class Permission:
    """An act a company document allows without something (``verb`` "dikreditkan", ``without`` "faktur
    pajak")."""

    verb: str
    without: str
    surface: str


def permission(c: ShownClaim) -> Permission | None:
    """The act claim ``c`` allows without something, if it says so (see :data:`_PERMITS`)."""
    m = _PERMITS.search(c.quote)
    if not m:
        return None
    return Permission(m.group(1).lower(), m.group(2).lower(), f"dapat {m.group(1)} tanpa {m.group(2)}")


def restricts(c: ShownClaim, allowed: Permission) -> str | None:
    """The restriction in claim ``c`` of the act ``allowed`` permits ("hanya dapat dikreditkan bila faktur
    pajak ..."), as a short surface, or None."""
    for m in _RESTRICTS.finditer(c.quote):
        if m.group(1).lower() != allowed.verb:
            continue
        condition = m.group(3)
        if re.search(rf"\b{re.escape(allowed.without.split()[0])}\b", condition, re.I):
            words = condition.split(",")[0].split()
            return f"hanya dapat {m.group(1)} {m.group(2)} {' '.join(words[:8])}".strip()
    return None


def restriction_question(allowed: Permission) -> str:
    """What to ask the other sources when a company document allows an act without something ("faktur pajak
    hanya dapat dikreditkan bila faktur pajak" for "dapat langsung dikreditkan ... tanpa faktur pajak")."""
    return f"{allowed.without} hanya dapat {allowed.verb} bila {allowed.without}"


_Pairs = dict[tuple[str, str], tuple[set[str], set[str], str, str, str]]


def _add_pair(pairs: _Pairs, a: tuple[str, str, str], b: tuple[str, str, str], tax: str) -> None:
    """Record that documents ``a`` and ``b`` (doc id, figure surface, location) disagree on ``tax``; keyed in
    doc id order, so each disagreement is one conflict with every figure each side states."""
    (da, sa, la), (db, sb, lb) = sorted((a, b))
    entry = pairs.setdefault((da, db), (set(), set(), la, lb, tax))
    entry[0].add(sa)
    entry[1].add(sb)


def _permission_pairs(claims: Sequence[ShownClaim], docs: dict[str, DocumentMeta]) -> _Pairs:
    """A company document that allows an act without something, against a source allowing it only with it."""
    usable = [
        (c, docs[c.source.doc_id])
        for c in claims
        if c.role in _ANSWER_ROLES
        and not c.is_example
        and not c.applies
        and c.source.doc_id in docs
        and docs[c.source.doc_id].status in ANSWERABLE_STATUSES
    ]
    pairs: _Pairs = {}
    for ca, ma in usable:
        allowed = permission(ca) if ma.layer == "policy" else None
        if allowed is None:
            continue
        for cb, mb in usable:
            if mb.id == ma.id:
                continue
            limit = restricts(cb, allowed)
            if limit is None:
                continue
            tax = _claim_tax(ca, ma) or _claim_tax(cb, mb) or "PPN"
            _add_pair(
                pairs, (ma.id, allowed.surface, ca.source.location), (mb.id, limit, cb.source.location), tax
            )
    return pairs


def _deadline_pairs(claims: Sequence[ShownClaim], docs: dict[str, DocumentMeta]) -> _Pairs:
    """Documents that disagree on a payment deadline: two company days for a common tax, or a company day
    later than the law's ceiling."""
    stated: list[tuple[ShownClaim, DocumentMeta, list[PaymentDeadline]]] = []
    for c in claims:
        if c.role not in _ANSWER_ROLES or c.applies:
            continue
        meta = docs.get(c.source.doc_id)
        if meta is None or meta.status not in ANSWERABLE_STATUSES:
            continue
        ds = payment_deadlines(c, meta)
        if ds:
            stated.append((c, meta, ds))
    pairs: _Pairs = {}
    for (ca, ma, da), (cb, mb, db) in combinations(stated, 2):
        if ma.id == mb.id:
            continue
        for x in da:
            for y in db:
                if x.ceiling and y.ceiling:
                    continue
                if x.ceiling or y.ceiling:
                    law, own = (x, y) if x.ceiling else (y, x)
                    if own.day <= law.day:
                        continue  # the company's day is within the law's ceiling: its practice, no conflict
                    tax = sorted(own.taxes)[0]
                elif not (x.taxes & y.taxes) or x.day == y.day:
                    continue
                else:
                    if any(z.day == x.day for z in db) or any(z.day == y.day for z in da):
                        continue  # the other document also states this day: they agree on it
                    tax = sorted(x.taxes & y.taxes)[0]
                _add_pair(
                    pairs, (ma.id, x.surface, ca.source.location), (mb.id, y.surface, cb.source.location), tax
                )
    return pairs


def detect(
    claims: Sequence[ShownClaim],
    docs: dict[str, DocumentMeta],
    topic: str,
    *,
    language: str = "id",
    payment_days: bool = False,
) -> tuple[Conflict, ...]:
    """Conflicts among shown claims (see module docstring); deterministic order.

    Args:
        claims: the verified claims of one answer.
        docs: document metadata by id.
        topic: the question's tax type (fallback label of a conflict whose tax is unknown).
        language: the question's language, for ``Conflict.explanation``.
        payment_days: weigh payment deadlines too (:func:`payment_deadlines`): only for a question about
            paying; under a filing question the petty-cash "disetor tanggal 20" read as a filing date lost.
    """
    per_claim: list[tuple[ShownClaim, DocumentMeta, list[Fact]]] = []
    for c in claims:
        if c.role not in _ANSWER_ROLES or c.is_example or c.applies:
            continue
        meta = docs.get(c.source.doc_id)
        if meta is None or meta.status not in ANSWERABLE_STATUSES:
            continue  # an amended act's unchanged wording still answers (the verifier checked the date)
        fs = [f for f in facts(c, meta) if f.kind == "rate"]
        if fs:
            per_claim.append((c, meta, fs))
    pairs: _Pairs = {}
    for (ca, ma, fa), (cb, mb, fb) in combinations(per_claim, 2):
        if ma.id == mb.id:
            continue
        for x in fa:
            for y in fb:
                if not like(x, y) or x.keys & y.keys:
                    continue
                if any(x.keys & z.keys for z in fb) or any(y.keys & z.keys for z in fa):
                    continue  # the other claim also states this value: they agree on it
                _add_pair(
                    pairs,
                    (ma.id, x.surface, ca.source.location),
                    (mb.id, y.surface, cb.source.location),
                    x.tax or topic,
                )
    days = _deadline_pairs(claims, docs) if payment_days else {}
    for key, entry in (*days.items(), *_permission_pairs(claims, docs).items()):
        pairs.setdefault(key, entry)
    out: list[Conflict] = []
    for (a, b), (figs_a, figs_b, loc_a, loc_b, tax) in sorted(pairs.items()):
        rule, preferred = decide(docs[a], docs[b])
        figures = {a: tuple(sorted(figs_a)), b: tuple(sorted(figs_b))}
        sources = tuple(
            ConflictSource(
                d, docs[d].number, docs[d].status, docs[d].layer, docs[d].effective_from, figures[d], loc
            )
            for d, loc in ((a, loc_a), (b, loc_b))
        )
        win, lose = (docs[a], docs[b]) if preferred == a else (docs[b], docs[a])
        out.append(Conflict(tax, sources, rule, preferred, explain(rule, win, lose, figures, language)))
    return tuple(out)
