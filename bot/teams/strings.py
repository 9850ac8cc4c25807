"""Every user-facing string of the Teams front end and the answer relay, in one place.

Why one module: wording is reviewed by the tax team (and later translated) without touching logic.
English labels on the tax team's card (the team works in English and Indonesian); the relay to the
asker is bilingual because askers write in either language.
"""

from __future__ import annotations

import re

REASON_LABELS: dict[str, str] = {
    "no_source": "No source in the knowledge base",
    "low_confidence": "Low confidence",
    "out_of_scope": "Out of scope",
    "personal_data": "A person's data",
    "advice": "Asks for advice",
    "protected_determination": "Protected determination",
    "user_request": "Asked by the user",
    "answer_failed": "The answering model failed",
}

STATUS_LABELS: dict[str, str] = {
    "open": "Open",
    "claimed": "Claimed",
    "needs_info": "Waiting for the requester",
    "answered": "Answered",
    "closed": "Closed",
    "rejected": "Rejected",
}

CARD_TITLE = "Ticket {ticket_id}: {status}"
LABEL_STATUS = "Status"
LABEL_REASON = "Why dasar escalated"
LABEL_REQUESTER = "Requester"
LABEL_AGE = "Asked"
LABEL_ASSIGNEE = "Assignee"
LABEL_TOPIC = "Topic"
HEADING_QUESTION = "Question (personal data masked)"
HEADING_FACTS = "Facts given"
HEADING_EVIDENCE = "Evidence found"
HEADING_MISSING = "What is missing"
HEADING_ANSWER = "Answer by {responder}, {date}"
HEADING_ANSWER_SOURCES = "Cited documents"
NONE_GIVEN = "None given."
NO_EVIDENCE = "dasar found no quotable source."
NOBODY = "nobody yet"
AGE_FORMAT = "{opened} ({age} ago)"

BTN_CLAIM = "Claim"
BTN_ANSWER = "Answer"
BTN_SEND_ANSWER = "Send answer to requester"
BTN_ASK = "Ask requester for more info"
BTN_SEND_ASK = "Send question"
BTN_CLOSE = "Close"
BTN_REJECT = "Reject"
BTN_SEND_REJECT = "Reject ticket"
BTN_PROPOSE_FAQ = "Propose as FAQ"
BTN_APPROVE_FAQ = "Approve FAQ"

INPUT_ANSWER = "Answer for the requester"
INPUT_SOURCES = "Cited documents (optional; one per line, e.g. PMK 168/2023 Pasal 7)"
INPUT_ASK = "What do you need from the requester?"
INPUT_REJECT = "Reason (shown to the requester)"

FAQ_CARD_TITLE = "FAQ draft {doc_id}: {status}"
FAQ_LABEL_OWNER = "Owner"
FAQ_LABEL_REVIEW_BY = "Expires / review by"
FAQ_LABEL_ACCESS = "Readable by groups"
FAQ_LABEL_APPROVED_BY = "Approved by"
FAQ_LABEL_SOURCE_TICKET = "From ticket"
FAQ_HEADING_QUESTION = "Question"
FAQ_HEADING_ANSWER = "Approved answer"

