#!/usr/bin/env python3
"""The playground page (web/) in headless Chromium: a plain file server
(python3 -m http.server) serves web/ on 127.0.0.1, chromedriver (Debian's
chromium-driver) drives Debian's chromium through the WebDriver protocol
(plain HTTP from the standard library: no selenium), and real pointer
clicks on the board load the seeds' position (Eks to move) from a record,
place Eks's man and make Ohs's jump K6-G9-G11-J11 step by step, ended by a
click on the ball. Then "Engine move" (in the page's Web Worker) must add one
move, which the package checks from Node (Game.fromRecord replays every
move), "Undo" takes it back, and a click on the flipped board places a man; "Who wins?" with a long limit is cancelled and the page must answer
at once. With "Evaluation: network" the engine's move on the standard
board is the built-in network's (legal, replayed by Node), on a 9x9
board the page says the network cannot judge it, and "auto" (the default)
plays there. The record is read back from the page, and a screenshot of the
game after the engine's move goes to target/wasm-playground.png. Needs web/pkg (scripts/build-wasm.sh)."""

import base64
import json
import pathlib
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
SCREENSHOT = ROOT / "target" / "wasm-playground.png"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SEEDS = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 X"
STEP_SECONDS = 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """The few WebDriver calls the test makes."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1300,1000"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())["value"]

    def session_call(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def run(self, script, *args):
        return self.session_call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click_at(self, x, y):
        """A real pointer click at viewport coordinates."""
        self.session_call("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": "viewport",
                         "x": round(x), "y": round(y)},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0}]}]})

    def click_button(self, element_id):
        box = self.run(f"const r = document.getElementById('{element_id}').getBoundingClientRect();"
                       "return [r.x + r.width / 2, r.y + r.height / 2];")
        self.click_at(*box)

    def click_point(self, point):
        """A click on `point` of the board, where the core draws it."""
        xy = self.run(
            "const g = window.playground.game, svg = document.querySelector('#board svg');"
            "const [x, y] = g.position.svgPointCentre(arguments[0], window.playground.flip);"
            "const p = svg.createSVGPoint(); p.x = x; p.y = y;"
            "const c = p.matrixTransform(svg.getScreenCTM()); return [c.x, c.y];", point)
        self.click_at(*xy)

    def text(self, element_id):
        return self.run(f"const e = document.getElementById('{element_id}');"
                        "return e.value !== undefined ? e.value : e.textContent;")

    def wait(self, what, check):
        deadline = time.monotonic() + STEP_SECONDS
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; status: {self.text('status')!r}")


def moves_of(record):
    return [line for line in record.splitlines() if line and not line.startswith(("start", "rules", "limit"))]


def replayed_by_node(record):
    """The record's moves as the package replays them in Node (each checked)."""
    script = ("import {readFileSync} from 'node:fs';"
              f"const w = await import({json.dumps((WEB / 'pkg' / 'phutball.js').as_uri())});"
              f"w.initSync({{module: readFileSync({json.dumps(str(WEB / 'pkg' / 'phutball_bg.wasm'))})}});"
              "const g = w.Game.fromRecord(readFileSync(0, 'utf8'));"
              "console.log(JSON.stringify(g.moves));")
    out = subprocess.run(["node", "--input-type=module", "-e", script], input=record,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def play_the_page(driver, url):
    driver.session_call("POST", "/url", {"url": url})
    driver.wait("the page to load", lambda: driver.run("return !!window.playground"))
    driver.run("document.getElementById('record').value = arguments[0];"
               "document.getElementById('engine-ms').value = '300';", f"start {SEEDS}\n")
    driver.click_button("load")
    driver.wait("the seeds' position", lambda: driver.text("record").startswith(f"start {SEEDS}"))
    driver.click_point("B2")  # Eks places a man
    driver.wait("the placement", lambda: moves_of(driver.text("record")) == ["B2"])
    for point in ["G9", "G11", "J11"]:  # Ohs jumps, one click a jump
        driver.click_point(point)
    driver.wait("the jump under way", lambda: driver.text("path") == "K6-G9-G11-J11")
    driver.click_point("J11")  # a click on the ball ends the jump
    driver.wait("the jump", lambda: moves_of(driver.text("record")) == ["B2", "K6-G9-G11-J11"])
    driver.click_button("engine")
    driver.wait("the engine's move", lambda: len(moves_of(driver.text("record"))) == 3)
    record = driver.text("record")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    SCREENSHOT.write_bytes(base64.b64decode(driver.session_call("GET", "/screenshot")))
    driver.click_button("undo")
    driver.wait("the undo", lambda: moves_of(driver.text("record")) == ["B2", "K6-G9-G11-J11"])
    driver.click_button("flip")  # Eks's view: the clicks turn with the board
    driver.click_point("C3")
    driver.wait("a placement on the flipped board",
                lambda: moves_of(driver.text("record")) == ["B2", "K6-G9-G11-J11", "C3"])
    # "Who wins?" with a long limit, cancelled: the page answers at once.
    driver.run("document.getElementById('solve-ms').value = '600000';")
    driver.click_button("solve")
    driver.wait("the worker to start", lambda: driver.run("return document.body.dataset.busy") == "yes")
    driver.click_button("cancel")
    driver.wait("the cancel", lambda: driver.text("verdict") == "Cancelled")
    return record


STANDARD = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"


def the_network_plays(driver):
    """"Evaluation: network": the engine's move on the standard board comes
    from a search with the built-in network (the worker says which it used);
    on a 9x9 board the page says the network cannot judge it."""
    driver.run("const e = document.getElementById('eval'); e.value = 'net';"
               "e.dispatchEvent(new Event('change'));"
               "document.getElementById('record').value = arguments[0];", f"start {STANDARD}\n")
    driver.click_button("load")
    driver.wait("the standard start", lambda: moves_of(driver.text("record")) == [])
    driver.click_button("engine")
    driver.wait("the network's move", lambda: len(moves_of(driver.text("record"))) == 1)
    verdict = driver.text("verdict")
    assert verdict.endswith("network evaluation)"), verdict
    record = driver.text("record")
    driver.run("document.getElementById('cols').value = '9'; document.getElementById('rows').value = '9';")
    driver.click_button("new")
    driver.wait("the 9x9 board", lambda: driver.run("return window.playground.game.position.cols") == 9)
    driver.click_button("engine")
    driver.wait("the network's refusal of 9x9",
                lambda: "the network serves 15x19, not 9x9" in driver.text("status"))
    # "auto", the default, plays there with the hand evaluation.
    driver.run("const e = document.getElementById('eval'); e.value = 'auto'; e.dispatchEvent(new Event('change'));")
    driver.click_button("engine")
    driver.wait("auto's move on 9x9", lambda: len(moves_of(driver.text("record"))) == 1)
    verdict = driver.text("verdict")
    assert verdict.endswith("auto evaluation)"), verdict
    return record


def main():
    web_port, driver_port = free_port(), free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(web_port), "--bind",
                               "127.0.0.1", "--directory", str(WEB)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    chromedriver = subprocess.Popen([CHROMEDRIVER, f"--port={driver_port}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        time.sleep(1)
        driver = Driver(driver_port)
        record = play_the_page(driver, f"http://127.0.0.1:{web_port}/index.html")
        moves = replayed_by_node(record)
        assert moves[:2] == ["B2", "K6-G9-G11-J11"], moves
        assert len(moves) == 3, moves
        net_moves = replayed_by_node(the_network_plays(driver))
        assert len(net_moves) == 1, net_moves
        print(f"page: placement, jump and the engine's {moves[2]} played by clicks, then undone, and a placement on the flipped board; "
              f"record replayed by Node; cancel answered; with the built-in network the engine played {net_moves[0]} "
              f"on the standard board, 9x9 was refused by it and played with auto; screenshot {SCREENSHOT.relative_to(ROOT)}")
    finally:
        if driver is not None:
            driver.call("DELETE", f"/session/{driver.session}")
        chromedriver.terminate()
        server.terminate()
        chromedriver.wait(10)
        server.wait(10)


if __name__ == "__main__":
    main()
