"""Python and the binary are one program (issue 42), for archives: the same
PDN files with the same options give the same JSON, game by game and key for
key, from `postfacto.verify` and from `postfacto verify --pdn --format json`."""

import json
import subprocess
from pathlib import Path

import pytest

from binary import binary

import postfacto

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SHARED_PDN = ROOT.parent / "shared" / "pdn"

# Real archives (every rule set's notation, games without moves, a file whose
# rules are inferred once) and damaged ones (illegal moves to repair).
FILES = sorted(SHARED_PDN.glob("*.pdn")) + [DATA / name for name in ("damaged.pdn", "misread.pdn", "games.pdn", "italian.pdn", "international.pdn")]

# Each option as the binary's flags and as the call's keywords. The repair's
# limit is generous: a repair cut short by the clock is compared elsewhere.
OPTIONS = [
    ([], {}),
    (["--strict"], {"strict": True}),
    (["--repair", "--max-edits", "2", "--limit", "30s"], {"repair": True, "max_edits": 2, "limit": 30.0}),
]

PROGRAM = binary()
needs_binary = pytest.mark.skipif(PROGRAM is None, reason="no postfacto binary: run `cargo build` first (or set POSTFACTO_BIN)")


def binary_reports(path, flags):
    """The binary's JSON objects for `path`, and its exit status."""
    run = subprocess.run([str(PROGRAM), "verify", "--pdn", str(path), "--format", "json", *flags], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()], run.returncode


@needs_binary
@pytest.mark.parametrize("path", [p for p in FILES if p.exists()], ids=lambda p: p.name)
@pytest.mark.parametrize("flags,keywords", OPTIONS, ids=["plain", "strict", "repair"])
def test_the_call_and_the_binary_give_the_same_json(path, flags, keywords):
    theirs, _status = binary_reports(path, flags)
    ours = postfacto.verify(path, **keywords)
    assert len(ours) == len(theirs) > 0
    for mine, binary_game in zip(ours, theirs):
        assert mine["input"] == str(path) == binary_game["input"]
        assert mine == binary_game


@needs_binary
def test_the_files_cover_every_verdict_and_a_repair():
    """The comparison above meets games that replay, that do not, without
    moves, and a repair found: it does not compare only one kind."""
    reports = [game for path in FILES if path.exists() for game in postfacto.verify(path, repair=True, max_edits=2, limit=30.0)]
    assert {"ok", "illegal", "no moves"} <= {g["status"] for g in reports}
    assert any(g["repair"] and g["repair"]["outcome"] == "repaired" for g in reports)
    assert any(g["rules_from"] == "inferred" for g in reports)


@needs_binary
def test_rules_given_over_the_tags_agree(tmp_path):
    path = DATA / "misread.pdn"
    theirs, status = binary_reports(path, ["--rules", "english"])
    ours = postfacto.verify(path, rules="english")
    assert ours == theirs
    assert status == 1 and all(g["rules_from"] == "given" for g in ours)


def test_text_and_path_give_the_same_games():
    path = DATA / "misread.pdn"
    from_text = postfacto.verify(text=path.read_text())
    from_path = postfacto.verify(path)
    assert [dict(g, input=None) for g in from_text] == [dict(g, input=None) for g in from_path]
    assert from_text[0]["input"] == "<text>"
    assert [g["status"] for g in from_path] == [g.status for g in postfacto.read_pdn(path)]


def test_a_missing_archive_raises_and_both_inputs_are_refused():
    with pytest.raises(FileNotFoundError):
        postfacto.verify(DATA / "no such file.pdn")
    with pytest.raises(postfacto.BadInput):
        postfacto.verify(DATA / "misread.pdn", text="1. 32-28 *")


@needs_binary
def test_legal_starts_agree():
    """`legal=True` is `--legal`: a reachable diagram with its game, an
    unreachable one with its reason, a game from the opening with null."""
    path = DATA / "legal.pdn"
    theirs, status = binary_reports(path, ["--legal"])
    ours = postfacto.verify(path, legal=True)
    assert ours == theirs and status == 1
    assert [g["legal"] and g["legal"]["status"] for g in ours] == ["reachable", "unreachable", None]
    assert ours[0]["legal"]["game"] == ["11-15"]


def test_a_game_s_repair_is_the_archive_s():
    """`PdnGame.repair` reads the game as `verify --pdn --repair` does: a
    legal game needs no edit (captures written short are moves, not
    mistakes), and an illegal one gets the archive's first repair."""
    compared = 0
    for path in [p for p in FILES if p.exists()]:
        reports = postfacto.verify(path, repair=True, max_edits=2, limit=30.0)
        for game, report in zip(postfacto.read_pdn(path), reports):
            if game.status == "ok":
                assert game.repair(limit=30.0).edits == [], (path.name, game.number)
                compared += 1
            elif report["repair"] and report["repair"]["outcome"] == "repaired":
                mine = [(e.ply, e.kind, e.written, e.read) for e in game.repair(max_edits=2, limit=30.0).edits]
                theirs = [(e["ply"], e["kind"], e["written"], e["read"]) for e in report["repair"]["edits"]]
                assert mine == theirs, (path.name, game.number)
                compared += 1
    assert compared > 300
