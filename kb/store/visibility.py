"""The filter-first predicates, written once for every SQL backend.

Why one module: the visibility predicate is the access-control boundary of the knowledge base.  Two
hand-kept copies (SQLite and PostgreSQL) could drift apart one condition at a time; here each backend
only says how its dialect spells a placeholder, a list membership, a table and a date, and both get
the same conditions in the same order.  The statements that are nothing but a predicate (routed chunks,
visible documents) are built here whole.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kb.model import ANSWERABLE_STATUSES
from kb.store.protocol import SearchFilter


@dataclass(frozen=True)
class Dialect:
    """How one SQL backend spells what the predicates need."""

    placeholder: str  # "?" (sqlite3) or "%s" (psycopg)
    table_prefix: str  # "" or "kb_"
    false: str  # a predicate that is never true
    indexed: str  # "the chunk is a retrieval unit"
    array_params: bool  # list membership as "= ANY(%s)" with one list parameter (PostgreSQL)
    date: Callable[[dt.date], Any]  # how a date is passed as a parameter

    def table(self, name: str) -> str:
        return f"{self.table_prefix}{name}"

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column`` is one of ``values`` (never called with an empty list)."""
        if self.array_params:
            return f"{column} = ANY({self.placeholder})", [list(values)]
        return f"{column} IN ({','.join([self.placeholder] * len(values))})", list(values)


SQLITE = Dialect(
    placeholder="?",
    table_prefix="",
    false="0",
    indexed="c.indexed = 1",
    array_params=False,
    date=dt.date.isoformat,
)
POSTGRES = Dialect(
    placeholder="%s",
    table_prefix="kb_",
    false="FALSE",
    indexed="c.indexed",
    array_params=True,
    date=lambda d: d,
)


def visible_predicate(
    flt: SearchFilter, dialect: Dialect, *, chunk_level: bool = True
) -> tuple[str, list[Any]]:
    """The predicate over ``d`` (documents) and, with ``chunk_level``, ``c`` (chunks) that a caller may see.

    Access groups, answerable status, not quarantined, the document's and the chunk's validity windows at
    ``flt.as_of``, then the optional narrowing (jurisdiction, language, entities, tax types, documents).
    """
    groups = sorted(flt.groups)
    if not groups:
        return dialect.false, []
    ph = dialect.placeholder
    asof = dialect.date(flt.as_of)
    status_sql, status_params = dialect.one_of("d.status", sorted(ANSWERABLE_STATUSES))
    group_sql, group_params = dialect.one_of("a.grp", groups)
    sql = [
        "d.quarantine_reason IS NULL",
        status_sql,
        f"EXISTS (SELECT 1 FROM {dialect.table('doc_access')} a WHERE a.doc_id = d.id AND {group_sql})",
        f"(d.effective_from IS NULL OR d.effective_from <= {ph})",
        f"(d.effective_to IS NULL OR {ph} < d.effective_to)",
    ]
    params: list[Any] = [*status_params, *group_params, asof, asof]
    if chunk_level:
        sql += [
            dialect.indexed,
            f"(c.valid_from IS NULL OR c.valid_from <= {ph})",
            f"(c.valid_to IS NULL OR {ph} < c.valid_to)",
        ]
        params += [asof, asof]
    if flt.jurisdiction:
        sql.append(f"d.jurisdiction = {ph}")
        params.append(flt.jurisdiction)
    if flt.language:
        sql.append(f"d.language = {ph}")
        params.append(flt.language)
    values = dialect.table("doc_values")
    for field, wanted, always in (
        ("entity", flt.entities, flt.enforce_entities),
        ("tax_type", flt.tax_types, False),
    ):
        if not wanted and not always:
            continue
        # a document that names none applies to all; one that names some must name a wanted one
        # (entities are access: with ``enforce_entities`` a reader of no entity sees entity-free documents)
        names_none = f"NOT EXISTS (SELECT 1 FROM {values} v WHERE v.doc_id = d.id AND v.field = '{field}')"
        if not wanted:
            sql.append(names_none)
            continue
        value_sql, value_params = dialect.one_of("v.value", sorted(wanted))
        sql.append(
            f"({names_none} OR "
            f"EXISTS (SELECT 1 FROM {values} v WHERE v.doc_id = d.id AND v.field = '{field}' AND "
            f"{value_sql}))"
        )
        params.extend(value_params)
    if flt.doc_ids:
        ids_sql, ids_params = dialect.one_of("d.id", sorted(flt.doc_ids))
        sql.append(ids_sql)
        params.extend(ids_params)
    return " AND ".join(sql), params


def _routed_predicate(
    provisions: Sequence[str], doc_pasal: Sequence[tuple[str, str | None, str | None]], dialect: Dialect
) -> tuple[str, list[Any]] | None:
    """Chunks a query names outright: by provision key, or by document + Pasal (+ ayat); None when none."""
    ph = dialect.placeholder
    ors: list[str] = []
    params: list[Any] = []
    if provisions:
        prov_sql, prov_params = dialect.one_of("c.provision", list(provisions))
        ors.append(prov_sql)
        params.extend(prov_params)
    for doc_id, pasal, ayat in doc_pasal:
        cond = f"c.doc_id = {ph}"
        params.append(doc_id)
        if pasal:
            cond += f" AND c.pasal = {ph}"
            params.append(pasal)
        if ayat:
            cond += f" AND c.ayat = {ph}"
            params.append(ayat)
        ors.append(f"({cond})")
    if not ors:
        return None
    return f"({' OR '.join(ors)})", params


def routed_query(
    flt: SearchFilter,
    provisions: Sequence[str],
    doc_pasal: Sequence[tuple[str, str | None, str | None]],
    limit: int,
    dialect: Dialect,
) -> tuple[str, list[Any]] | None:
    """The statement for the visible chunks a query names outright, in document order (None: names none)."""
    routed = _routed_predicate(provisions, doc_pasal, dialect)
    if routed is None:
        return None
    where, params = visible_predicate(flt, dialect)
    sql = (
        f"SELECT c.id FROM {dialect.table('chunks')} c "
        f"JOIN {dialect.table('documents')} d ON d.id = c.doc_id "
        f"WHERE {where} AND {routed[0]} ORDER BY c.doc_id, c.seq LIMIT {dialect.placeholder}"
    )
    return sql, [*params, *routed[1], limit]


def visible_documents_query(flt: SearchFilter, dialect: Dialect) -> tuple[str, list[Any]]:
    """The statement for the ids of the documents ``flt`` lets through."""
    where, params = visible_predicate(flt, dialect, chunk_level=False)
    return f"SELECT d.id FROM {dialect.table('documents')} d WHERE {where}", params
