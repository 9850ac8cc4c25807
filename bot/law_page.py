"""``GET /law/<doc-id-or-name>?as_of=YYYY-MM-DD``: the consolidated law as a citation link target.

Served by the processes a deployment already runs, next to ``/healthz`` and ``/metrics``: the Slack
front end's WSGI wrapper (HTTP mode and Socket Mode's health port) and the Teams aiohttp app.  The page
is :func:`kb.consolidate.render_html` of :func:`kb.consolidate.consolidate`, byte for byte what
``dasar law --html`` writes, with one ``<section id="pasal-N">`` per Pasal (links from
:func:`bot.law_links.law_link` end in ``#pasal-N``).

WHY only public statutes: the endpoint has no authentication (a link in a chat must open in any
browser), so it serves regulations readable by everyone (:func:`bot.law_links.is_public_statute`) and
nothing else.  An unknown name, a restricted or quarantined document and an internal document all get the
same 404 page, which never repeats the requested name, so the endpoint cannot be used to learn which
restricted ids exist.  ``as_of`` defaults to today; anything but a real ``YYYY-MM-DD`` date is 400.
Everything a document contributes is HTML-escaped by the renderer (documents are data).

:func:`law_page` is framework-neutral (status, headers, body); :func:`wsgi_law` and
:func:`aiohttp_law_handler` adapt it to the two servers, and :func:`store_of` finds the process's
knowledge base behind a turn service or runtime.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from bot.law_links import LAW_PATH, is_public_statute
from kb.consolidate import consolidate, render_html
from kb.errors import NotFoundError
from kb.store.protocol import KnowledgeStore

logger = logging.getLogger(__name__)

#: aiohttp route of the view (the name may hold a "/", as in "UU 8/1983").
AIOHTTP_ROUTE = LAW_PATH + "{law:.+}"
#: Longer names are not looked up (no stored document has one).
MAX_NAME = 200

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_HEADERS = (
    ("Content-Type", "text/html; charset=utf-8"),
    ("X-Content-Type-Options", "nosniff"),
    # the page is inline CSS and links; nothing else may load or run
    (
        "Content-Security-Policy",
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'",
    ),
    ("Referrer-Policy", "no-referrer"),
)


def _message_page(title: str, message: str) -> str:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title></head><body><h1>{title}</h1><p>{message}</p></body></html>\n"
    )


#: The one 404 page: unknown, restricted, quarantined and internal documents are indistinguishable.
NOT_FOUND_PAGE = _message_page(
    "Not found",
    "No law by that name or id is published here. This page shows regulations readable by everyone; "
    "try a document id such as uu-8-1983 or a name such as UU PPN.",
)
BAD_DATE_PAGE = _message_page(
    "Bad request", "as_of must be one date written YYYY-MM-DD, for example ?as_of=2022-05-01."
)
ERROR_PAGE = _message_page("Server error", "The law could not be read; try again later.")


@dataclass(frozen=True)
class LawPage:
    """An HTTP answer: status, headers and the UTF-8 HTML body."""

    status: int
    body: str
    cache: bool = False

    @property
    def reason(self) -> str:
        return {200: "OK", 400: "Bad Request", 404: "Not Found"}.get(self.status, "Internal Server Error")

    @property
    def headers(self) -> list[tuple[str, str]]:
        cache = "public, max-age=300" if self.cache else "no-store"
        return [*_HEADERS, ("Cache-Control", cache)]


def parse_as_of(values: list[str], today: dt.date) -> dt.date | None:
    """The ``as_of`` query values -> the date (today when absent); None when not exactly one real date."""
    if not values:
        return today
    if len(values) != 1 or not _DATE.match(values[0]):
        return None
    try:
        return dt.date.fromisoformat(values[0])
    except ValueError:  # 2022-02-30
        return None


def law_page(store: KnowledgeStore | None, law: str, as_of_values: list[str], *, today: dt.date) -> LawPage:
    """The page for ``GET /law/<law>?as_of=...`` (``law`` already URL-decoded)."""
    as_of = parse_as_of(as_of_values, today)
    if as_of is None:
        return LawPage(400, BAD_DATE_PAGE)
    name = law.strip()
    if store is None or not name or len(name) > MAX_NAME:
        return LawPage(404, NOT_FOUND_PAGE)
    try:
        view = consolidate(store, name, as_of)  # reads only documents readable by everyone
        stored = store.get_document(view.doc_id)
    except NotFoundError:
        return LawPage(404, NOT_FOUND_PAGE)
    except Exception:
        logger.exception("law view failed")
        return LawPage(500, ERROR_PAGE)
    if stored is None or stored.quarantine_reason is not None or not is_public_statute(stored.meta):
        return LawPage(404, NOT_FOUND_PAGE)  # e.g. an internal FAQ readable by everyone: not statutory text
    return LawPage(200, render_html(view), cache=True)


def store_of(*holders: Any) -> KnowledgeStore | None:
    """The knowledge base of the first holder that has one: a :class:`bot.runtime.Runtime` (``.store``)
    or a turn service over one (``.services.store``); None for stand-ins without a knowledge base."""
    for holder in holders:
        services = getattr(holder, "services", holder)
        store = getattr(services, "store", None) if services is not None else None
        if store is not None:
            return store  # type: ignore[no-any-return]
    return None


def wsgi_law(
    environ: dict[str, Any], start_response: Callable[..., Any], store: Callable[[], KnowledgeStore | None]
) -> Iterable[bytes]:
    """WSGI answer to a ``GET`` whose ``PATH_INFO`` starts with :data:`~bot.law_links.LAW_PATH`."""
    # PEP 3333: PATH_INFO is the URL-decoded bytes as latin-1; names are UTF-8
    raw = str(environ.get("PATH_INFO", ""))[len(LAW_PATH) :]
    try:
        law = raw.encode("latin-1").decode("utf-8")
    except UnicodeError:
        law = ""
    query = parse_qs(str(environ.get("QUERY_STRING", "")), keep_blank_values=True)
    page = law_page(store(), law, query.get("as_of", []), today=dt.date.today())
    body = page.body.encode("utf-8")
    start_response(f"{page.status} {page.reason}", [*page.headers, ("Content-Length", str(len(body)))])
    return [body]


def aiohttp_law_handler(store: Callable[[], KnowledgeStore | None]) -> Callable[[Any], Any]:
    """An aiohttp handler for :data:`AIOHTTP_ROUTE`; the store is read in a worker thread."""
    import asyncio

    from aiohttp import web

    async def handler(request: web.Request) -> web.Response:
        law, as_of = request.match_info["law"], request.query.getall("as_of", [])
        # the store may open on first use: that and the reads run off the event loop
        page = await asyncio.to_thread(lambda: law_page(store(), law, as_of, today=dt.date.today()))
        return web.Response(status=page.status, body=page.body.encode("utf-8"), headers=dict(page.headers))

    return handler
