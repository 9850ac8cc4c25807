"""Canonical document metadata: validation of user-written fields and mapping of the corpus format.

Two inputs reach the same ``DocumentMeta``: front matter / sidecars written by people (canonical field
names, validated strictly so a typo never silently drops an access group) and the sample corpus's
``metadata.json`` (its own richer schema, mapped here).  Errors name the file and the field.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kb.errors import MetadataError, short_repr
from kb.model import DOC_STATUSES, DOC_TYPES, PUBLIC_GROUP, REGULATION_TYPES, DocumentMeta
from kb.refs import canonical_key, find_doc_refs, key_from_doc_id

CANONICAL_FIELDS: tuple[str, ...] = (
    "id",
    "title",
    "number",
    "type",
    "jurisdiction",
    "language",
    "tax_types",
    "enacted",
    "effective_from",
    "effective_to",
    "status",
    "amends",
    "amended_by",
    "revokes",
    "revoked_by",
    "source_url",
    "accessed",
    "owner",
    "approved_by",
    "version",
    "entities",
    "access",
    "review_by",
)
#: Optional extras we accept beside the canonical fields.
EXTRA_FIELDS: tuple[str, ...] = (
    "ocr_noisy",
    "short_title",
    "topics",
    "official_url",
    "related_dates",
    "revokes_parts",
)
REQUIRED_FIELDS: tuple[str, ...] = ("id", "title", "number", "type")
_DATE_FIELDS = ("enacted", "effective_from", "effective_to", "accessed", "review_by")
_LIST_FIELDS = (
    "tax_types",
    "amends",
    "amended_by",
    "revokes",
    "revoked_by",
    "entities",
    "access",
    "topics",
    "related_dates",
    "revokes_parts",
)
_RELATED_DATE = re.compile(r"^(?P<key>[A-Z]+ \d+[A-Z]?/(?:19|20)\d\d)=(?P<date>\d{4}-\d\d-\d\d)$")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{1,119}$")
#: a revoked Pasal of another act: "pp-9-2021:pasal-5", "PP 9/2021:pasal-5"
_REVOKED_PART = re.compile(r"^\S.*:pasal-[0-9IVX]+[A-Z]?$")


def _date(path: Path, field: str, value: Any) -> dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise MetadataError(
            path, f"expected an ISO date YYYY-MM-DD, got {short_repr(value)}", field=field
        ) from None


def _str_list(path: Path, field: str, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise MetadataError(path, f"expected a list of strings, got {short_repr(value)}", field=field)
    return tuple(str(v).strip() for v in value if str(v).strip())


def _opt_str(path: Path, field: str, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str | int | float):
        raise MetadataError(path, f"expected text, got {type(value).__name__}", field=field)
    text = str(value).strip()
    return text or None


def meta_from_fields(fields: Mapping[str, Any], path: Path) -> DocumentMeta:
    """Validate canonical fields (front matter or sidecar) into a ``DocumentMeta``.

    Unknown fields are an error rather than ignored: a misspelt ``acess`` would otherwise publish a
    confidential document to everyone.
    """
    if not isinstance(fields, Mapping):
        raise MetadataError(path, "metadata must be a mapping of field: value")
    unknown = sorted(set(fields) - set(CANONICAL_FIELDS) - set(EXTRA_FIELDS))
    if unknown:
        raise MetadataError(path, f"unknown field (allowed: {', '.join(CANONICAL_FIELDS)})", field=unknown[0])
    for name in REQUIRED_FIELDS:
        if fields.get(name) in (None, ""):
            raise MetadataError(path, "is required", field=name)
    doc_id = str(fields["id"]).strip()
    if not _ID_RE.match(doc_id):
        raise MetadataError(
            path, f"must be lower-case letters, digits, '.', '_' or '-', got {short_repr(doc_id)}", field="id"
        )
    doc_type = str(fields["type"]).strip()
    canon_type = {t.lower(): t for t in DOC_TYPES}.get(doc_type.lower())
    if canon_type is None:
        raise MetadataError(
            path, f"unknown type {short_repr(doc_type)} (allowed: {', '.join(DOC_TYPES)})", field="type"
        )
    status = str(fields.get("status") or "in_force").strip()
    if status not in DOC_STATUSES:
        raise MetadataError(
            path, f"unknown status {short_repr(status)} (allowed: {', '.join(DOC_STATUSES)})", field="status"
        )
    dates = {name: _date(path, name, fields.get(name)) for name in _DATE_FIELDS}
    if dates["effective_from"] and dates["effective_to"] and dates["effective_to"] <= dates["effective_from"]:
        raise MetadataError(path, "must be after effective_from", field="effective_to")
    lists = {name: _str_list(path, name, fields.get(name)) for name in _LIST_FIELDS}
    access = lists["access"] or ((PUBLIC_GROUP,) if canon_type in REGULATION_TYPES else ())
    if not access:
        raise MetadataError(
            path, "internal documents must name their access groups (e.g. [finance])", field="access"
        )
    for item in lists["related_dates"]:
        m = _RELATED_DATE.match(item)
        if not m:
            raise MetadataError(
                path,
                f"expected 'KEY=YYYY-MM-DD' (e.g. 'PMK 81/2024=2025-01-01'), got {short_repr(item)}",
                field="related_dates",
            )
        _date(path, "related_dates", m.group("date"))
    for item in lists["revokes_parts"]:
        if not _REVOKED_PART.match(item):
            raise MetadataError(
                path,
                f"expected '<act>:pasal-<n>' (e.g. 'pp-9-2021:pasal-5'), got {short_repr(item)}",
                field="revokes_parts",
            )
    official = _opt_str(path, "official_url", fields.get("official_url"))
    if official is not None and not official.startswith("https://"):
        raise MetadataError(
            path, f"expected an https:// URL, got {short_repr(official)}", field="official_url"
        )
    ocr = fields.get("ocr_noisy", False)
    if not isinstance(ocr, bool):
        raise MetadataError(path, "expected true or false", field="ocr_noisy")
    number = str(fields["number"]).strip()
    if canon_type in REGULATION_TYPES:
        number = (
            find_doc_refs(f"{canon_type} {number}")[0].key
            if find_doc_refs(f"{canon_type} {number}")
            else number
        )
    return DocumentMeta(
        id=doc_id,
        title=str(fields["title"]).strip(),
        number=number,
        type=canon_type,
        jurisdiction=_opt_str(path, "jurisdiction", fields.get("jurisdiction")) or "ID",
        language=_opt_str(path, "language", fields.get("language")) or "id",
        tax_types=lists["tax_types"],
        enacted=dates["enacted"],
        effective_from=dates["effective_from"],
        effective_to=dates["effective_to"],
        status=status,
        amends=lists["amends"],
        amended_by=lists["amended_by"],
        revokes=lists["revokes"],
        revoked_by=lists["revoked_by"],
        source_url=_opt_str(path, "source_url", fields.get("source_url")),
        accessed=dates["accessed"],
        owner=_opt_str(path, "owner", fields.get("owner")),
        approved_by=_opt_str(path, "approved_by", fields.get("approved_by")),
        version=_opt_str(path, "version", fields.get("version")),
        entities=lists["entities"],
        access=access,
        review_by=dates["review_by"],
        ocr_noisy=ocr,
        short_title=_opt_str(path, "short_title", fields.get("short_title")),
        topics=lists["topics"],
        official_url=official,
        related_dates=lists["related_dates"],
        revokes_parts=lists["revokes_parts"],
    )


def related_date(meta: DocumentMeta, key: str) -> dt.date | None:
    """The date metadata records for a related act (``"PMK 81/2024"``), typically one not in the corpus."""
    for item in meta.related_dates:
        m = _RELATED_DATE.match(item)
        if m and m.group("key") == key:
            return dt.date.fromisoformat(m.group("date"))
    return None


# --- the sample corpus's metadata.json -------------------------------------------------------------

_TAX_TYPE_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"\bpph\s*21\b", "PPh 21"),
    (r"\bpph\s*22\b", "PPh 22"),
    (r"\bpph\s*23\b", "PPh 23"),
    (r"\bpph\s*26\b", "PPh 26"),
    (r"\bpph\s*4\s*\(?2\)?", "PPh 4(2)"),
    (r"\bpph\s+final\b|umkm", "PPh Final"),
    (r"\bppn\b|pajak pertambahan nilai", "PPN"),
    (r"\bppnbm\b", "PPnBM"),
    (r"\bkup\b|ketentuan umum", "KUP"),
    (r"\bpajak penghasilan\b|\bpph\b", "PPh"),
    (r"\bbea meterai\b", "Bea Meterai"),
    (r"\bcukai\b", "Cukai"),
)


def _relation_ids(items: list[str]) -> tuple[str, ...]:
    """Corpus relations mix ids ("pp-55-2022") and prose ("PMK 81/2024 (NOT in corpus)"): keep a key each.

    An item that names a provision ("Pasal 2A PP 94/2010 (seen, Pasal 72 b)") is a partial relation: it does
    not make the whole act revoked or amended, so it yields no key (the corpus lists it under
    ``partially_*``).
    """
    out: list[str] = []
    for item in items:
        if re.match(r"\s*pasal\b", item, flags=re.IGNORECASE):
            continue
        key = _act_key(item)
        if key:
            out.append(key)
    return tuple(dict.fromkeys(out))


def _act_key(item: str) -> str | None:
    """The act a corpus relation item starts with: its id ("pp-55-2022 (seen)") or the canonical number of
    the first act it names ("PMK 81/2024 (NOT in corpus)")."""
    head = item.split(" ", 1)[0]
    if re.fullmatch(r"[a-z]+-\d+[a-z]?-(?:19|20)\d\d", head):
        return head
    refs = find_doc_refs(item)
    return refs[0].key if refs else None


def revoked_part(part: str) -> tuple[str, str]:
    """A ``revokes_parts`` entry read as (act, Pasal): "pp-9-2021:pasal-5" -> ("pp-9-2021", "5")."""
    act, _, pasal = part.rpartition(":pasal-")
    return act, pasal.upper()


#: "Pasal 5 pp-9-2021 (seen, Pasal 32 b)", "Pasal 6 dan Pasal 9 pp-9-2021 (...)": whole Pasal, then the act
_PASALS_OF_ACT = re.compile(
    r"^\s*(?P<pasals>Pasal\s+[0-9]+[A-Z]?(?:\s*(?:,|dan|,\s*dan)\s*Pasal\s+[0-9]+[A-Z]?)*)\s+"
    r"(?P<act>(?:[a-z]+-\d+[a-z]?-(?:19|20)\d\d|(?:UU|PP|PMK|Perppu|Peraturan|Undang)\b).*)$",
    re.IGNORECASE,
)


def _revoked_parts(items: list[str]) -> tuple[str, ...]:
    """The whole Pasal of another act a corpus ``revokes`` item names: "Pasal 6 dan Pasal 9 pp-9-2021 (seen,
    Pasal 74 b)" -> ("pp-9-2021:pasal-6", "pp-9-2021:pasal-9").  Only when the act follows the Pasal
    directly: "Pasal 2 ayat (3) PP 80/2010" revokes an ayat, which no validity window can end (a Pasal's
    passages are not cut by ayat), and is left out."""
    out: list[str] = []
    for item in items:
        m = _PASALS_OF_ACT.match(item)
        if not m:
            continue
        key = _act_key(m.group("act"))
        if key is None:
            continue
        out.extend(
            f"{key}:pasal-{p.upper()}" for p in re.findall(r"Pasal\s+([0-9]+[A-Z]?)", m.group("pasals"), re.I)
        )
    return tuple(dict.fromkeys(out))


def _corpus_status(raw: str, revoked_by: tuple[str, ...], amended_by: tuple[str, ...]) -> str:
    low = raw.lower()
    if revoked_by or low.startswith("dicabut"):
        return "revoked"
    if amended_by or "sebagaimana diubah" in low or "amended by" in low:
        return "amended"
    return "in_force"


def meta_from_corpus(raw: Mapping[str, Any], path: Path, folder_id: str) -> DocumentMeta:
    """Map the sample corpus's ``metadata.json`` to canonical metadata (the folder name is the id)."""
    try:
        doc_type = str(raw["type"]).upper()
        number = canonical_key(doc_type, raw["number"], raw["year"])
        title = str(raw["title"])
    except (KeyError, TypeError, ValueError) as exc:
        raise MetadataError(
            path, "corpus metadata.json lacks type/number/year/title", field=str(exc)
        ) from None
    if raw.get("id") and raw["id"] != folder_id:
        raise MetadataError(
            path,
            f"id {short_repr(raw['id'])} differs from its folder name {short_repr(folder_id)}",
            field="id",
        )
    if key_from_doc_id(folder_id) not in (None, number):
        raise MetadataError(
            path, f"folder {short_repr(folder_id)} does not match number {short_repr(number)}", field="number"
        )
    relations: dict[str, list[str]] = {
        name: list(raw.get(name) or []) for name in ("amends", "amended_by", "revokes", "revoked_by")
    }
    related_dates: list[str] = []
    for item in raw.get("absent_relations") or ():
        # {"relation": "amends", "number": "PMK 81/2024", "date": "2025-01-01", "note": ...}: an act the text
        # names that is not in the corpus, kept with its number (and date when known), never replaced by the
        # nearest act present
        if not isinstance(item, Mapping) or item.get("relation") not in relations or not item.get("number"):
            raise MetadataError(
                path,
                "absent_relations items need a relation (amends, ...) and a number",
                field="absent_relations",
            )
        key = find_doc_refs(str(item["number"]))
        if not key:
            raise MetadataError(
                path, f"unreadable act number {short_repr(item['number'])}", field="absent_relations"
            )
        relations[item["relation"]].append(key[0].key)
        if item.get("date"):
            related_dates.append(f"{key[0].key}={item['date']}")
    revoked_by = _relation_ids(relations["revoked_by"])
    amended_by = _relation_ids(relations["amended_by"])
    topics = tuple(str(t) for t in raw.get("topics") or ())
    haystack = " ".join((title, raw.get("short_title") or "", *topics)).lower()
    tax_types = tuple(dict.fromkeys(t for rx, t in _TAX_TYPE_PATTERNS if re.search(rx, haystack)))
    effective = raw.get("effective_date") or raw.get("date_promulgated") or raw.get("date_enacted")
    src = raw.get("source") or {}
    url = None
    if src.get("repo") and src.get("path"):
        url = f"https://github.com/{src['repo']}/blob/{src.get('commit') or 'HEAD'}/{src['path']}"
    fields: dict[str, Any] = {
        "id": folder_id,
        "title": title,
        "number": number,
        "type": doc_type,
        "language": raw.get("language") or "id",
        "tax_types": list(tax_types),
        "enacted": raw.get("date_enacted") or raw.get("date_promulgated"),
        "effective_from": effective,
        # an act whose every change a later act restated in full stops applying then (UU 7/1991's ayat-level
        # changes to UU PPh end when UU 10/1994 restates those Pasal, 1995-01-01)
        "effective_to": raw.get("effective_to"),
        "status": _corpus_status(str(raw.get("status", "")), revoked_by, amended_by),
        "amends": list(_relation_ids(relations["amends"])),
        "amended_by": list(amended_by),
        "revokes": list(_relation_ids(relations["revokes"])),
        "revokes_parts": list(_revoked_parts(relations["revokes"])),
        "revoked_by": list(revoked_by),
        "source_url": url,
        "access": [PUBLIC_GROUP],
        "ocr_noisy": bool((raw.get("quality") or {}).get("ocr_noisy", False)),
        "short_title": raw.get("short_title"),
        "topics": list(topics),
        "official_url": raw.get("official_url"),
        "related_dates": list(dict.fromkeys(related_dates)),
    }
    return meta_from_fields(fields, path)
