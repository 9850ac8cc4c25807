"""Audit log of turns: who (principal id), what (hash of the masked question), which documents were cited,
the outcome and timings -- never raw text.

One JSON object per line, appended; the embedded default writes a local file, production can point
the same file at a log shipper.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class AuditRecord:
    at: str
    reference_id: str
    principal_id: str
    platform: str
    question_hash: str
    status: str
    cited_documents: tuple[str, ...] = ()
    cited_chunks: tuple[str, ...] = ()
    ticket_id: str | None = None
    escalation_reason: str | None = None
    injection_flags: tuple[str, ...] = ()
    pii_types: tuple[str, ...] = ()
    timings_ms: dict[str, float] = field(default_factory=dict)


def question_hash(masked_text: str) -> str:
    return hashlib.sha256(masked_text.encode()).hexdigest()[:16]


class AuditLog(Protocol):
    def write(self, record: AuditRecord) -> None: ...


class MemoryAuditLog:
    def __init__(self) -> None:
        self.records: list[AuditRecord] = []

    def write(self, record: AuditRecord) -> None:
        self.records.append(record)


class JsonlAuditLog:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def write(self, record: AuditRecord) -> None:
        line = json.dumps(asdict(record), ensure_ascii=False, sort_keys=True)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")
