"""Ingest refuses what could hurt it: YAML alias bombs, huge values in error messages, a full disk.

The disk-full tests use a real, tiny tmpfs when this machine lets us mount one (root, CAP_SYS_ADMIN) and a
write hook (monkeypatch) otherwise; both paths must end in ONE clear error with nothing half-written.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import kb.errors
from kb.embed.hashing import HashingEmbedder
from kb.errors import (
    DiskFullError,
    KbError,
    MetadataError,
    StoreError,
    disk_full_guard,
    is_disk_full,
    store_write_error,
    write_atomically,
)
from kb.ingest import ingest_paths
from kb.loaders import MAX_YAML_DEPTH, Candidate, load
from tests.kb.test_ingest import GOOD_POLICY

# "Billion laughs" in a field dasar reads: 8 levels of 9 aliases, ~330 bytes, 9**8 = 43 million strings
# once expanded.  The old loader parsed it fine (aliases share one object) and then rendered the expanded
# value into the "expected a list of strings" error message.
ALIAS_BOMB = (
    "---\n"
    "id: bb\n"
    "title: B\n"
    "number: B1\n"
    "type: policy\n"
    "tax_types:\n"
    "- &a [x,x,x,x,x,x,x,x,x]\n"
    "- &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "- &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "- &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "- &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "- &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "- &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "- &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "---\n"
    "body\n"
)


def _text_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- YAML aliases and anchors --------------------------------------------------------------------------
def test_alias_bomb_front_matter_is_refused_fast(tmp_path: Path) -> None:
    assert len(ALIAS_BOMB.encode()) <= 340
    path = _text_file(tmp_path, "bomb.md", ALIAS_BOMB)
    started = time.perf_counter()
    with pytest.raises(MetadataError) as err:
        load(Candidate(path, "text"))
    elapsed = time.perf_counter() - started
    assert elapsed < 0.2, f"refusing the alias bomb took {elapsed:.3f}s"
    msg = str(err.value)
    assert msg.startswith(f"{path}:7:")  # the line of the first anchor in the FILE
    assert "front matter defines a YAML anchor (&a)" in msg
    assert "aliases and anchors are not allowed" in msg
    assert len(msg) < 300
    print(f"alias bomb ({len(ALIAS_BOMB.encode())} bytes) refused in {elapsed * 1000:.2f} ms")


def test_alias_bomb_in_a_batch_is_one_reported_error(tmp_path: Path) -> None:
    from kb.store.sqlite import SqliteStore

    src = tmp_path / "in"
    src.mkdir()
    _text_file(src, "bomb.md", ALIAS_BOMB)
    _text_file(src, "policy.md", GOOD_POLICY)
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    started = time.perf_counter()
    report = ingest_paths([src], store, HashingEmbedder(), packs=())
    assert time.perf_counter() - started < 5.0
    assert report.added == ["test-policy"]  # the good file still goes in
    assert [(e.path, e.line) for e in report.errors] == [(str(src / "bomb.md"), 7)]


def test_plain_alias_is_refused_with_its_line(tmp_path: Path) -> None:
    text = GOOD_POLICY.replace("entities: [SNR]\naccess: [finance]", "entities: &g [SNR]\naccess: *g")
    path = _text_file(tmp_path, "alias.md", text)
    with pytest.raises(MetadataError, match=r"alias\.md:12: front matter defines a YAML anchor \(&g\)"):
        load(Candidate(path, "text"))
    # An alias of an undefined anchor is refused as an alias, not as a YAML crash.
    path2 = _text_file(tmp_path, "alias2.md", GOOD_POLICY.replace("access: [finance]", "access: *nope"))
    with pytest.raises(MetadataError, match=r"alias2\.md:13: front matter uses a YAML alias \(\*nope\)"):
        load(Candidate(path2, "text"))


def test_sidecar_alias_is_refused(tmp_path: Path) -> None:
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(b"%PDF-1.4 never read: the sidecar is checked first")
    (tmp_path / "scan.meta.yaml").write_text(
        "id: scan\ntitle: &t Judul\nnumber: S-1\ntype: policy\naccess: [finance]\nowner: *t\n",
        encoding="utf-8",
    )
    with pytest.raises(MetadataError) as err:
        load(Candidate(pdf, "pdf"))
    assert str(err.value).startswith(f"{tmp_path / 'scan.meta.yaml'}:2: YAML defines a YAML anchor (&t)")


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    deep = "[" * (MAX_YAML_DEPTH + 1) + "]" * (MAX_YAML_DEPTH + 1)
    path = _text_file(tmp_path, "deep.md", GOOD_POLICY.replace("tax_types: [PPh 23]", f"tax_types: {deep}"))
    with pytest.raises(
        MetadataError, match=rf"deep\.md:7: front matter is nested deeper than {MAX_YAML_DEPTH}"
    ):
        load(Candidate(path, "text"))
    # Nesting far past Python's recursion limit is refused the same way, not with RecursionError.
    path2 = _text_file(
        tmp_path, "deeper.md", GOOD_POLICY.replace("tax_types: [PPh 23]", "tax_types: " + "[" * 5000)
    )
    with pytest.raises(MetadataError, match=r"deeper\.md:7: .*(nested deeper than|maximum nesting depth)"):
        load(Candidate(path2, "text"))


def test_good_front_matter_still_loads(tmp_path: Path) -> None:
    doc = load(Candidate(_text_file(tmp_path, "policy.md", GOOD_POLICY), "text"))
    assert (doc.meta.id, doc.meta.access) == ("test-policy", ("finance",))


# -- values cut short in error messages ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("type: policy", "type: " + "P" * 100_000, "type"),
        ("status: in_force", "status: " + "s" * 100_000, "status"),
        ("effective_from: 2024-01-01", "effective_from: 2024-" + "9" * 100_000, "effective_from"),
        ("tax_types: [PPh 23]", "tax_types: [" + ", ".join(["{k: v}"] * 20_000) + "]", "tax_types"),
        ("id: test-policy", "id: " + "X" * 100_000, "id"),
    ],
)
def test_metadata_errors_cut_values_short(tmp_path: Path, old: str, new: str, field: str) -> None:
    assert old in GOOD_POLICY
    path = _text_file(tmp_path, "big.md", GOOD_POLICY.replace(old, new))
    with pytest.raises(MetadataError) as err:
        load(Candidate(path, "text"))
    msg = str(err.value)
    assert err.value.field == field
    assert len(msg) < len(str(path)) + 260, msg
    assert "..." in msg


def test_huge_integer_is_a_metadata_error_not_a_crash(tmp_path: Path) -> None:
    # PyYAML turns 100 000 digits into int() and Python refuses (ValueError): reported, not raised raw.
    path = _text_file(
        tmp_path, "n.md", GOOD_POLICY.replace("number: TST-POL-001", "number: " + "9" * 100_000)
    )
    with pytest.raises(MetadataError) as err:
        load(Candidate(path, "text"))
    assert str(err.value).startswith(f"{path}: malformed front matter: Exceeds the limit")
    assert len(str(err.value)) < len(str(path)) + 120


def test_unknown_huge_field_name_is_cut_short(tmp_path: Path) -> None:
    # An explicit key ("? key") may be longer than the 1024 characters of a plain one.
    path = _text_file(tmp_path, "f.md", GOOD_POLICY.replace("owner:", "? " + "k" * 50_000 + "\n: x\nowner:"))
    with pytest.raises(MetadataError) as err:
        load(Candidate(path, "text"))
    assert err.value.field is not None and len(err.value.field) <= 80
    assert len(str(err.value)) < 600


# -- full disk -----------------------------------------------------------------------------------------
@contextmanager
def _tmpfs(size: str) -> Iterator[Path]:
    """A tmpfs of ``size``, or skip when mounting is not allowed here (the hook tests cover that case)."""
    mnt = Path(tempfile.mkdtemp(prefix="dasar-enospc-"))
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(mnt)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        mnt.rmdir()
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode(errors='replace').strip()})")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
        mnt.rmdir()


@pytest.fixture
def tiny_fs() -> Iterator[Path]:
    """A 256 KiB tmpfs."""
    with _tmpfs("256k") as mnt:
        yield mnt


@pytest.fixture
def small_fs() -> Iterator[Path]:
    """A 1 MiB tmpfs: room for a knowledge base with one policy, not for a 1 MB document."""
    with _tmpfs("1m") as mnt:
        yield mnt


def test_atomic_write_on_a_full_tmpfs_keeps_the_old_file(tiny_fs: Path) -> None:
    target = tiny_fs / "vectors.npy"
    write_atomically(target, b"old vectors")
    with pytest.raises(DiskFullError) as err:
        write_atomically(target, os.urandom(400 * 1024))
    assert str(err.value) == f"disk full while writing {target}; nothing was changed"
    assert target.read_bytes() == b"old vectors"
    assert sorted(p.name for p in tiny_fs.iterdir()) == ["vectors.npy"]  # no temporary file left


def test_atomic_write_with_a_write_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "cache.bin"
    target.write_bytes(b"old")

    def half_then_full(fd: int, data: bytes) -> None:
        os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(kb.errors, "_write_all", half_then_full)
    with pytest.raises(DiskFullError, match=r"^disk full while writing .*cache\.bin; nothing was changed$"):
        write_atomically(target, b"x" * 10_000)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache.bin"]


def test_sqlite_full_on_tmpfs_rolls_back_and_reads_as_disk_full(tiny_fs: Path) -> None:
    db = tiny_fs / "kb.sqlite"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, blob BLOB)")
    conn.execute("INSERT INTO t (blob) VALUES (x'00')")
    full = pytest.raises(DiskFullError, match=r"^disk full while writing .*kb\.sqlite; nothing was changed$")
    with full, disk_full_guard(db):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for _ in range(64):
                conn.execute("INSERT INTO t (blob) VALUES (?)", (os.urandom(16 * 1024),))
            conn.execute("COMMIT")
        except sqlite3.Error:
            conn.execute("ROLLBACK")
            raise
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone() == (1,)
    conn.close()


def test_store_write_error_names_disk_full_and_nothing_else() -> None:
    full = sqlite3.OperationalError("database or disk is full")
    assert is_disk_full(full) and isinstance(store_write_error("/kb/kb.sqlite", full), DiskFullError)
    other = store_write_error("/kb/kb.sqlite", sqlite3.OperationalError("database is locked"))
    assert type(other) is StoreError and "database is locked" in str(other)
    wrapped = StoreError("write failed")
    wrapped.__cause__ = OSError(errno.ENOSPC, "No space left on device")
    assert is_disk_full(wrapped)
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))


def test_ingest_onto_a_full_disk_is_one_clear_error(small_fs: Path, tmp_path: Path) -> None:
    from kb.store.sqlite import SqliteStore

    src = tmp_path / "in"
    src.mkdir()
    _text_file(src, "policy.md", GOOD_POLICY)
    store = SqliteStore(small_fs / "kb.sqlite", embedder_name="hashing-256")
    assert ingest_paths([src / "policy.md"], store, HashingEmbedder(), packs=()).added == ["test-policy"]
    big = GOOD_POLICY.replace("test-policy", "big-policy").replace("TST-POL-001", "TST-POL-002")
    body = "\n".join(
        f"## Bagian {i}\nVendor jasa teknik nomor {i} dipotong PPh 23 2% dari bruto.\n" for i in range(15000)
    )
    _text_file(src, "big.md", big + body)
    try:
        with pytest.raises(KbError) as err:
            ingest_paths([src / "big.md"], store, HashingEmbedder(), packs=())
        assert str(err.value) == f"disk full while writing {small_fs / 'kb.sqlite'}; nothing was changed"
    finally:
        store.close()
    again = SqliteStore(small_fs / "kb.sqlite", embedder_name="hashing-256")
    try:
        assert [r["id"] for r in again._q("SELECT id FROM documents ORDER BY id")] == ["test-policy"]
    finally:
        again.close()