# --- outcomes shown to the person who clicked (invoke message / Submit reply) ---
OK_CLAIMED = "You claimed {ticket_id}."
OK_ANSWERED = "Answer to {ticket_id} recorded; it is being sent to the requester."
OK_ASKED = "Question sent to the requester of {ticket_id}."
OK_CLOSED = "{ticket_id} closed."
OK_REJECTED = "{ticket_id} rejected; the requester is told why."
OK_FAQ_PROPOSED = (
    "FAQ draft {doc_id} created from {ticket_id}; an approver must approve it before it answers."
)
OK_FAQ_APPROVED = "FAQ {doc_id} approved and added to the knowledge base."
NOT_TAX_TEAM = (
    "Only members of the tax team can act on tickets. Ask the tax lead to add you to the tax_team role."
)
NOT_APPROVER = "Only FAQ approvers can approve an FAQ. Ask the tax lead (faq_approver role) to approve it."
NEED_ANSWER_TEXT = "Type the answer before sending it."
NEED_ASK_TEXT = "Type what you need from the requester."
NEED_REJECT_REASON = "Give the requester a reason for the rejection."
NEED_ANSWERED_FOR_FAQ = "Only an answered or closed ticket can become an FAQ (it needs an approved answer)."
FAQ_NOT_CONFIGURED = "The reviewed FAQ is not configured on this bot (set DASAR_FAQ_DIR)."
UNKNOWN_ACTION = "This card button is not recognised ({verb}); the card may be from an older version."
TICKET_ERROR = "Not done: {error}"
REPLY_RECORDED = "Thanks, your reply was added to ticket {ticket_id}; the tax team will see it."
NO_TURN_HANDLER = (
    "dasar answers questions in Slack or its personal chat; this conversation only handles tickets."
)

# --- relay to the asker (Slack thread or Teams chat) ---
RELAY_ANSWER = (
    "*Jawaban Tim Pajak / Tax team answer*\n"
    "{text}\n\n"
    "_Dijawab oleh / answered by {responder}, {date}. Balas di thread ini bila masih ada pertanyaan; "
    "reply in this thread to re-open the ticket._"
)
RELAY_SOURCES = "Sumber / sources: {sources}"
# The same relay split for Slack's render_relay (header/footer are ours; the answer text is escaped there).
RELAY_ANSWER_HEADER = "*Jawaban Tim Pajak / Tax team answer*"
RELAY_ANSWER_FOOTER = (
    "_Dijawab oleh / answered by {responder}, {date}. Balas di thread ini bila masih ada pertanyaan; "
    "reply in this thread to re-open the ticket._"
)
RELAY_ASK = (
    "*Tim Pajak butuh informasi tambahan / The tax team needs more information* (ticket {ticket_id})\n"
    "{text}\n_Balas di thread ini / reply in this thread._"
)
RELAY_REJECTED = (
    "*Tim Pajak tidak dapat menjawab / The tax team will not answer this* (ticket {ticket_id})\n"
    "Alasan / reason: {text}"
)
# --- impact notices: a corpus change affected someone's FAQ or ticket (bot.impact -> outbox -> channel) ---
NOTICE_TITLE_FAQ = "FAQ {faq_id} needs review: a provision it cites changed"
NOTICE_TITLE_TICKET = "Ticket {ticket_id}: a provision its evidence cites changed"
NOTICE_INTRO_FAQ = (
    "{mention}, you own FAQ {faq_id} ({title}). The knowledge base changed a provision it cites, so the "
    "FAQ was withdrawn for review and no longer answers questions."
)
NOTICE_INTRO_TICKET = (
    "{mention}, ticket {ticket_id} assigned to you ({status}) relies on a provision the knowledge base "
    "just changed."
)
NOTICE_LABEL_CHANGED_WITH = "Changed with"
NOTICE_LABEL_CITES = "It cites"
NOTICE_LABEL_ASSESSED = "Assessed"
NOTICE_HEADING_CHANGES = "What changed"
NOTICE_HEADING_TODO = "What to do"
NOTICE_TODO_FAQ = (
    "Read FAQ {faq_id}'s answer against the new wording. If it still holds, an FAQ approver re-approves "
    "it with **Approve FAQ** (below or on its FAQ card) and it answers again. If not, answer the question "
    "again in a ticket and use **Propose as FAQ** for the corrected version."
)
NOTICE_TODO_TICKET = (
    "Check ticket {ticket_id}'s evidence against the new wording before you answer; its card in this "
    "channel has a note about this change."
)
NOTICE_FOOTER = "Impact {impact_id}. `dasar kb impact` lists every assessed change."
NOTICE_CHANGE_WORDING = "{where}: wording changed"
NOTICE_CHANGE_VALIDITY = "{where}: was in force {before}; now in force {after}"
NOTICE_CHANGE_REMOVED = "{where}: removed from the knowledge base"
# validity windows are [from, to): "to" is the first day the wording no longer applies
NOTICE_WINDOW_FROM_TO = "from {start}, no longer from {end}"
NOTICE_WINDOW_FROM = "from {start}"
NOTICE_WINDOW_TO = "until the day before {end}"
NOTICE_WINDOW_OPEN = "without dates"
NOTICE_FALLBACK = "{title}. Open Teams to read the card."

