"""Numbers for docs/serve.md: how fast `postfacto serve` starts, and how long
the page takes to show the table of a big archive in headless Chromium.

    python tests/browser/measure.py BINARY ARCHIVE.pdn

Prints one line per measurement; nothing is asserted (the test is
test_page.py).
"""

import statistics
import subprocess
import sys
import tempfile
import time

from test_page import ARGS, CHROMIUM


def start(binary, files):
    began = time.perf_counter()
    server = subprocess.Popen([binary, "serve", "--port", "0", *files],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = server.stdout.readline().strip()
    return server, url, time.perf_counter() - began


def main(binary, archive):
    times = []
    for _ in range(7):
        server, _, took = start(binary, [archive])
        times.append(took)
        server.terminate()
        server.wait()
    print(f"start-up to the address printed: median {statistics.median(times) * 1000:.1f} ms of 7")
    from playwright.sync_api import sync_playwright
    server, url, _ = start(binary, [archive])
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=ARGS, headless=True,
                viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
            for attempt in range(3):
                page.get_by_role("button", name="Archive").click()
                began = time.perf_counter()
                page.get_by_role("button", name=f"Open {archive}").click()
                page.wait_for_function(
                    "document.querySelectorAll('#games tbody tr').length > 0", timeout=600_000)
                first = time.perf_counter() - began
                page.wait_for_function(
                    "document.querySelector('#archive-progress').hidden", timeout=600_000)
                shown = time.perf_counter() - began
                rows = page.locator("#games tbody tr").count()
                print(f"table of {rows} games (attempt {attempt + 1}): first rows {first:.2f} s, "
                      f"all {shown:.2f} s; "
                      f"{page.locator('#status').inner_text()}")
            context.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
