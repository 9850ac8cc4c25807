"""Turn files on disk into ``SourceDocument`` records: metadata + extracted text + the original bytes.

Three input shapes are accepted:

* Markdown / TXT with YAML front matter (``---`` block first in the file);
* PDF with a text layer and a sidecar ``<name>.meta.yaml`` holding the canonical fields;
* the sample-corpus folder layout ``<id>/text.txt + metadata.json`` (+ optional ``source.md``).

A regulation's text loses its page furniture here (:mod:`kb.pages`: page numbers, copy numbers, running
heads, catchwords), whatever shape it came in: that text is what is chunked and stored.

Loading is pure: nothing is written here, so a bad file can never leave half a document behind.

YAML is read defensively (:func:`load_yaml_fields`): the event stream is scanned first, in time linear in
the text, and any anchor (``&a``) or alias (``*a``) is refused with the file and line -- metadata never
needs them, and nested aliases ("billion laughs") expand a 300-byte front matter into gigabytes.  Nesting
deeper than :data:`MAX_YAML_DEPTH` is refused too (the constructor recurses).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kb.errors import ExtractionError, IngestError, MetadataError, short_text
from kb.metadata import meta_from_corpus, meta_from_fields
from kb.model import REGULATION_TYPES, DocumentMeta
from kb.pages import remove_page_furniture

TEXT_SUFFIXES = (".md", ".markdown", ".txt")
#: Deepest nesting of lists/mappings accepted in front matter or a sidecar (metadata needs 2).
MAX_YAML_DEPTH = 20
#: libyaml's parser when PyYAML was built with it (about 10x faster), else the pure-Python one.
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SIDECAR_SUFFIX = ".meta.yaml"


@dataclass(frozen=True)
class SourceDocument:
    """One loaded input; ``content_hash`` covers text and metadata, so either changing is a new version."""

    meta: DocumentMeta
    text: str
    original: bytes
    original_name: str
    source_path: str
    content_hash: str


@dataclass(frozen=True)
class Candidate:
    """An input found on disk, before loading: ``kind`` is ``corpus``, ``text`` or ``pdf``."""

    path: Path
    kind: str


def discover(paths: Iterable[Path]) -> tuple[list[Candidate], list[IngestError]]:
    """Expand files and folders into load candidates, in a deterministic (sorted) order."""
    found: dict[Path, Candidate] = {}
    errors: list[IngestError] = []
    for root in paths:
        root = Path(root)
        if not root.exists():
            errors.append(IngestError(root, "no such file or directory"))
            continue
        if root.is_file():
            cand = _classify(root)
            if cand is None:
                errors.append(
                    IngestError(root, "unsupported file type (use .md, .txt, .pdf or a corpus folder)")
                )
            else:
                found[cand.path] = cand
            continue
        for path in sorted(root.rglob("*")):
            if any(part.startswith(".") for part in path.relative_to(root).parts):
                continue
            cand = _classify(path) if path.is_file() or (path / "text.txt").is_file() else None
            if cand is not None:
                found[cand.path] = cand
    return [found[p] for p in sorted(found)], errors


def _classify(path: Path) -> Candidate | None:
    if path.is_dir():
        return Candidate(path, "corpus") if (path / "metadata.json").is_file() else None
    if path.name in ("text.txt", "metadata.json", "source.md") and (path.parent / "metadata.json").is_file():
        return Candidate(path.parent, "corpus")
    if path.name.endswith(SIDECAR_SUFFIX) or path.name in ("index.json", "README.md"):
        return None
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return Candidate(path, "text")
    if suffix == ".pdf":
        return Candidate(path, "pdf")
    return None


def load(candidate: Candidate) -> SourceDocument:
    """Load one candidate or raise an ``IngestError`` naming the file and field."""
    if candidate.kind == "corpus":
        doc = _load_corpus(candidate.path)
    elif candidate.kind == "pdf":
        doc = _load_pdf(candidate.path)
    else:
        doc = _load_text(candidate.path)
    return _without_page_furniture(doc)


def _without_page_furniture(doc: SourceDocument) -> SourceDocument:
    """A printed regulation's page numbers, running heads and catchwords are not its text (kb.pages)."""
    if doc.meta.type not in REGULATION_TYPES:
        return doc
    cleaned = remove_page_furniture(doc.text)
    if cleaned.text == doc.text or not cleaned.text.strip():
        return doc
    return dataclasses.replace(doc, text=cleaned.text)


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(hashlib.sha256(part).digest())
    return h.hexdigest()


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ExtractionError(path, f"cannot read file: {exc.strerror}") from None


