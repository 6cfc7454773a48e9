"""Python and the binary are one program (issue 42): the same records with
the same options give the same JSON, key for key, from `postfacto.report`
and from `postfacto solve --format json`."""

import json
import subprocess
from pathlib import Path

import pytest

from binary import binary

import postfacto

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# Each analysis as the binary's options and as the call's keywords; counts
# are capped so that a fragment with many start boards stays quick.
ANALYSES = [
    ([], {}),
    (["--all", "--count-limit", "20"], {"all": True, "count_limit": 20}),
    (["--count", "--count-limit", "20"], {"count": True, "count_limit": 20}),
    (["--unique"], {"unique": True}),
    (["--minimize", "pieces"], {"minimize": True}),
    (["--explain"], {"explain": True}),
    (["--repair", "--all", "--count-limit", "20"], {"repair": True, "all": True, "count_limit": 20}),
]

# Keys that name the input or time the run: they differ by design.
NAMING = ("name", "input", "time_us")
# The smallest reason of a large conflict is searched for 500 ms at most
# (analysis/explain.rs): which conflict is found in that time depends on the
# machine's load, so for the record whose search runs out of it the reason's
# keys are compared as present, not as equal.
TIMED_REASON = ("core", "core_cnf", "explanation", "message")
TIMED_RECORDS = ("international-impossible.in",)


PROGRAM = binary()
needs_binary = pytest.mark.skipif(PROGRAM is None, reason="no postfacto binary: run `cargo build` first (or set POSTFACTO_BIN)")


def task_format(text):
    """The first side and the moves of one record of the task's format."""
    header, _count, *moves = text.split()
    return {"W": "white", "B": "black"}[header], moves


def generated(rules):
    """A 6-ply fragment of a random game under `rules`, from the binary."""
    run = subprocess.run([str(PROGRAM), "generate", "--rules", rules, "--count", "1", "--plies", "6", "--seed", "3"], capture_output=True, text=True, check=True)
    return run.stdout


def records():
    """(rules, text of a record in the task's format) for every rule set,
    and a few from the test data: impossible, damaged, inferred."""
    found = [(rules, generated(rules)) for rules in postfacto.RULES] if PROGRAM else []
    for rules, name in [("english", "sample2.in"), ("english", "damaged1.in"), ("international", "international-impossible.in"), ("russian", "russian1.in"), ("auto", "spanish1.in")]:
        found.append((rules, (DATA / name).read_text()))
    return found


def timed(text):
    """Whether `text` is a record whose smallest reason is searched against the clock."""
    return any(text == (DATA / name).read_text() for name in TIMED_RECORDS)


def same_names(value, name):
    """`value` with the record's name written NAME wherever it appears."""
    if isinstance(value, str):
        return value.replace(name, "NAME")
    if isinstance(value, list):
        return [same_names(v, name) for v in value]
    if isinstance(value, dict):
        return {k: same_names(v, name) for k, v in value.items()}
    return value


def comparable(report, left_out=()):
    return same_names({k: v for k, v in report.items() if k not in NAMING + left_out}, report["name"])


@needs_binary
@pytest.mark.parametrize("rules,text", records())
@pytest.mark.parametrize("options,keywords", ANALYSES)
def test_the_call_and_the_binary_give_the_same_json(tmp_path, rules, text, options, keywords):
    record = tmp_path / "record.in"
    record.write_text(text)
    run = subprocess.run([str(PROGRAM), "solve", "--format", "json", "--rules", rules, *options, str(record)], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    theirs = json.loads(run.stdout)
    first, moves = task_format(text)
    ours = postfacto.report(moves, rules=rules, first=first, **keywords)
    assert set(ours) == set(theirs)
    left_out = TIMED_REASON if timed(text) else ()
    assert comparable(ours, left_out) == comparable(theirs, left_out)
    for key in left_out:
        assert (ours[key] is None) == (theirs[key] is None), key
    # The outcomes differ between records: these are not all one verdict.
    assert theirs["status"] in ("solved", "impossible")


@needs_binary
def test_the_records_cover_every_rule_set_and_both_verdicts():
    reports = [postfacto.report(task_format(text)[1], rules=rules, first=task_format(text)[0]) for rules, text in records()]
    assert {r["rules"] for r in reports} == set(postfacto.RULES)
    assert {r["status"] for r in reports} == {"solved", "impossible"}


def test_report_solve_and_repair_agree():
    moves = ["32-28", "18-23", "28-18"]
    report = postfacto.report(moves, rules="international", first="white", repair=True)
    repaired = postfacto.repair(moves, rules="international", first="white")
    assert report["status"] == "solved" and report["repaired"]
    assert report["moves"] == repaired.answer.moves
    assert [(e["ply"], e["kind"], e["written"], e["read"]) for e in report["repairs"]] == [(e.ply, e.kind, e.written, e.read) for e in repaired.edits]
    assert report["start_fen"] == repaired.answer.start_fen


def test_report_carries_the_verdict_and_bad_input_raises():
    report = postfacto.report(["11-15", "11-15"], rules="english", first="black", explain=True)
    assert report["status"] == "impossible" and report["explanation"] and report["core"]
    with pytest.raises(postfacto.BadInput):
        postfacto.report(["11-15", "99-15"], rules="english", first="black")


# Boards that name their rule set only by their squares: 8x8 numbers, 10x10
# numbers past 32, 12x12 numbers past 50, and algebraic squares.
OWN_RULES_BOARDS = ["W:W31,32:B27", "W:W45,33:B40,28", "B:W70,55:B60,44", "W:Wc3,e3:Bd4"]


@needs_binary
@pytest.mark.parametrize("fen", OWN_RULES_BOARDS)
def test_legal_moves_infers_the_rule_set_of_a_board_as_the_binary_does(fen):
    printed = subprocess.run(
        [str(PROGRAM), "moves", "-"], input=fen, capture_output=True, text=True, check=True
    ).stdout.split()
    assert printed, f"the binary lists no move on {fen}"
    assert postfacto.legal_moves(fen) == printed
    assert postfacto.legal_moves(fen, rules="auto") == printed


@needs_binary
def test_reach_infers_the_rule_set_of_a_position_as_the_binary_does():
    fen = "B:W28,31,33-50:B1-20"  # one white move into International's opening
    printed = subprocess.run(
        [str(PROGRAM), "reach", "--format", "json", "-"], input=fen, capture_output=True, text=True, check=True
    ).stdout
    game = postfacto.reach(fen)
    assert (game.rules, game.moves) == ("international", ["32-28"])
    assert json.loads(printed)["moves"] == game.moves
