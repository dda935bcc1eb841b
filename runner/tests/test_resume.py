"""Resuming an interrupted run: the journal, the code check and the trimming of half-done steps."""
import json
from pathlib import Path

import pytest

from conductor import environment, plan, resume
from test_analysis import _git_tree


def _rec(cell: str, workload: str, pass_no: int) -> str:
    return json.dumps({"cell": cell, "workload": workload, "pass": pass_no, "status": "pass"}) + "\n"


def _interrupted_run(tmp_path: Path, root: Path) -> Path:
    """Two cells, two passes; the handlers, pass 1's floor and cell a of pass 1 finished, cell b cut short."""
    run = tmp_path / "run"
    (run / "plan").mkdir(parents=True)
    (run / "plan" / "p.tsv").write_text("ping small 1 2 2 0 2\n")
    (run / "plan" / "profile.json").write_text(json.dumps(plan.resolve("full", {}, passes=2)))
    env = {"run": {"profile": {"name": "full", "passes": 2}, **environment.code_state(root)}}
    (run / "env.json").write_text(json.dumps(env))
    (run / "cells.jsonl").write_text("".join(json.dumps({"name": n, "protocol": "p", "slug": n}) + "\n" for n in "ab"))
    for name in "ab":
        (run / "cells" / name / "pass1").mkdir(parents=True)
        (run / "cells" / name / "cell.json").write_text(json.dumps({"name": name}))
    (run / "floor" / "pass1").mkdir(parents=True)
    (run / "handlers" / "java").mkdir(parents=True)
    (run / "progress.jsonl").write_text('{"pass": 1, "stage": "handlers"}\n{"pass": 1, "stage": "floor"}\n'
                                        '{"pass": 1, "cell": "a"}\n{"pass": 1, "ce')  # torn by the kill
    (run / "results.jsonl").write_text(_rec("handler/java", "ping", 1) + _rec("floor/c→c", "ping", 1)
                                       + _rec("a", "vectors", 1) + _rec("a", "ping", 1) + _rec("b", "vectors", 1)
                                       + '{"cell": "b", "workload": "pi')  # torn by the kill
    return run


def test_resume_keeps_finished_steps_and_drops_the_cut_short_cell(tmp_path):
    root, _ = _git_tree(tmp_path)
    run = _interrupted_run(tmp_path, root)
    assert resume.finished(run) == {(1, "stage:handlers"), (1, "stage:floor"), (1, "a")}
    assert resume.progress(run) == (1, 4)
    line = resume.resume(run, root)
    assert "1 of 4 cells finished" in line and "2 records" in line
    kept = [(r["cell"], r["workload"]) for r in map(json.loads, (run / "results.jsonl").read_text().splitlines())]
    assert kept == [("handler/java", "ping"), ("floor/c→c", "ping"), ("a", "vectors"), ("a", "ping")]
    assert (run / "cells" / "a" / "pass1").is_dir() and not (run / "cells" / "b" / "pass1").exists()
    assert (run / "floor" / "pass1").is_dir() and (run / "handlers" / "java").is_dir()
    resumed = json.loads((run / "env.json").read_text())["run"]["resumed"]
    assert len(resumed) == 1 and resumed[0]["cells_finished"] == 1 and resumed[0]["cells_total"] == 4
    assert resumed[0]["boot_id"] and resumed[0]["kernel"]
    # the torn journal line is gone, so the next step's line starts on a line of its own
    assert (run / "progress.jsonl").read_text().endswith('"cell": "a"}\n')


def test_resume_starts_unfinished_stages_again(tmp_path):
    root, _ = _git_tree(tmp_path)
    run = _interrupted_run(tmp_path, root)
    (run / "progress.jsonl").write_text("")
    resume.trim(run)
    assert (run / "results.jsonl").read_text() == ""
    assert not (run / "handlers").exists() and not (run / "floor" / "pass1").exists()


def test_resume_refuses_other_code_and_a_finished_run(tmp_path):
    import subprocess
    root, _ = _git_tree(tmp_path)
    clean = _interrupted_run(tmp_path / "clean", root)
    (root / "tracked.txt").write_text("changed\n")
    with pytest.raises(resume.ResumeError, match="tracked files differ"):
        resume.check(clean, root)
    # a run made with uncommitted changes resumes only with the very same changes
    dirty = _interrupted_run(tmp_path / "dirty", root)
    resume.check(dirty, root)
    (root / "tracked.txt").write_text("changed again\n")
    with pytest.raises(resume.ResumeError, match="tracked files differ"):
        resume.check(dirty, root)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "two"],
                   check=True)
    with pytest.raises(resume.ResumeError, match="HEAD is"):
        resume.check(clean, root)
    done = _interrupted_run(tmp_path / "done", root)
    steps = [{"pass": p, "cell": c} for p in (1, 2) for c in "ab"]
    (done / "progress.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    with pytest.raises(resume.ResumeError, match="nothing to resume"):
        resume.check(done, root)