FAQ_EXPIRED_REMINDER = (
    "FAQ {doc_id} ({title}) passed its review date {review_by} and no longer answers questions. "
    "Owner {owner}: please review it and propose an updated FAQ."
)


def duration_text(seconds: float) -> str:
    """``3 d 4 h`` / ``5 h 12 min`` / ``7 min``: coarse age for a card (two units at most)."""
    s = max(int(seconds), 0)
    days, rem = divmod(s, 86400)
    hours, rem = divmod(rem, 3600)
    minutes = rem // 60
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"


# --- the asker's answer card (bilingual: follows the answer's language) ---
ANSWER: dict[str, dict[str, str]] = {
    "sources_heading": {"id": "Dasar hukum dan kutipan", "en": "Sources and quotes"},
    "layer.regulation": {"id": "Peraturan", "en": "Regulation"},
    "layer.policy": {"id": "Kebijakan internal", "en": "Internal policy"},
    "layer.unknown": {"id": "Sumber", "en": "Source"},
    "example": {"id": "contoh", "en": "example"},
    "role.condition": {"id": "syarat", "en": "condition"},
    "role.exception": {"id": "pengecualian", "en": "exception"},
    "role.definition": {"id": "definisi", "en": "definition"},
    "ocr": {
        "id": "Teks {doc} berasal dari OCR dan bisa mengandung salah ketik; cocokkan dengan dokumen resmi.",
        "en": "The text of {doc} comes from OCR and may contain typos; check the official document.",
    },
    "withheld_heading": {
        "id": "Tidak didukung sumber (bukan bagian dari jawaban)",
        "en": "Not supported by the sources (not part of the answer)",
    },
    "withheld_no_reason": {"id": "tidak ada kutipan yang mendukungnya", "en": "no quote supports it"},
    "conflicts_heading": {"id": "Ketentuan yang saling bertentangan", "en": "Conflicting provisions"},
    "conflict.pair": {
        "id": "{a} dan {b} menyebut angka berbeda.",
        "en": "{a} and {b} give different figures.",
    },
    "conflict.regulation_over_policy": {
        "id": "{doc} yang berlaku karena peraturan didahulukan atas kebijakan internal.",
        "en": "{doc} applies because a regulation takes precedence over internal policy.",
    },
    "conflict.specific_over_general": {
        "id": "{doc} yang berlaku karena ketentuannya lebih khusus.",
        "en": "{doc} applies because it is the more specific rule.",
    },
    "conflict.later_effective_date": {
        "id": "{doc} yang berlaku karena mulai berlaku lebih akhir.",
        "en": "{doc} applies because it took effect later.",
    },
    "conflict.doc_id_order": {
        "id": "Aturan mana yang berlaku belum dapat dipastikan; tim pajak perlu memeriksanya.",
        "en": "Which rule applies could not be settled; the tax team needs to check.",
    },
    "conflict.other": {"id": "{doc} yang diutamakan.", "en": "{doc} is preferred."},
    "warnings_heading": {"id": "Perhatian", "en": "Please note"},
    "as_of": {"id": "Berdasarkan sumber per {date}", "en": "Based on sources as of {date}"},
    "corpus_version": {"id": "versi korpus {version}", "en": "corpus version {version}"},
    "confidence": {"id": "keyakinan: {band}", "en": "confidence: {band}"},
    "band.high": {"id": "tinggi", "en": "high"},
    "band.medium": {"id": "sedang", "en": "medium"},
    "band.low": {"id": "rendah", "en": "low"},
    "sources_line": {"id": "Sumber", "en": "Sources"},
    "no_answer": {
        "id": "Saya tidak menemukan jawaban dalam dokumen yang disetujui.",
        "en": "I could not find an answer in the approved documents.",
    },
    "escalated": {
        "id": "Pertanyaan ini sudah diteruskan ke tim pajak (tiket {ticket}); "
        "jawabannya akan datang di sini.",
        "en": "This question is with the tax team (ticket {ticket}); their answer will come here.",
    },
    "offered": {
        "id": "Dokumen yang ada belum cukup untuk jawaban pasti. "
        "Pilih \u201cTanya tim pajak\u201d untuk meneruskannya.",
        "en": "The documents are not enough for a definite answer. "
        "Choose \u201cAsk the tax team\u201d to pass it on.",
    },
    "private_offer": {
        "id": "Jawaban ini hanya memakai dokumen yang terbuka untuk semua anggota percakapan. "
        "Jawaban lengkap saya kirim hanya kepada Anda, di chat pribadi dengan dasar.",
        "en": "This answer only uses documents open to everyone in this conversation. "
        "I sent you the full answer in your personal chat with dasar.",
    },
    "private_intro": {"id": "Jawaban lengkap (hanya untuk Anda)", "en": "Full answer (only for you)"},
    "omitted": {
        "id": "{n} klaim lain tidak ditampilkan karena batas ukuran kartu.",
        "en": "{n} more claim(s) not shown to fit the card size limit.",
    },
    "btn.helpful": {"id": "\U0001f44d Membantu", "en": "\U0001f44d Helpful"},
    "btn.not_helpful": {"id": "\U0001f44e Salah / tidak membantu", "en": "\U0001f44e Wrong / not helpful"},
    "btn.send": {"id": "Kirim", "en": "Send"},
    "btn.escalate": {"id": "Tanya tim pajak", "en": "Ask the tax team"},
    "input.comment": {"id": "Apa yang salah? (opsional)", "en": "What was wrong? (optional)"},
    "fallback": {"id": "Jawaban dasar dengan kutipan sumber.", "en": "dasar's answer with quoted sources."},
    "feedback_thanks": {"id": "Terima kasih atas masukannya.", "en": "Thanks for the feedback."},
    "escalate_unavailable": {
        "id": "Tombol ini belum tersedia di sini; tulis \u201ctanya tim pajak\u201d di percakapan ini.",
        "en": "This button is not available here; write \u201cask the tax team\u201d in this conversation.",
    },
}


