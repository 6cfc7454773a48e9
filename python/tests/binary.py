"""The postfacto binary the tests compare the package with."""

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def binary():
    """The postfacto binary `cargo build` or `cargo test` made, if any
    (`POSTFACTO_BIN` names another), else one on the PATH."""
    named = os.environ.get("POSTFACTO_BIN")
    candidates = [Path(named)] if named else [ROOT / "target" / kind / "postfacto" for kind in ("debug", "release")]
    found = [p for p in candidates if p.exists()]
    if not found:
        on_path = shutil.which("postfacto")
        return Path(on_path) if on_path else None
    return max(found, key=lambda p: p.stat().st_mtime)
