"""Python and the binary are one program (issue 42), for the judge: the same
records and answers give the same verdicts from `postfacto.judge` and from
`postfacto verify INPUT ANSWER`, record by record, with the same exit status."""

import subprocess
from pathlib import Path

import pytest

from binary import binary

import postfacto

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

INPUTS = ["sample1.in", "sample2.in", "games.pdn", "russian1.in", "international1.in"]
ANSWERS = ["sample1.ans", "sample2.ans"]
STATUS = {"accepted": 0, "rejected": 1, "undecided": 3}

PROGRAM = binary()
needs_binary = pytest.mark.skipif(PROGRAM is None, reason="no postfacto binary: run `cargo build` first (or set POSTFACTO_BIN)")


def binary_verdicts(record, answer, flags):
    """The binary's lines (their `instance N: ` or name prefix left out) and exit status."""
    run = subprocess.run([str(PROGRAM), "verify", *flags, str(record), str(answer)], capture_output=True, text=True)
    assert run.returncode in (0, 1, 3), run.stderr
    lines = run.stdout.splitlines()
    if len(lines) > 1:
        lines = [line.split(": ", 1)[1] for line in lines]
    return lines, run.returncode


def solved_batch(tmp_path):
    """`solve`'s named answers to sample1 and sample2, as a batch."""
    run = subprocess.run([str(PROGRAM), "solve", str(DATA / "sample1.in"), str(DATA / "sample2.in")], capture_output=True, text=True)
    path = tmp_path / "two.ans"
    path.write_text(run.stdout)
    return path


@needs_binary
@pytest.mark.parametrize("record", INPUTS)
@pytest.mark.parametrize("answer", ANSWERS + ["batch"])
@pytest.mark.parametrize("flags,keywords", [([], {}), (["--rules", "auto"], {"rules": "auto"}), (["--repair", "--max-edits", "1"], {"repair": True, "max_edits": 1})], ids=["plain", "auto", "repair"])
def test_the_call_and_the_binary_give_the_same_verdicts(tmp_path, record, answer, flags, keywords):
    answer_path = solved_batch(tmp_path) if answer == "batch" else DATA / answer
    path = DATA / record
    theirs, status = binary_verdicts(path, answer_path, flags)
    ours = postfacto.judge(path.read_text(), answer_path.read_text(), name=str(path), **keywords)
    assert [reason or "OK" for _, _, reason in ours] == theirs
    assert max(STATUS[s] for _, s, _ in ours) == status


@needs_binary
def test_the_comparison_meets_every_kind_of_verdict(tmp_path):
    """Accepted, a replay's rejection and a batch's named answers are among
    the cases above: it does not compare only one kind."""
    accepted = postfacto.judge((DATA / "sample2.in").read_text(), solved_batch(tmp_path).read_text(), name="sample2.in")
    assert accepted == [("sample2.in", "accepted", None)]
    (_, status, reason), = postfacto.judge((DATA / "sample1.in").read_text(), (DATA / "sample2.ans").read_text())
    assert status == "rejected" and reason.startswith("ply 1 (21-17)")


def test_records_that_cannot_be_read_raise():
    with pytest.raises(postfacto.BadInput):
        postfacto.judge("W 1\n99-15\n", "", rules="english")


@needs_binary
def test_a_move_that_is_no_move_is_mended_with_a_repair_as_the_binary_mends_it(tmp_path):
    """With `repair`, `19x27` (no jump) is a mistake to mend, not bad input,
    in both front ends."""
    record = tmp_path / "geo.in"
    record.write_text("W 3\n21-17\n13x22x31x24\n19x27\n")
    answer = DATA / "sample1.ans"
    theirs, status = binary_verdicts(record, answer, ["--repair"])
    ours = postfacto.judge(record.read_text(), answer.read_text(), name=str(record), repair=True)
    assert [reason for _, _, reason in ours] == theirs
    assert status == 1 and "19x27 read as 19x28 (square)" in ours[0][2]
    with pytest.raises(postfacto.BadInput):
        postfacto.judge(record.read_text(), answer.read_text())