def answer_text(key: str, language: str, **values: object) -> str:
    """A bilingual answer-card string (Indonesian unless ``language`` is English)."""
    table = ANSWER[key]
    text = table["en"] if str(language).lower().startswith("en") else table["id"]
    return text.format(**values) if values else text


_AT_MENTION = re.compile(r"<at\b[^>]*>.*?</at>", re.IGNORECASE | re.DOTALL)


def strip_mentions(text: str) -> str:
    """The message without ``<at>…</at>`` mention markup (e.g. ``<at>dasar</at> berapa tarif PPN?``)."""
    return " ".join(_AT_MENTION.sub(" ", text or "").replace("&nbsp;", " ").split())


def strip_mentions_keep_lines(text: str) -> str:
    """:func:`strip_mentions` that keeps line breaks (for multi-line answer text)."""
    lines = [
        " ".join(_AT_MENTION.sub(" ", line).replace("&nbsp;", " ").split())
        for line in (text or "").split("\n")
    ]
    return "\n".join(lines).strip()


#: the apology when a turn fails inside the bot (the reference is in the ERROR log line)
TURN_FAILED = (
    "Maaf, pesan Anda tidak dapat diproses karena kesalahan di sisi kami (ref {ref}). Silakan coba lagi "
    "sebentar lagi. / Sorry, your message could not be processed because of an error on our side (ref {ref})."
)
