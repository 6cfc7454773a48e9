"""A call with a limit returns at the limit and leaves no thread of it running (issue 43)."""

import os
import time
from pathlib import Path

import pytest

import postfacto

ROOT = Path(__file__).resolve().parents[2]
# 60 of 100 plies unknown: minutes of search without a limit.
HARD = ROOT / "tests" / "data" / "english-hard.in"


def threads():
    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_a_limited_call_on_a_hard_record_stops_its_work():
    header, *moves = HARD.read_text().split()
    first = {"B": "black", "W": "white"}[header]
    moves = moves[1:]  # the ply count
    before = threads()
    started = time.monotonic()
    with pytest.raises(postfacto.Undecided):
        postfacto.solve(moves, rules="english", first=first, limit=1)
    took = time.monotonic() - started
    assert took < 1.2, took
    assert threads() == before, "a thread of the call is left"
    cpu = time.process_time()
    time.sleep(1)
    busy = time.process_time() - cpu
    assert busy < 0.05, f"{busy:.2f} s of CPU in the second after the call"
