"""Remote embedding backends without the network: an OpenAI-compatible endpoint served on loopback by the
test itself, and Bedrock through botocore's Stubber."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kb.embed.batching import backoff_delay
from kb.embed.factory import make_embedder
from kb.embed.hashing import HashingEmbedder
from kb.embed.openai_compat import OpenAICompatEmbedder
from kb.errors import EmbedderError
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore, embed_key
from tests.kb.test_ingest import GOOD_POLICY

REFERENCE = HashingEmbedder(64)


def _ref(texts: list[str]) -> np.ndarray:
    return REFERENCE.embed_passages(texts)


# --- a loopback stand-in for /v1/embeddings -----------------------------------------------------------


@dataclass
class Endpoint:
    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    #: statuses to answer before succeeding, consumed one per request (e.g. [429, 503])
    failures: list[int] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)

    @property
    def inputs(self) -> list[str]:
        return [t for r in self.requests for t in r["input"]]


def _handler(ep: Endpoint) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep pytest output clean
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with ep.lock:
                ep.requests.append(body)
                ep.headers.append(dict(self.headers))
                status = ep.failures.pop(0) if ep.failures else 200
                ep.in_flight += 1
                ep.max_in_flight = max(ep.max_in_flight, ep.in_flight)
            if self.path != "/v1/embeddings":
                self._send(404, {"error": "not found"})
            elif status != 200:
                self._send(status, {"error": {"message": "slow down"}}, {"Retry-After": "0"})
            elif body.get("model") == "bad-model":
                self._send(400, {"error": {"message": "model not found"}})
            else:
                ep.release.wait(0.05)  # overlap concurrent requests so max_in_flight is observable
                vecs = _ref(body["input"]) * 3.0  # unnormalised: the client must normalise
                data = [
                    {"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vecs)
                ]
                self._send(200, {"object": "list", "data": data[::-1], "model": body["model"]})

        def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            raw = json.dumps(payload).encode()
            # leave the in-flight count before the client can see the response: otherwise its next request
            # may arrive while this thread still counts itself (a race that showed max_in_flight 3 under load)
            with ep.lock:
                ep.in_flight -= 1
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(raw)

    return Handler


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    ep = Endpoint(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(ep))
    ep.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield ep
    server.shutdown()
    server.server_close()
    thread.join(5)


def _client(ep: Endpoint, **kw: Any) -> tuple[OpenAICompatEmbedder, list[float]]:
    waits: list[float] = []
    kw.setdefault("batch_size", 3)
    emb = OpenAICompatEmbedder("test-e5", ep.url, api_key="sk-test-secret", sleep=waits.append, **kw)
    return emb, waits


def test_openai_batches_keep_order_and_bound_concurrency(endpoint: Endpoint) -> None:
    texts = [f"Pasal {i} tarif PPN {i}%" for i in range(10)]
    emb, waits = _client(endpoint, max_concurrency=2)
    out = emb.embed_passages(texts)
    assert out.shape == (10, 64) and out.dtype == np.float32
    np.testing.assert_allclose(out, _ref(texts), atol=1e-6)  # order restored, vectors normalised
    assert sorted(len(r["input"]) for r in endpoint.requests) == [1, 3, 3, 3]
    assert sorted(endpoint.inputs) == sorted(texts) and len(endpoint.requests) == 4
    assert endpoint.max_in_flight == 2 and waits == []
    assert all(h.get("Authorization") == "Bearer sk-test-secret" for h in endpoint.headers)
    assert {r["model"] for r in endpoint.requests} == {"test-e5"}
    np.testing.assert_allclose(emb.embed_query("tarif PPN"), _ref(["tarif PPN"])[0], atol=1e-6)
    assert emb.dim == 64 and "sk-test-secret" not in repr(emb)


def test_openai_retries_429_and_5xx_then_succeeds(endpoint: Endpoint) -> None:
    endpoint.failures = [429, 503]
    emb, waits = _client(endpoint, max_concurrency=1)
    out = emb.embed_passages(["satu", "dua"])
    np.testing.assert_allclose(out, _ref(["satu", "dua"]), atol=1e-6)
    assert len(endpoint.requests) == 3  # 429, 503, success
    assert waits == [0.0, 0.0]  # the server's Retry-After: 0 was honoured


def test_openai_gives_up_after_max_retries_and_does_not_retry_client_errors(endpoint: Endpoint) -> None:
    endpoint.failures = [500, 500, 500]
    emb, waits = _client(endpoint, max_retries=2)
    with pytest.raises(EmbedderError, match="gave up after 3 attempts"):
        emb.embed_query("x")
    assert len(endpoint.requests) == 3 and len(waits) == 2
    bad = OpenAICompatEmbedder("bad-model", endpoint.url, api_key="sk-test-secret", sleep=waits.append)
    with pytest.raises(EmbedderError, match="HTTP 400") as info:
        bad.embed_query("x")
    assert len(endpoint.requests) == 4 and "sk-test-secret" not in str(info.value)


def test_openai_connection_errors_are_retried() -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    waits: list[float] = []
    emb = OpenAICompatEmbedder(
        "m", f"http://127.0.0.1:{port}/v1", max_retries=2, sleep=waits.append, timeout=2
    )
    with pytest.raises(EmbedderError, match=r"gave up after 3 attempts .*ConnectError"):
        emb.embed_query("x")
    assert len(waits) == 2 and 0 < waits[0] < waits[1]  # exponential backoff


def test_names_identify_model_and_settings() -> None:
    a = OpenAICompatEmbedder("text-embedding-3-small", dimensions=256)
    b = OpenAICompatEmbedder("text-embedding-3-small")
    c = OpenAICompatEmbedder("text-embedding-3-small", query_prefix="query: ", passage_prefix="passage: ")
    assert a.name == "openai:text-embedding-3-small:d256" and b.name == "openai:text-embedding-3-small"
    assert c.name.startswith("openai:text-embedding-3-small:p") and len({a.name, b.name, c.name}) == 3
    assert len({embed_key(e.name, "same text") for e in (a, b, c)}) == 3  # caches never mix
    made = make_embedder("openai:m", {"base_url": "http://x/v1", "dim": 8, "batch_size": 5})
    assert isinstance(made, OpenAICompatEmbedder) and made.dim == 8 and made.batch_size == 5
    with pytest.raises(EmbedderError, match="unknown embedder"):
        make_embedder("word2vec")
    assert 0.375 <= backoff_delay(0, 0.5) <= 0.625 and backoff_delay(3, 0.5, retry_after=2.0) == 2.0


def test_openai_env_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DASAR_EMBED_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("DASAR_EMBED_CONCURRENCY", "7")
    made = make_embedder("openai:m")
    assert isinstance(made, OpenAICompatEmbedder)
    assert made.base_url == "http://127.0.0.1:9/v1" and made.max_concurrency == 7
    monkeypatch.setenv("DASAR_EMBED_BATCH", "many")
    with pytest.raises(EmbedderError, match="DASAR_EMBED_BATCH"):
        make_embedder("openai:m")


def test_ingest_through_the_endpoint_embeds_each_changed_text_once(
    endpoint: Endpoint, tmp_path: Path
) -> None:
    emb, _ = _client(endpoint, batch_size=8, max_concurrency=2)
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name=emb.name)
    src = tmp_path / "in"
    src.mkdir()
    doc = GOOD_POLICY + "\n## Dokumen\nVendor menyerahkan NPWP sebelum pembayaran pertama.\n"
    (src / "policy.md").write_text(doc, encoding="utf-8")
    assert ingest_paths([src], store, emb).added == ["test-policy"]
    first = len(endpoint.inputs)
    assert first >= 2
    # a changed section: only its text goes to the endpoint again, the rest comes from the content-hash cache
    (src / "policy.md").write_text(
        doc.replace("sebelum pembayaran", "paling lambat pada pembayaran"), "utf-8"
    )
    assert ingest_paths([src], store, emb).updated == ["test-policy"]
    again = endpoint.inputs[first:]
    assert len(again) == 1 and "paling lambat" in again[0]
    hits = store.vector_search(emb.embed_query("NPWP paling lambat"), _everyone(), 5)
    assert hits and hits[0][0].startswith("test-policy#")
    store.close()


def _everyone() -> Any:
    import datetime as dt

    from kb.store.protocol import SearchFilter

    return SearchFilter(groups=frozenset({"everyone", "finance"}), as_of=dt.date(2024, 6, 1))


# --- Bedrock through botocore's Stubber ----------------------------------------------------------------


def _bedrock_client() -> Any:
    boto3 = pytest.importorskip("boto3")
    return boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test"
    )


def _body(payload: dict[str, Any]) -> dict[str, Any]:
    from botocore.response import StreamingBody

    raw = json.dumps(payload).encode()
    return {"body": StreamingBody(io.BytesIO(raw), len(raw)), "contentType": "application/json"}


def _expect(model: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "modelId": model,
        "body": json.dumps(body),
        "contentType": "application/json",
        "accept": "application/json",
    }


def test_bedrock_titan_one_call_per_text_with_retry_on_throttling() -> None:
    from botocore.stub import Stubber

    from kb.embed.bedrock import TITAN_V2, BedrockEmbedder

    client = _bedrock_client()
    waits: list[float] = []
    emb = BedrockEmbedder(TITAN_V2, dimensions=256, max_concurrency=1, client=client, sleep=waits.append)
    assert emb.name == "bedrock:amazon.titan-embed-text-v2:0:d256" and emb.dim == 256
    vecs = np.eye(256, dtype=np.float32)[:2] * 2.0
    with Stubber(client) as stub:
        stub.add_client_error("invoke_model", service_error_code="ThrottlingException", http_status_code=429)
        for text, vec in zip(("satu", "dua"), vecs, strict=True):
            stub.add_response(
                "invoke_model",
                _body({"embedding": vec.tolist(), "inputTextTokenCount": 1}),
                _expect(TITAN_V2, {"inputText": text, "dimensions": 256, "normalize": True}),
            )
        out = emb.embed_passages(["satu", "dua"])
        stub.assert_no_pending_responses()
    np.testing.assert_allclose(out, np.eye(256, dtype=np.float32)[:2])
    assert len(waits) == 1


def test_bedrock_cohere_batches_with_input_types_and_refuses_bad_requests() -> None:
    from botocore.stub import Stubber

    from kb.embed.bedrock import COHERE_MULTILINGUAL, BedrockEmbedder

    client = _bedrock_client()
    emb = make_embedder("bedrock:cohere.embed-multilingual-v3")
    assert isinstance(emb, BedrockEmbedder) and emb.name == "bedrock:cohere.embed-multilingual-v3"
    emb = BedrockEmbedder(
        COHERE_MULTILINGUAL, batch_size=2, max_concurrency=1, client=client, sleep=lambda s: None
    )
    rows = np.random.default_rng(1).normal(size=(3, 1024)).astype(np.float32)
    with Stubber(client) as stub:
        for texts, part in ((["a", "b"], rows[:2]), (["c"], rows[2:])):
            stub.add_response(
                "invoke_model",
                _body({"id": "x", "embeddings": part.tolist(), "response_type": "embeddings_floats"}),
                _expect(
                    COHERE_MULTILINGUAL, {"texts": texts, "input_type": "search_document", "truncate": "END"}
                ),
            )
        stub.add_response(
            "invoke_model",
            _body({"id": "y", "embeddings": rows[:1].tolist()}),
            _expect(COHERE_MULTILINGUAL, {"texts": ["q"], "input_type": "search_query", "truncate": "END"}),
        )
        stub.add_client_error("invoke_model", service_error_code="ValidationException", http_status_code=400)
        out = emb.embed_passages(["a", "b", "c"])
        query = emb.embed_query("q")
        with pytest.raises(EmbedderError, match="ValidationException"):
            emb.embed_query("too long")
        stub.assert_no_pending_responses()
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    np.testing.assert_allclose(out, rows / norms, rtol=1e-5)
    np.testing.assert_allclose(query, rows[0] / norms[0], rtol=1e-5)
    with pytest.raises(EmbedderError, match="unsupported Bedrock"):
        BedrockEmbedder("meta.llama3")
    with pytest.raises(EmbedderError, match="256, 512 or 1024"):
        BedrockEmbedder("titan-v2", dimensions=300)
