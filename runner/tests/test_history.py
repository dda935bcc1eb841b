"""The run history (analysis/history.py) against SQLite and against a real PostgreSQL server: a throwaway
cluster made by Debian's postgresql package (runner/setup.sh installs it) in a temporary folder, listening on
127.0.0.1 and a free port with trust authentication there only, started once per test session and stopped
at its end. Run as root (as set-up and CI are), the cluster belongs to the postgres user."""
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from analysis import __main__ as cli
from analysis import compare, history
from test_compare import _run


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_url():
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (runner/setup.sh installs Debian's postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="rpcmatrix-pg-"))
    data, port = folder / "data", _free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the cluster is the postgres user's
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]

    def run(*argv):
        subprocess.run([*as_user, *argv], check=True, capture_output=True, timeout=120)

    run(str(bindir / "initdb"), "-D", str(data), "-U", "rpcmatrix", "--auth=trust", "--no-sync", "-E", "UTF8",
        "--locale=C.UTF-8")
    # 127.0.0.1 only, the socket in the folder, no fsync: a test database, thrown away at the end
    options = f"-h 127.0.0.1 -p {port} -k {folder} -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
    try:
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-o", options, "-w", "-t", "60",
            "start")
        yield f"postgresql://rpcmatrix@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return history.url(f"sqlite:///{tmp_path / 'history.sqlite'}")
    url = history.url(request.getfixturevalue("postgres_url"))
    eng = history.engine(url)  # a clean slate for each test: the cluster lives for the session
    history.metadata.drop_all(eng)
    eng.dispose()
    return url


def _count(url, table, **where):
    eng = history.engine(url)
    try:
        with eng.connect() as conn:
            q = select(func.count()).select_from(table)
            for k, v in where.items():
                q = q.where(table.c[k] == v)
            return conn.execute(q).scalar()
    finally:
        eng.dispose()


def test_loading_a_run_twice_does_not_duplicate_it(tmp_path, db_url):
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    first = history.load(a, db_url)
    again = history.load(a, db_url)
    assert first == again == {"run_id": "20260101T000000Z-default", "figures": 9, "repetitions": 45}
    assert _count(db_url, history.runs) == 1
    assert _count(db_url, history.figures) == 9
    assert _count(db_url, history.repetitions) == 45


def test_runs_of_other_commits_are_kept_apart_and_shown_per_run(tmp_path, db_url):
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    b = _run(tmp_path / "B", "20260102T000000Z-default", 120, seed=2)
    env = (b / "env.json").read_text().replace("c0ffee", "beef00")
    (b / "env.json").write_text(env)
    history.load(a, db_url)
    history.load(b, db_url)
    assert _count(db_url, history.runs, commit="c0ffee" * 6 + "abcd") == 1
    shown = history.show("grpc/java→java", db_url, workload="ping")
    assert [r["run_id"] for r in shown] == ["20260101T000000Z-default", "20260102T000000Z-default"]
    assert shown[0]["n"] == 15 and shown[0]["low"] <= shown[0]["median_us"] <= shown[0]["high"]
    assert 95 < shown[0]["median_us"] < 105 and 115 < shown[1]["median_us"] < 125
    only_b = history.show("grpc/java→java", db_url, commit="beef00")
    assert [r["run_id"] for r in only_b] == ["20260102T000000Z-default"]


def test_compare_reads_runs_from_the_history_as_from_their_folders(tmp_path, db_url):
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    b = _run(tmp_path / "B", "20260102T000000Z-default", 125, seed=2)
    history.load(a, db_url)
    history.load(b, db_url)
    from_folders = compare.comparison(a, b)
    from_db = compare.comparison("20260101T000000Z-default", "20260102T000000Z-default", history=db_url)
    assert from_db["summary"] == from_folders["summary"]
    assert {k: v for k, v in from_db["summary"].items() if k != "covered"} == {"faster": 0, "slower": 1, "~": 1,
                                                                            "pairs": 2, "untestable": 0}
    assert [r["change"] for r in from_db["rows"]] == pytest.approx([r["change"] for r in from_folders["rows"]])


def test_history_commands(tmp_path, db_url, capsys):
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    assert cli.main(["history", "load", str(a), "--history", db_url]) == 0
    assert cli.main(["history", "show", "grpc/java→java", "--workload", "ping", "--history", db_url]) == 0
    out = capsys.readouterr().out
    assert "20260101T000000Z-default: 9 figures, 45 repetitions" in out
    assert "| 20260101T000000Z-default | `c0ffeec` | default | ping |" in out


def test_render_loads_the_run_beside_it(tmp_path, monkeypatch):
    monkeypatch.delenv(history.ENV, raising=False)
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    cli._into_history(a)
    assert _count(history.url(None, root=tmp_path), history.runs) == 1
    monkeypatch.setenv(history.ENV, "off")
    assert history.url(None, root=tmp_path) is None


def test_a_postgresql_url_uses_psycopg_3():
    assert history.url("postgresql://u@h:5/db") == "postgresql+psycopg://u@h:5/db"
    assert history.shown("postgresql+psycopg://u:secret@h/db") == "postgresql+psycopg://u:***@h/db"
