"""The page of `postfacto serve` in a real browser (headless Chromium,
driven by Playwright): an archive, a game stepped with the arrow keys, a
repair, a fragment, a diagram reached; screenshots in target/screenshots/.

Run from the repository's root after `cargo build`:
    python tests/browser/test_page.py
It skips itself, saying why, only where Chromium is missing.
Every expected board and verdict comes from the binary's own commands
(`verify --pdn --format json`, `solve --format json`), not from this file.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("POSTFACTO_BIN", ROOT / "target" / "debug" / "postfacto"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
WK2003 = "../shared/pdn/wk2003.pdn"
MISWRITTEN = "tests/browser/miswritten.pdn"
SAMPLE = ROOT / "../shared/cases/sample1.in"
SHOTS = ROOT / "target" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
TIMEOUT = 60_000


def cli_json(*args, stdin=None):
    """One JSON object per line of the binary's output."""
    out = subprocess.run([str(BINARY), *args], cwd=ROOT, input=stdin, capture_output=True,
                         text=True, timeout=300).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def end_fen_after(moves):
    """The board after `moves` of an International game from the opening, as
    the binary's solve replays it."""
    words = []
    for i, move in enumerate(moves):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(move)
    pdn = f'[GameType "20"]\n{" ".join(words)} *\n'
    with tempfile.NamedTemporaryFile("w", suffix=".pdn", delete=False) as f:
        f.write(pdn)
    try:
        (report,) = cli_json("solve", f.name, "--format", "json")
    finally:
        os.unlink(f.name)
    assert report["status"] == "solved", report
    return report["end_fen"]


def pieces_in(fen):
    """How many pieces a FEN places (ranges like 1-20 counted)."""
    count = 0
    for side in fen.split(":")[1:]:
        for item in side[1:].split(","):
            item = item.strip().lstrip("K")
            if not item:
                continue
            if "-" in item:
                low, high = item.split("-")
                count += int(high) - int(low) + 1
            else:
                count += 1
    return count


def start_server():
    server = subprocess.Popen(
        [str(BINARY), "serve", "--port", "0", "--limit", "20s", WK2003, MISWRITTEN],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = server.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), (url, server.stderr.read() if server.poll() is not None else "")
    return server, url


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def archive(page):
    page.get_by_role("button", name=f"Open {WK2003}").click()
    rows = page.locator("#games tbody tr")
    page.wait_for_function("document.querySelectorAll('#games tbody tr').length === 23", timeout=TIMEOUT)
    expected = cli_json("verify", "--pdn", WK2003, "--format", "json")
    assert rows.count() == len(expected) == 23
    words = {"ok": "replays", "no moves": "no moves"}
    for i, game in enumerate(expected):
        verdict = rows.nth(i).locator("td").last.inner_text()
        assert verdict.startswith(words.get(game["status"], game["status"])), (i, verdict, game)
    assert "23 games" in page.locator("#games caption").inner_text()
    assert page.get_by_role("button", name="ok (23)").count() == 1
    assert page.locator("#games thead th").count() == 8
    shot(page, "1-archive")


def game_steps(page):
    page.get_by_role("button", name="Game 2", exact=True).click()
    moves = page.locator("#game-stepper ol.moves li")
    moves.first.wait_for(timeout=TIMEOUT)
    written = [moves.nth(i).get_attribute("data-move") for i in range(moves.count())]
    page.locator("body").press("Home")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.locator('#game-stepper li[aria-current="step"]').get_attribute("data-ply") == "3"
    fen = page.locator("#game-stepper .facts").inner_text().removeprefix("FEN ").strip()
    assert fen == end_fen_after(written[:3]), (fen, written[:3])
    assert page.locator("#game-stepper svg circle").count() == pieces_in(fen)
    page.keyboard.press("ArrowLeft")
    assert page.locator('#game-stepper li[aria-current="step"]').get_attribute("data-ply") == "2"
    moves.nth(9).click()
    fen = page.locator("#game-stepper .facts").inner_text().removeprefix("FEN ").strip()
    assert fen == end_fen_after(written[:10]), fen
    shot(page, "2-game")


