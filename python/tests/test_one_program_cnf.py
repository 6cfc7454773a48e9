"""Python and the binary are one program (issue 42), for the formula: the
same record gives the same DIMACS text from `postfacto.cnf` and from
`postfacto cnf`, byte for byte, and a model of it decodes to the same
answer through `postfacto.decode` and `postfacto decode`."""

import subprocess
from pathlib import Path

import pytest

from binary import binary

import postfacto

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

PROGRAM = binary()
needs_binary = pytest.mark.skipif(PROGRAM is None, reason="no postfacto binary: run `cargo build` first (or set POSTFACTO_BIN)")


def generated(rules):
    """A 6-ply fragment of a random game under `rules`, from the binary."""
    run = subprocess.run([str(PROGRAM), "generate", "--rules", rules, "--count", "1", "--plies", "6", "--seed", "5"], capture_output=True, text=True, check=True)
    return run.stdout


# Canadian's formula takes the unoptimised binary some 40 s to write (the
# 12x12 board's capture tables), three times per record here: left out.
SLOW = ("canadian",)


def records():
    """(rules, text of a record in the task's format): a fragment of every
    rule set but the slow ones, and a damaged record (moves written `?`)."""
    found = [(rules, generated(rules)) for rules in postfacto.RULES if rules not in SLOW] if PROGRAM else []
    found.append(("english", (DATA / "damaged1.in").read_text()))
    return found


def task_format(text):
    """The first side and the moves of one record of the task's format."""
    header, _count, *moves = text.split()
    return {"W": "white", "B": "black"}[header], moves


def run(*args, stdin=None):
    return subprocess.run([str(PROGRAM), *map(str, args)], capture_output=True, text=True, input=stdin)


@needs_binary
@pytest.mark.parametrize("rules,text", records(), ids=lambda v: v if isinstance(v, str) and "\n" not in v else None)
def test_the_call_and_the_binary_write_the_same_formula_and_decode_its_model_alike(tmp_path, rules, text):
    record = tmp_path / "record.in"
    record.write_text(text)
    first, moves = task_format(text)
    binary_cnf = run("cnf", "--rules", rules, record)
    assert binary_cnf.returncode == 0, binary_cnf.stderr
    ours = postfacto.cnf(moves, rules=rules, first=first)
    assert ours == binary_cnf.stdout
    assert any(line.startswith("p cnf ") for line in ours.splitlines())

    solved = run("sat", "-", stdin=ours)
    assert solved.returncode == 10, solved.stdout
    model = tmp_path / "model.txt"
    model.write_text(solved.stdout)
    decoded = run("decode", "--rules", rules, record, model)
    assert decoded.returncode == 0, decoded.stderr
    answer = postfacto.decode(moves, solved.stdout, rules=rules, first=first)
    # The binary prints the start board's rows beside the end board's.
    rows = [line.split() for line in decoded.stdout.splitlines()]
    assert [start for start, _end in rows] == answer.start
    assert [end for _start, end in rows] == answer.end


@needs_binary
def test_a_model_of_another_formula_is_refused_by_both(tmp_path):
    rules, text = records()[0]
    record = tmp_path / "record.in"
    record.write_text(text)
    first, moves = task_format(text)
    wrong = "s SATISFIABLE\nv " + " ".join(f"-{i}" for i in range(1, 50)) + " 0\n"
    model = tmp_path / "model.txt"
    model.write_text(wrong)
    decoded = run("decode", "--rules", rules, record, model)
    assert decoded.returncode == 1 and "not a model of the formula" in decoded.stderr
    # Exit 1 is Impossible in Python (issue 42: one program), not BadInput.
    with pytest.raises(postfacto.Impossible, match="not a model of the formula"):
        postfacto.decode(moves, wrong, rules=rules, first=first)


@needs_binary
def test_no_model_is_impossible_and_an_unreadable_one_bad_input_in_both(tmp_path):
    rules, text = records()[0]
    record = tmp_path / "record.in"
    record.write_text(text)
    first, moves = task_format(text)
    for model_text, status, error in [("s UNSATISFIABLE\n", 1, postfacto.Impossible), ("v x 0\n", 2, postfacto.BadInput)]:
        model = tmp_path / "model.txt"
        model.write_text(model_text)
        decoded = run("decode", "--rules", rules, record, model)
        assert decoded.returncode == status, decoded.stderr
        with pytest.raises(error):
            postfacto.decode(moves, model_text, rules=rules, first=first)