def _decode(path: Path, data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExtractionError(path, f"is not UTF-8 text (byte {exc.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _require_text(path: Path, text: str) -> str:
    if not text.strip():
        raise ExtractionError(path, "has no text to index", field="text")
    return text


def _load_corpus(folder: Path) -> SourceDocument:
    meta_path, text_path = folder / "metadata.json", folder / "text.txt"
    meta_bytes = _read_bytes(meta_path)
    try:
        raw = json.loads(meta_bytes.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        raise MetadataError(meta_path, f"is not valid JSON ({exc})", line=line) from None
    meta = meta_from_corpus(raw, meta_path, folder.name)
    if not text_path.is_file():
        raise ExtractionError(text_path, "is missing (corpus folders need text.txt beside metadata.json)")
    data = _read_bytes(text_path)
    text = _require_text(text_path, _decode(text_path, data))
    source = folder / "source.md"
    original = source.read_bytes() if source.is_file() else data
    return SourceDocument(
        meta,
        text,
        original,
        source.name if source.is_file() else text_path.name,
        str(folder),
        _digest(data, meta_bytes),
    )


def _yaml_problem(path: Path, exc: yaml.YAMLError, first_line: int, what: str) -> MetadataError:
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + first_line if mark is not None else None
    problem = getattr(exc, "problem", None) or "invalid YAML"
    return MetadataError(path, f"malformed {what}: {short_text(str(problem))}", line=line)


def check_yaml_events(path: Path, text: str, *, first_line: int = 1, what: str = "YAML") -> None:
    """Refuse anchors, aliases and deep nesting by scanning parse events (linear time, nothing built).

    ``first_line`` is the file line of the text's first line, so errors point into the file.
    """
    depth = 0
    refuse = "are not allowed in document metadata -- write the value out"
    try:
        for event in yaml.parse(text, Loader=_YAML_LOADER):
            line = event.start_mark.line + first_line if event.start_mark is not None else None
            name = short_text(str(getattr(event, "anchor", None) or ""))
            if isinstance(event, yaml.AliasEvent):
                raise MetadataError(
                    path, f"{what} uses a YAML alias (*{name}); aliases and anchors {refuse}", line=line
                )
            if getattr(event, "anchor", None) is not None:
                raise MetadataError(
                    path, f"{what} defines a YAML anchor (&{name}); aliases and anchors {refuse}", line=line
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    raise MetadataError(
                        path, f"{what} is nested deeper than {MAX_YAML_DEPTH} levels", line=line
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:
        raise _yaml_problem(path, exc, first_line, what) from None


def load_yaml_fields(path: Path, text: str, *, first_line: int = 1, what: str = "YAML") -> Any:
    """``yaml.safe_load`` after :func:`check_yaml_events`; errors are ``MetadataError`` with file and line."""
    check_yaml_events(path, text, first_line=first_line, what=what)
    try:
        return yaml.load(text, Loader=_YAML_LOADER) or {}  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        raise _yaml_problem(path, exc, first_line, what) from None
    except (ValueError, OverflowError, RecursionError) as exc:
        # e.g. an integer of 100 000 digits: Python's int() refuses it inside the constructor.
        raise MetadataError(path, f"malformed {what}: {short_text(str(exc))}") from None


def split_front_matter(path: Path, raw: str) -> tuple[dict[str, Any], str]:
    """Split ``---`` YAML front matter from the body; errors carry the line number in the file."""
    lines = raw.split("\n")
    if not lines or lines[0].strip() != "---":
        raise MetadataError(path, "missing YAML front matter (the file must start with a '---' line)", line=1)
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() in ("---", "..."))
    except StopIteration:
        raise MetadataError(path, "front matter is not closed by a '---' line", line=1) from None
    fields = load_yaml_fields(path, "\n".join(lines[1:end]), first_line=2, what="front matter")
    if not isinstance(fields, dict):
        raise MetadataError(path, "front matter must be a mapping of field: value", line=2)
    body = "\n".join(lines[end + 1 :])
    return fields, body


def _load_text(path: Path) -> SourceDocument:
    data = _read_bytes(path)
    fields, body = split_front_matter(path, _decode(path, data))
    meta = meta_from_fields(fields, path)
    return SourceDocument(
        meta, _require_text(path, body.strip("\n") + "\n"), data, path.name, str(path), _digest(data)
    )


def sidecar_for(pdf: Path) -> Path:
    return pdf.with_name(pdf.stem + SIDECAR_SUFFIX)


def _load_pdf(path: Path) -> SourceDocument:
    sidecar = sidecar_for(path)
    if not sidecar.is_file():
        raise MetadataError(sidecar, f"sidecar metadata for {path.name} is missing", field="id")
    side_bytes = _read_bytes(sidecar)
    fields = load_yaml_fields(sidecar, _decode(sidecar, side_bytes), first_line=1, what="YAML")
    meta = meta_from_fields(fields, sidecar)
    data = _read_bytes(path)
    text = _pdf_text(path, data)
    return SourceDocument(
        meta, _require_text(path, text), data, path.name, str(path), _digest(data, side_bytes)
    )


def _pdf_text(path: Path, data: bytes) -> str:
    import io

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise ExtractionError(path, "is encrypted; export an unencrypted copy")
        pages = [(page.extract_text() or "") for page in reader.pages]
    except ExtractionError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise ExtractionError(path, f"is not a readable PDF ({type(exc).__name__}: {exc})") from None
    text = "\n".join(p.replace("\r\n", "\n").strip("\n") for p in pages)
    if not text.strip():
        raise ExtractionError(path, "has no text layer (scanned PDF?); OCR it first", field="text")
    return text + "\n"


def iter_loaded(candidates: Iterable[Candidate]) -> Iterator[SourceDocument | IngestError]:
    """Load each candidate, yielding the error in its place instead of stopping the batch."""
    for cand in candidates:
        try:
            yield load(cand)
        except IngestError as exc:
            yield exc
