#!/usr/bin/env python3
"""Jump paths per second in headless Chromium against native, in one run
(docs/web.md): the page (web/, served on 127.0.0.1 by python3 -m
http.server, driven by chromedriver as tests/wasm/page_test.py does) counts
the jump paths of jumps-24's 24 positions 5 times (countJumpPaths, on the
page's main thread), alternating with the native CLI's `phutball count
--paths --repeat 5`; and the engine's nodes per second on the start (a
200000-node analysis, in the page and by `phutball best --nodes`);
medians of the rounds.
Usage: python3 benches/wasm/browser.py [CLI] [ROUNDS]"""

import pathlib
import re
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "wasm"))
from page_test import CHROMEDRIVER, WEB, Driver, free_port  # noqa: E402

FIXTURE = ROOT / "crates" / "phutball" / "tests" / "data" / "jumps-24.fixture"
PASSES = 5
NODES = 200000
ANALYSE = """
const [nodes, done] = arguments;
import('./pkg/phutball.js').then(async (w) => {
  await w.default();
  const a = w.analyse(new w.Position(), undefined, undefined, nodes);
  done(a.nodes / (a.elapsedMs / 1000));
}).catch((e) => done(String(e)));
"""
COUNT = """
const [lines, passes, done] = arguments;
import('./pkg/phutball.js').then(async (w) => {
  await w.default();
  const positions = lines.map((line) => new w.Position(line));
  const started = performance.now();
  let paths = 0;
  for (let pass = 0; pass < passes; pass++) for (const p of positions) paths += p.countJumpPaths();
  done(paths / ((performance.now() - started) / 1000));
}).catch((e) => done(String(e)));
"""


def native(cli):
    run = subprocess.run([cli, "count", "--paths", "--repeat", str(PASSES), str(FIXTURE)],
                         capture_output=True, text=True, check=True)
    return float(re.search(r"([\d.]+) million paths per second", run.stderr)[1]) * 1e6


def native_nodes(cli):
    run = subprocess.run([cli, "best", "--nodes", str(NODES), "start"],
                         capture_output=True, text=True, check=True)
    return float(re.search(r"\((\d+) nodes/s\)", run.stderr)[1])


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "release" / "phutball")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    lines = [line.strip() for line in FIXTURE.read_text().splitlines()
             if "/" in line and not line.startswith("#")]
    web_port, driver_port = free_port(), free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(web_port), "--bind",
                               "127.0.0.1", "--directory", str(WEB)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    chromedriver = subprocess.Popen([CHROMEDRIVER, f"--port={driver_port}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1)
        driver = Driver(driver_port)
        driver.session_call("POST", "/timeouts", {"script": 120000})
        driver.session_call("POST", "/url", {"url": f"http://127.0.0.1:{web_port}/index.html"})
        rows = {"jump paths/s on jumps-24": ([], []), f"engine nodes/s ({NODES} nodes) on the start": ([], [])}
        paths, nodes = rows.values()
        for _ in range(rounds):
            paths[0].append(native(cli))
            paths[1].append(float(driver.session_call(
                "POST", "/execute/async", {"script": COUNT, "args": [lines, PASSES]})))
            nodes[0].append(native_nodes(cli))
            nodes[1].append(float(driver.session_call(
                "POST", "/execute/async", {"script": ANALYSE, "args": [NODES]})))
        driver.call("DELETE", f"/session/{driver.session}")
        for label, (cpu, page) in rows.items():
            n, b = statistics.median(cpu), statistics.median(page)
            print(f"{label}: native {n / 1e6:.2f} M, Chromium {b / 1e6:.2f} M, ratio {b / n:.2f}x")
    finally:
        chromedriver.terminate()
        server.terminate()
        chromedriver.wait(10)
        server.wait(10)


if __name__ == "__main__":
    main()
