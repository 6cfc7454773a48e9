"""The Dask example on ../shared/pdn with a local cluster of two workers
gives the verdicts `postfacto verify --pdn` gives on the same files."""

import importlib.util
import json
import subprocess
from pathlib import Path

import pytest

from binary import binary

distributed = pytest.importorskip("dask.distributed", reason="dask[distributed] is not installed")

ROOT = Path(__file__).resolve().parents[2]
SHARED_PDN = ROOT.parent / "shared" / "pdn"


def example():
    spec = importlib.util.spec_from_file_location("archive_on_dask", ROOT / "python" / "examples" / "archive_on_dask.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verified_by_the_binary(program, path):
    run = subprocess.run([str(program), "verify", "--pdn", "--format", "json", path], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    return [json.loads(line) for line in run.stdout.splitlines() if line.strip()]


@pytest.mark.skipif(not SHARED_PDN.is_dir(), reason="../shared/pdn is not beside the checkout")
def test_two_workers_give_the_verdicts_of_verify_pdn(tmp_path):
    program = binary()
    if program is None:
        pytest.skip("no postfacto binary: run `cargo build` first (or set POSTFACTO_BIN)")
    module = example()
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        rows = module.check_folder(SHARED_PDN, client)
    files = module.archives(SHARED_PDN)
    assert {row["file"] for row in rows} == set(files) and len(files) >= 5
    for path in files:
        ours = [(r["game"], r["line"], r["rules"], r["status"], r["ply"], r["reason"]) for r in rows if r["file"] == path]
        theirs = [(g["game"], g["line"], g["rules"], g["status"], g["ply"], g["reason"]) for g in verified_by_the_binary(program, path)]
        assert ours == theirs, path
    assert "games in" in module.summary(rows)


def test_the_example_refuses_a_missing_folder(capsys):
    assert example().main(["/no/such/folder"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_a_file_that_is_not_text_is_one_row(tmp_path):
    bad = tmp_path / "bad.pdn"
    bad.write_bytes(b"\x00\x01")
    rows = example().check_file(str(bad))
    assert rows[0]["status"] == "unreadable" and "NUL" in rows[0]["reason"]


def test_an_illegal_game_is_repaired_on_request(tmp_path):
    game = tmp_path / "one.pdn"
    game.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x24 *\n')
    rows = example().check_file(str(game), repair=True, limit=20)
    assert (rows[0]["status"], rows[0]["ply"]) == ("illegal", 4)
    # 14x23 and 13x24 are both one square away and both replay.
    assert rows[0]["repair"] in ("ply 4 square: 14x24 -> 14x23", "ply 4 square: 14x24 -> 13x24")


def test_a_game_without_fen_is_repaired_from_the_opening(tmp_path):
    # As a fragment these moves need no edit; from the opening (where a
    # game without [FEN] starts) square 24 is taken, and one edit mends it.
    game = tmp_path / "opening.pdn"
    game.write_text('[GameType "21"]\n1. 11-15 23-19 2. 15x24 28x19 *\n')
    rows = example().check_file(str(game), repair=True, limit=30)
    assert (rows[0]["status"], rows[0]["ply"]) == ("illegal", 3)
    assert rows[0]["repair"] == "ply 2 square: 23-19 -> 24-19"