def repair(page):
    page.get_by_role("button", name="Archive").click()
    page.set_input_files("#file-input", str(ROOT / MISWRITTEN))
    page.wait_for_function("document.querySelectorAll('#games tbody tr').length === 2", timeout=TIMEOUT)
    page.get_by_role("button", name="illegal (1)").click()
    assert page.locator("#games tbody tr:not([hidden])").count() == 1
    verdict = page.locator("#games tbody tr:not([hidden]) td").last.inner_text()
    assert verdict.startswith("illegal: 13. 46-42 (ply 25)"), verdict
    shot(page, "3-archive-filtered")
    page.get_by_role("button", name="Game 1", exact=True).click()
    page.get_by_role("button", name="Repair").wait_for(timeout=TIMEOUT)
    said = page.locator("#game-verdict").inner_text()
    assert "Illegal: 13. 46-42 (ply 25)" in said, said
    assert page.locator("#game-stepper li.illegal").count() == 1
    page.get_by_role("button", name="Repair").click()
    page.locator("#repair-result ul li").first.wait_for(timeout=TIMEOUT)
    said = page.locator("#repair-result").inner_text()
    assert "46-41" in said and "Not forced" in said, said
    edited = page.locator("#game-stepper li.edited")
    assert edited.count() == 1 and "46-41" in edited.inner_text()
    edited.click()
    assert page.locator("#game-stepper li.illegal").count() == 0
    assert page.get_by_role("button", name="Download repaired PDN").is_visible()
    shot(page, "4-repair")


def fragment(page):
    page.get_by_role("button", name="Fragment").click()
    text = SAMPLE.read_text()
    page.fill("#fragment-text", text)
    page.get_by_role("button", name="Solve").click()
    page.locator("#fragment-result figure svg").nth(1).wait_for(timeout=TIMEOUT)
    (expected,) = cli_json("solve", "-", "--format", "json", stdin=text)
    facts = page.locator("#fragment-result .facts").first.inner_text()
    assert expected["start_fen"] in facts and expected["end_fen"] in facts, (facts, expected)
    (counted,) = cli_json("solve", "-", "--format", "json", "--count", stdin=text)
    page.wait_for_function("document.querySelector('#fragment-count')?.textContent.includes('Start boards: ')", timeout=TIMEOUT)
    assert f"Start boards: {counted['count']}" in page.locator("#fragment-count").inner_text()
    page.locator("#fragment-minimum figure").wait_for(timeout=TIMEOUT)
    assert page.locator("#fragment-result rect.forced").count() > 0
    shot(page, "5-fragment")


def diagram(page):
    page.get_by_role("button", name="Diagram").click()
    page.get_by_role("button", name="Opening position").click()
    board = page.locator("#diagram-board")
    for square, clicks in (("11", 2), ("15", 3)):  # b -> B -> empty; empty -> w -> W -> b
        for _ in range(clicks):
            board.locator(f'rect[data-square="{square}"]').click()
    page.select_option("#diagram-turn", "white")
    page.get_by_role("button", name="Reach").click()
    page.locator("#reach-steps ol li").first.wait_for(timeout=TIMEOUT)
    assert page.locator("#reach-steps ol li").count() == 1
    assert "11-15" in page.locator("#reach-steps ol li").first.inner_text()
    assert page.locator("#diagram-fen").input_value() == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    shot(page, "6-diagram-reach")
    # A FEN pasted, and one no game reaches.
    page.fill("#diagram-fen", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12,13")
    page.get_by_role("button", name="Set FEN").click()
    page.wait_for_function("document.querySelectorAll('#diagram-board circle').length === 25", timeout=TIMEOUT)
    page.get_by_role("button", name="Reach").click()
    page.locator("#reach-result p").wait_for(timeout=TIMEOUT)
    assert page.locator("#reach-result p").inner_text().startswith("Unreachable"), page.locator("#reach-result p").inner_text()


def phone(page, url):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{url}#view=game&file={MISWRITTEN}&game=2")
    page.wait_for_function("document.querySelector('#game-heading').textContent.startsWith('Game 2:')"
                           " && document.querySelector('#status').textContent.startsWith('Game 2 opened')",
                           timeout=TIMEOUT)
    moves = page.locator("#game-stepper ol.moves")
    moves.locator("li").first.wait_for(timeout=TIMEOUT)
    board = page.locator("#game-stepper svg.board").bounding_box()
    listed = moves.bounding_box()
    assert listed["y"] >= board["y"] + board["height"], (board, listed)
    assert board["x"] + board["width"] <= 390
    shot(page, "7-phone-game")


def main():
    if not Path(CHROMIUM).exists():
        print(f"skipped: no Chromium at {CHROMIUM} (apt-get install chromium)")
        return 0
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        # Chromium is here, so the test must run: a missing driver is a failure.
        print("failed: the Python package playwright is not installed (pip install playwright)")
        return 1
    assert BINARY.exists(), f"build the binary first: {BINARY}"
    server, url = start_server()
    profile = tempfile.mkdtemp(prefix="postfacto-chromium-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=ARGS, headless=True,
                viewport={"width": 1280, "height": 800})
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT)
            for step in (archive, game_steps, repair, fragment, diagram):
                step(page)
                print(f"ok: {step.__name__}")
            phone(page, url)
            print("ok: phone")
            assert not errors, errors
            context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)
    print(f"the page passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
