"""``dasar serve slack`` as a process with an LLM whose endpoint fails: the asker is told the answer failed
and a ticket carries what retrieval found (a real redis-server, the stand-in Slack API, a loopback endpoint
that answers every ``/chat/completions`` with HTTP 500).

Before session 44 the served bot answered such a turn "Saya tidak menemukan sumber untuk itu di basis
pengetahuan": the model's outage read as a knowledge base without an answer, and no ticket was opened.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.served.conftest import served_slack
from tests.served.test_slack_served import _dm, _metrics_once_changed, _send


class _Failing(http.server.BaseHTTPRequestHandler):
    calls = 0

    def do_POST(self) -> None:
        type(self).calls += 1
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"error": {"message": "upstream overloaded"}}).encode()
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def failing_llm() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Failing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_served_slack_tells_the_asker_the_model_failed_and_opens_a_ticket(
    served_kb: Path, tmp_path: Path, failing_llm: str
) -> None:
    from tickets.sqlite import SqliteTicketStore

    _Failing.calls = 0
    llm = {"DASAR_COMPOSER": "openai", "DASAR_LLM_BASE_URL": failing_llm, "DASAR_LLM_MODEL": "stand-in"}
    with served_slack(tmp_path, served_kb, **llm) as (port, api, _redis_url):
        ask = _dm("Berapa tarif PPh 23 atas jasa teknik?", "1772700000.000100")
        assert _send(port, ask, "EvFault1") == 200
        (reply,) = api.wait_for("chat.postMessage", 1, timeout=180)
        # the fault is counted right after the reply is posted (a read as the post arrived missed it in CI)
        samples = _metrics_once_changed(port, ("dasar_answer_failures_total", (("platform", "slack"),)))
    posted = json.dumps(reply.params, ensure_ascii=False)
    assert _Failing.calls >= 1, "the served process never called the LLM endpoint"
    assert "gangguan teknis" in posted, posted[:2000]
    assert "tidak menemukan sumber" not in posted
    # operators see the fault apart from declines and low-confidence escalations
    assert samples[("dasar_answer_failures_total", (("platform", "slack"),))] == 1.0
    store = SqliteTicketStore(tmp_path / "tickets.sqlite")
    try:
        (ticket,) = store.list()
        assert ticket.reason == "answer_failed"
        assert ticket.id in posted
        assert "uu-36-2008" in {c["doc_id"] for c in ticket.evidence.candidates}
    finally:
        store.shutdown()
