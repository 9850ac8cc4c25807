"""Citation links to the consolidated law view: ``https://host/law/<doc>?as_of=YYYY-MM-DD#pasal-N``.

``GET /law/<doc>`` (:mod:`bot.law_page`) serves :func:`kb.consolidate.render_html` from the front-end
processes, unauthenticated, and only for regulations readable by everyone (:func:`is_public_statute`).
:func:`law_link` builds the link a citation carries; it is pure (no store, no settings) so the citation
builder passes what it already holds: the public base URL (``Settings.public_url``,
``DASAR_PUBLIC_URL``), the cited chunk's document, location and provision, and the answer's date.

The provision matters for wording restated by an amending act: a chunk of UU 7/2021 that restates
Pasal 7 UU PPN has ``provision="uu-8-1983:pasal-7"`` and its link opens UU 8/1983 as it stood on the
date (where that wording is shown as coming from UU 7/2021), not UU 7/2021's own articles.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import quote

from kb.model import PUBLIC_GROUP, DocumentMeta
from kb.refs import find_doc_refs

#: Path prefix of the consolidated view on the front ends' HTTP servers.
LAW_PATH = "/law/"

_PROVISION = re.compile(r"^(?P<doc>[^:\s]+):pasal-(?P<pasal>[0-9]+[A-Za-z]*|[IVXLC]+)$")
_LOCATION_PASAL = re.compile(r"^Pasal\s+(?P<pasal>[0-9]+[A-Z]*|[IVXLC]+)\b")


def is_public_statute(meta: DocumentMeta) -> bool:
    """Whether the document may be shown on the public, unauthenticated law view: a regulation (statutory
    text) whose access groups include ``everyone``.  Internal documents never qualify, even public ones."""
    return meta.is_regulation and PUBLIC_GROUP in meta.access


def law_link(
    base_url: str | None,
    doc_id: str,
    location: str | None,
    as_of: dt.date,
    readable_by_everyone: bool,
    *,
    provision: str | None = None,
) -> str | None:
    """The link to the law as it stood on ``as_of``, at the cited Pasal; None when there is none to give.

    Args:
        base_url: the deployment's public base URL (``Settings.public_url``, already validated:
            ``https://host[/prefix]`` without a trailing slash); None when not configured.
        doc_id: the cited document's id (``uu-7-2021``).
        location: the cited chunk's location ("Pasal 7 ayat (1)"); its Pasal becomes the anchor when no
            ``provision`` is given and the location names no other act.
        as_of: the date the answer applies to (the page shows the wording in force then).
        readable_by_everyone: :func:`is_public_statute` of the cited document; False gives None (the
            public page would answer 404 anyway, and a link must not reveal a restricted id).
        provision: the cited chunk's provision (``uu-8-1983:pasal-7``); when given it decides the page
            (the base law) and the anchor.

    Returns:
        ``https://host/law/uu-8-1983?as_of=2022-05-01#pasal-7``, a link without anchor when the location
        has no Pasal of the page, or None (no base URL, not readable by everyone, no document).
    """
    if not base_url or not readable_by_everyone or not doc_id:
        return None
    page, anchor = doc_id, None
    m = _PROVISION.match(provision or "")
    if m:
        page, anchor = m.group("doc"), m.group("pasal")
    elif location:
        loc = _LOCATION_PASAL.match(location.strip())
        # "Pasal 7 UU 8/1983 (...)" is a Pasal of another act; this page has no such anchor
        if loc and not find_doc_refs(location):
            anchor = loc.group("pasal")
    url = f"{base_url.rstrip('/')}{LAW_PATH}{quote(page, safe='')}?as_of={as_of.isoformat()}"
    return f"{url}#pasal-{quote(anchor, safe='')}" if anchor else url
