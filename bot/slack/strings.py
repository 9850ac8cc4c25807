"""Every user-facing string of the Slack front end, in Bahasa Indonesia and English.

WHY one module: wording is reviewed by the tax team and translated together; renderers and
listeners only name a key.  The language follows the *answer* (``answer["language"]`` when the
turn sets it, else the language of the question), falling back to Indonesian.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULT_LANGUAGE = "id"
LANGUAGES = ("id", "en")

STRINGS: Mapping[str, Mapping[str, str]] = {
    # -- status / framing ------------------------------------------------------------------------
    "as_of": {"id": "Berdasarkan sumber per {date}", "en": "Based on sources as of {date}"},
    "corpus_version": {"id": "versi korpus {version}", "en": "corpus version {version}"},
    "confidence": {"id": "Tingkat keyakinan: *{band}*", "en": "Confidence: *{band}*"},
    "band.high": {"id": "tinggi", "en": "high"},
    "band.medium": {"id": "sedang", "en": "medium"},
    "band.low": {"id": "rendah", "en": "low"},
    "no_answer_text": {
        "id": "Saya tidak menemukan jawaban dalam dokumen yang disetujui.",
        "en": "I could not find an answer in the approved documents.",
    },
    "sources_heading": {"id": "*Dasar hukum dan kutipan*", "en": "*Sources and quotes*"},
    "unsupported_heading": {
        "id": "*Tidak didukung sumber* (bukan bagian dari jawaban):",
        "en": "*Not supported by the sources* (not part of the answer):",
    },
    "conflicts_heading": {"id": "*Ketentuan yang saling bertentangan:*", "en": "*Conflicting provisions:*"},
    "warnings_heading": {"id": "*Perhatian:*", "en": "*Please note:*"},
    "clarify_heading": {"id": "*Saya perlu informasi tambahan:*", "en": "*I need a bit more information:*"},
    "ocr_warning": {
        "id": ":warning: Teks {doc} berasal dari OCR dan bisa mengandung salah ketik; "
        "cocokkan dengan dokumen resmi.",
        "en": ":warning: The text of {doc} comes from OCR and may contain typos; "
        "check the official document.",
    },
    "example_label": {"id": "contoh", "en": "example"},
    "layer.regulation": {"id": "Peraturan", "en": "Regulation"},
    "layer.policy": {"id": "Kebijakan internal", "en": "Internal policy"},
    "layer.unknown": {"id": "Sumber", "en": "Source"},
    "effective_range": {"id": "berlaku {start} s.d. {end}", "en": "in force {start} to {end}"},
    "effective_from": {"id": "berlaku sejak {start}", "en": "in force since {start}"},
    "source_link": {"id": "sumber", "en": "source"},
    "reasons": {"id": "alasan: {reasons}", "en": "reasons: {reasons}"},
    "withheld_no_reason": {
        "id": "tidak ada kutipan yang mendukungnya",
        "en": "no quote supports it",
    },
    "sources_line": {"id": "Sumber: {sources}", "en": "Sources: {sources}"},
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
    "role.condition": {"id": "syarat", "en": "condition"},
    "role.exception": {"id": "pengecualian", "en": "exception"},
    "role.definition": {"id": "definisi", "en": "definition"},
    "applies_period": {"id": "berlaku untuk {period}", "en": "applies to {period}"},
    "continued": {"id": "_(bersambung)_", "en": "_(continued)_"},
    "relay_part": {"id": "_Tiket {ticket}, bagian {n}/{total}_", "en": "_Ticket {ticket}, part {n}/{total}_"},
    "feedback.positive": {"id": "Jawaban ini membantu", "en": "This answer was helpful"},
    "feedback.negative": {
        "id": "Jawaban ini salah atau tidak membantu",
        "en": "This answer was wrong or not helpful",
    },
    "refused": {
        "id": "Maaf, saya tidak dapat membantu permintaan ini.",
        "en": "Sorry, I can't help with this request.",
    },
    # -- escalation --------------------------------------------------------------------------------
    "escalated": {
        "id": "Pertanyaan ini sudah diteruskan ke tim pajak (tiket *{ticket}*). Tim pajak akan menjawab di "
        "thread ini; Anda tidak perlu bertanya ulang.",
        "en": "I have passed this question to the tax team (ticket *{ticket}*). They will answer in this "
        "thread; you don't need to ask again.",
    },
    "escalation_offered": {
        "id": "Dokumen yang ada belum cukup untuk menjawab dengan pasti. Tekan *Tanya tim pajak* untuk "
        "meneruskannya beserta buktinya.",
        "en": "The documents are not enough for a definite answer. Press *Ask the tax team* to pass it on "
        "with the evidence.",
    },
    "escalate_confirmed": {
        "id": ":white_check_mark: Diteruskan ke tim pajak: tiket *{ticket}*, "
        "lengkap dengan bukti dari thread ini. "
        "Jawaban mereka akan muncul di thread ini.",
        "en": ":white_check_mark: Sent to the tax team: ticket *{ticket}*, "
        "with the evidence from this thread. "
        "Their answer will appear in this thread.",
    },
    "escalate_already": {
        "id": "Thread ini sudah diteruskan ke tim pajak (tiket *{ticket}*).",
        "en": "This thread is already with the tax team (ticket *{ticket}*).",
    },
    # -- buttons -----------------------------------------------------------------------------------
    "button.helpful": {"id": "Membantu", "en": "Helpful"},
    "button.not_helpful": {"id": "Tidak membantu", "en": "Not helpful"},
    "button.escalate": {"id": "Tanya tim pajak", "en": "Ask the tax team"},
    "button.show_more": {"id": "Tampilkan lebih banyak", "en": "Show more"},
    "truncated": {
        "id": "_Jawaban dipotong karena batas panjang Slack._",
        "en": "_The answer was shortened to fit Slack's limits._",
    },
    "show_more_expired": {
        "id": "Bagian lanjutan ini sudah kedaluwarsa; silakan tanyakan lagi.",
        "en": "The rest of this answer has expired; please ask again.",
    },
    "feedback_thanks": {"id": "Terima kasih atas masukannya.", "en": "Thanks for the feedback."},
    # -- shared channels ---------------------------------------------------------------------------
    "private_offer": {
        "id": "_Jawaban ini hanya memakai dokumen yang terbuka untuk semua anggota channel. "
        "Anda bisa melihat "
        "lebih banyak; jawaban lengkap saya kirim hanya kepada Anda._",
        "en": "_This answer only uses documents open to everyone in this channel. "
        "You can see more; I have sent "
        "you the full answer privately._",
    },
    "private_intro": {
        "id": "*Jawaban lengkap (hanya terlihat oleh Anda):*",
        "en": "*Full answer (only visible to you):*",
    },
    # -- Slack AI app (assistant threads) -------------------------------------------------------------
    "assistant.status": {"id": "Mencari di peraturan\u2026", "en": "Searching the regulations\u2026"},
    "assistant.loading_1": {
        "id": "Membaca pasal yang relevan\u2026",
        "en": "Reading the relevant articles\u2026",
    },
    "assistant.loading_2": {"id": "Memeriksa kutipan\u2026", "en": "Checking the quotes\u2026"},
    "assistant.prompts_title": {"id": "Coba tanyakan / Try asking", "en": "Try asking / Coba tanyakan"},
    "assistant.untitled": {"id": "Pertanyaan pajak", "en": "Tax question"},
    # -- operational ---------------------------------------------------------------------------------
    "rate_limited": {
        "id": "Maaf, pertanyaan Anda terlalu banyak dalam waktu singkat. Silakan coba lagi dalam sekitar "
        "{seconds} detik.",
        "en": "Sorry, that's more questions than I can take in a short time. Please try again in about "
        "{seconds} seconds.",
    },
    "error_apology": {
        "id": "Maaf, terjadi kesalahan saat menjawab. Tim operasional sudah tercatat; "
        "kode referensi: `{ref}`.",
        "en": "Sorry, something went wrong while answering. It has been logged for the operators; "
        "reference: `{ref}`.",
    },
}


#: Suggested prompts of a new assistant thread, both languages (Slack shows at most 4).
SUGGESTED_PROMPTS: tuple[tuple[str, str], ...] = (
    ("Tarif PPN saat ini", "Berapa tarif PPN yang berlaku saat ini dan apa dasar hukumnya?"),
    ("PPh 21 atas bonus", "Bagaimana perhitungan PPh 21 atas bonus karyawan tetap?"),
    ("Current VAT rate", "What is the current VAT rate in Indonesia and which regulation sets it?"),
    ("Withholding on services", "Which PPh 23 rate applies to technical services fees?"),
)


def normalize_language(language: object) -> str:
    """``"id"``/``"en"`` (also ``"en-US"`` etc.); anything else is the default, Indonesian."""
    if isinstance(language, str):
        short = language.strip().lower()[:2]
        if short in LANGUAGES:
            return short
    return DEFAULT_LANGUAGE


def t(key: str, language: str, **values: Any) -> str:
    """The string ``key`` in ``language`` with ``values`` filled in.

    Raises:
        KeyError: ``key`` is not defined (a programming error, caught by the tests).
    """
    text = STRINGS[key][normalize_language(language)]
    return text.format(**values) if values else text


def answer_language(answer: Mapping[str, Any], question: str = "") -> str:
    """The language to render an answer in: the answer's own, else the question's, else Indonesian."""
    declared = answer.get("language")
    if isinstance(declared, str) and declared.strip():
        return normalize_language(declared)
    if question:
        from kb.query import detect_language  # lazy: keeps this module import-light

        return normalize_language(detect_language(question))
    return DEFAULT_LANGUAGE
