"""An in-test :class:`~bot.messages.TurnService` returning realistic ``dasar ask --json`` answers.

The answer objects use real corpus facts (UU 7/2021 "UU HPP" Pasal 7 ayat (1): VAT 11% from
1 April 2022; the tax-team-only PPh 26 memo) so the rendering is checked on the real shape.  It
also behaves like the real turn where the front end depends on it: the shared-channel audience
narrows the public answer and yields a ``private_answer``; ``escalate`` is idempotent per thread.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from bot.messages import InboundMessage, Reply

UU_HPP_SOURCE = {
    "doc_id": "uu-7-2021",
    "number": "UU 7/2021",
    "title": "Harmonisasi Peraturan Perpajakan",
    "location": "Pasal 7 ayat (1)",
    "effective_from": "2021-10-29",
    "effective_to": None,
    "status": "berlaku",
    "url": "https://peraturan.go.id/id/uu-no-7-tahun-2021",
    "ocr_noisy": False,
}

VAT_ANSWER: dict[str, Any] = {
    "status": "answered",
    "language": "id",
    "answer": "Tarif PPN sejak 1 April 2022 adalah 11% (UU 7/2021 Pasal 7 ayat (1) huruf a).",
    "claims": [
        {
            "text": "Tarif PPN sebesar 11% berlaku mulai 1 April 2022.",
            "quote": "a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;",
            "layer": "regulation",
            "is_example": False,
            "support": "entailed",
            "source": UU_HPP_SOURCE,
        }
    ],
    "unsupported_claims": [],
    "clarifying_questions": [],
    "conflicts": [],
    "confidence": {"score": 0.86, "band": "high", "judge": 0.9, "retrieval": 0.8, "self": 0.85},
    "as_of": "2024-06-01",
    "corpus_version": "c0ffee12",
    "escalation": None,
    "warnings": [],
    "timings": {"total_ms": 412},
}

MEMO_SOURCE = {
    "doc_id": "memo-pph26-sg-software",
    "number": "MEMO-TAX-2024-07",
    "title": "PPh 26 atas lisensi software dari Singapura",
    "location": "Bagian 2",
    "effective_from": "2024-07-01",
    "effective_to": None,
    "status": "berlaku",
    "url": None,
    "ocr_noisy": False,
}


def vat_answer(**changes: Any) -> dict[str, Any]:
    """A deep copy of :data:`VAT_ANSWER` with top-level ``changes``."""
    answer = copy.deepcopy(VAT_ANSWER)
    answer.update(changes)
    return answer


#: an extractive claim: its text is its quote with the provision's lead-in (front ends print the passage once)
LEAD_IN = "Wajib Pajak badan dalam negeri:"
LEAD_IN_QUOTE = "b. dengan jumlah saham yang disetor diperdagangkan paling sedikit 40% (empat puluh persen)"


def lead_in_answer() -> dict[str, Any]:
    """:func:`vat_answer` whose first claim is extractive (:data:`LEAD_IN` then :data:`LEAD_IN_QUOTE`)."""
    answer = vat_answer()
    first = answer["claims"][0]
    answer["claims"][0] = {**first, "text": f"{LEAD_IN} {LEAD_IN_QUOTE}", "quote": LEAD_IN_QUOTE}
    return answer


class FakeTurn:
    """Records calls; answers by keywords in the (already mention-stripped) text.

    ``boom`` raises; ``clarify`` asks which period; ``memo`` uses a tax-team-only document (public
    answer narrowed when the channel audience lacks ``tax-team``); anything else: the VAT answer.
    """

    def __init__(self, *, delay: float = 0.0):
        self.delay = delay
        self.handled: list[InboundMessage] = []
        self.escalations: list[InboundMessage] = []
        self.feedback_calls: list[tuple[str, str, bool]] = []
        self._tickets: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    def handle(self, message: InboundMessage) -> Reply:
        with self._lock:
            self.handled.append(message)
        if self.delay:
            threading.Event().wait(self.delay)
        text = message.text.lower()
        ref = f"TURN-{message.message_id}"
        if "boom" in text:
            raise RuntimeError("composer exploded")
        if "clarify" in text:
            answer = vat_answer(
                status="clarify",
                answer="Untuk periode pajak yang mana?",
                claims=[],
                clarifying_questions=[
                    {
                        "slot": "period",
                        "question": "Periode pajak yang mana?",
                        "options": ["Maret 2022", "April 2022"],
                    }
                ],
            )
            return Reply(answer=answer, text=answer["answer"], status="clarify", reference_id=ref)
        if "memo" in text:
            full = vat_answer(
                answer="Menurut memo tim pajak, PPh 26 atas lisensi software dipotong 20%.",
                claims=[
                    {
                        "text": "PPh 26 20% atas lisensi software.",
                        "quote": "dipotong PPh 26 20%",
                        "layer": "policy",
                        "is_example": False,
                        "support": "entailed",
                        "source": MEMO_SOURCE,
                    }
                ],
            )
            if message.audience_groups is not None and "tax-team" not in message.audience_groups:
                public = vat_answer(
                    status="abstained",
                    answer="Tidak ada dokumen terbuka untuk semua anggota channel yang menjawab ini.",
                    claims=[],
                    escalation={"reason": "no_source", "ticket_id": None, "offered": True},
                )
                return Reply(
                    answer=public,
                    text=public["answer"],
                    status="abstained",
                    private_answer=full,
                    reference_id=ref,
                )
            return Reply(answer=full, text=full["answer"], status="answered", reference_id=ref)
        answer = vat_answer()
        return Reply(answer=answer, text=answer["answer"], status="answered", reference_id=ref)

    def escalate(self, message: InboundMessage, note: str | None = None) -> Reply:
        with self._lock:
            self.escalations.append(message)
            key = (message.channel, message.thread_id)
            ticket = self._tickets.setdefault(key, f"TKT-{len(self._tickets) + 1:04d}")
        answer = vat_answer(
            status="escalated",
            answer="",
            claims=[],
            escalation={"reason": "user_request", "ticket_id": ticket},
        )
        return Reply(answer=answer, text="", status="escalated", ticket_id=ticket)

    def feedback(self, message: InboundMessage, helpful: bool) -> None:
        with self._lock:
            self.feedback_calls.append((message.user_id, message.thread_id, helpful))
