"""Check a folder of PDN archives game by game across Dask workers.

One task per file: each worker reads its file with ``postfacto.read_pdn``
(the checks ``postfacto verify --pdn`` makes; with ``--repair``, the games
that do not replay also get the fewest edits that make them replay), and
the client gathers one row per game into a table of verdicts.

    python archive_on_dask.py FOLDER                  # a local cluster, 2 workers
    python archive_on_dask.py FOLDER --workers 8
    python archive_on_dask.py FOLDER --scheduler tcp://host:8786
    python archive_on_dask.py FOLDER --repair --limit 5 --csv verdicts.csv

Every worker needs the ``postfacto`` package (``pip install ./python``).
See docs/scale.md for how this grows to millions of games.
"""

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional

#: The columns of the table, in order.
COLUMNS = ["file", "game", "line", "rules", "inferred", "status", "ply", "reason", "repair"]


def check_file(path: str, repair: bool = False, limit: Optional[float] = None) -> List[Dict]:
    """The rows of one archive: one per game (runs on a worker)."""
    import postfacto  # imported on the worker

    rows = []
    try:
        games = postfacto.read_pdn(path)
    except postfacto.PostfactoError as error:
        return [dict.fromkeys(COLUMNS) | {"file": path, "status": "unreadable", "reason": str(error)}]
    for game in games:
        row = {
            "file": path,
            "game": game.number,
            "line": game.line,
            "rules": game.rules,
            "inferred": game.inferred,
            "status": game.status,
            "ply": game.ply,
            "reason": game.reason,
            "repair": None,
        }
        if repair and game.status == "illegal":
            row["repair"] = repaired(game, limit)
        rows.append(row)
    return rows


def repaired(game, limit: Optional[float]) -> str:
    """The fewest edits that make a game that does not replay replay, in
    words, or why there is none: from where the game starts (its [FEN], or
    its rule set's opening), as `postfacto verify --pdn --repair` does."""
    import postfacto

    try:
        fix = game.repair(limit=limit)
    except postfacto.PostfactoError as error:
        return f"{type(error).__name__}: {error}"
    return "; ".join(f"ply {e.ply} {e.kind}: {e.written or '-'} -> {e.read or '-'}" for e in fix.edits)


def archives(folder: Path) -> List[str]:
    """Every PDN file under `folder`, in name order."""
    return sorted(str(p) for p in folder.rglob("*") if p.suffix.lower() == ".pdn" and p.is_file())


def check_folder(folder: Path, client, repair: bool = False, limit: Optional[float] = None) -> List[Dict]:
    """Every game of every archive under `folder`, one task per file on
    `client`'s cluster; the rows in file order, then game order."""
    paths = archives(folder)
    futures = client.map(check_file, paths, repair=repair, limit=limit, pure=False)
    rows: List[Dict] = []
    for file_rows in client.gather(futures):
        rows.extend(file_rows)
    return rows


def summary(rows: List[Dict]) -> str:
    """`1234 games in 9 files: 1200 ok, 30 no moves, 4 illegal`."""
    counts = Counter(row["status"] for row in rows)
    files = len({row["file"] for row in rows})
    parts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    return f"{len(rows)} games in {files} files: {parts}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--workers", type=int, default=2, help="local workers (without --scheduler)")
    parser.add_argument("--scheduler", help="the address of a running Dask scheduler")
    parser.add_argument("--repair", action="store_true", help="repair the games that do not replay")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per repair")
    parser.add_argument("--csv", type=Path, help="write the table here instead of standard output")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"archive_on_dask: {args.folder}: not a folder", file=sys.stderr)
        return 2

    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True))
    with client:
        rows = check_folder(args.folder, client, repair=args.repair, limit=args.limit)
    out = open(args.csv, "w", newline="") if args.csv else sys.stdout
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(rows)
    if args.csv:
        out.close()
    print(summary(rows), file=sys.stderr)
    return 0 if all(row["status"] in ("ok", "no moves") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
