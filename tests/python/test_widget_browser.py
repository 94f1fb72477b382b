"""phutball.widget.Board in a real browser: headless Chromium (Debian's
chromium and chromium-driver, driven by selenium) opens a page that runs the
widget's own JavaScript (widget.js) with its synced state, wired to a live
Board in this process in place of Jupyter's comm: get_state() out,
set_state() and the custom messages (_handle_custom_msg) in, as a kernel
would. Real mouse clicks place a man and make a jump, the test checks the
Board's game on the Python side, and saves a screenshot
(target/widget-browser.png). tests/python/run.sh installs the browser
packages; without them this test fails saying so."""

import json
import os
import pathlib
import shutil
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import phutball
import phutball.widget
from phutball.widget import Board

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SEEDS = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
WIDGET_JS = pathlib.Path(phutball.widget.__file__).with_name("widget.js")
SCREENSHOT = pathlib.Path(__file__).resolve().parents[2] / "target" / "widget-browser.png"

# The page: the widget's render() with a model that keeps the state and
# posts changes and messages to the server, which answers with the new state.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>phutball widget</title></head>
<body><div id="board"></div><script type="module">
import widget from "/widget.js";
const listeners = {};
let state = await (await fetch("/state")).json();
let pending = {};
async function post(path, body) {
  const answer = await (await fetch(path, {method: "POST", body: JSON.stringify(body)})).json();
  const old = state;
  state = answer;
  for (const [name, value] of Object.entries(state)) {
    if (JSON.stringify(old[name]) !== JSON.stringify(value)) {
      for (const f of listeners[`change:${name}`] || []) f();
    }
  }
  document.body.dataset.posts = String(Number(document.body.dataset.posts || 0) + 1);
}
const model = {
  get: (name) => (name in pending ? pending[name] : state[name]),
  set: (name, value) => { pending[name] = value; },
  save_changes: () => { const changes = pending; pending = {}; post("/set", changes); },
  send: (content) => post("/msg", content),
  on: (event, f) => { (listeners[event] ||= []).push(f); },
  off: (event, f) => { listeners[event] = (listeners[event] || []).filter((g) => g !== f); },
};
widget.render({model, el: document.getElementById("board")});
document.body.dataset.ready = "yes";
</script></body></html>"""


def missing_browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    return missing


class Server:
    """The page, widget.js and the Board's state over HTTP on 127.0.0.1."""

    def __init__(self, board):
        self.board = board
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, body, kind):
                data = body.encode() if isinstance(body, str) else body
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def state(self):
                with server.lock:
                    state = server.board.get_state()
                keep = ("svg", "status", "message", "jumping", "flip", "show_jumps", "size")
                return json.dumps({k: state[k] for k in keep})

            def do_GET(self):
                if self.path == "/":
                    self.reply(PAGE, "text/html")
                elif self.path == "/widget.js":
                    self.reply(WIDGET_JS.read_bytes(), "text/javascript")
                elif self.path == "/state":
                    self.reply(self.state(), "application/json")
                else:
                    self.send_error(404)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    if self.path == "/set":
                        server.board.set_state(body)
                    elif self.path == "/msg":
                        server.board._handle_custom_msg(body, [])
                self.reply(self.state(), "application/json")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def browser():
    missing = missing_browser()
    assert not missing, (
        f"the browser test needs {', '.join(missing)}: apt-get install chromium chromium-driver "
        "(tests/python/run.sh does it when it runs as root)"
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="phutball-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=800,1200",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_clicks_in_chromium_reach_python(browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    board = Board(SEEDS, size=480)
    with Server(board) as server:
        for attempt in range(3):  # a slow first start of the browser: load again
            try:
                browser.get(server.url)
                WebDriverWait(browser, 15).until(lambda d: d.execute_script("return document.body.dataset.ready"))
                break
            except Exception:
                if attempt == 2:
                    raise
        wait = WebDriverWait(browser, 10)
        posts = [0]

        def click_point(point):
            """A real mouse click where ``point`` is drawn, then wait for Python's answer."""
            svg = browser.find_element(By.CSS_SELECTOR, ".phutball-picture svg")
            x, y = board.point_centre(point)
            # The picture's units to the page's pixels, relative to the picture's centre.
            dx, dy = browser.execute_script(
                "const [svg, x, y] = arguments; const p = svg.createSVGPoint(); p.x = x; p.y = y;"
                "const q = p.matrixTransform(svg.getScreenCTM()); const r = svg.getBoundingClientRect();"
                "return [q.x - (r.left + r.width / 2), q.y - (r.top + r.height / 2)];",
                svg,
                x,
                y,
            )
            ActionChains(browser).move_to_element_with_offset(svg, round(dx), round(dy)).click().perform()
            posts[0] += 1
            wait.until(lambda d: d.execute_script("return Number(document.body.dataset.posts || 0)") >= posts[0])

        click_point("B2")  # Ohs places a man
        assert [str(m) for m in board.game.moves] == ["B2"]
        click_point("K6")  # Eks picks up the ball...
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".phutball-status").text == "Eks jumping: K6")
        assert browser.find_elements(By.CSS_SELECTOR, '.phutball-picture rect.highlight[data-point="G9"]')
        click_point("G9")  # ...jumps J7 and H8...
        click_point("G11")  # ...and G10
        browser.find_element(By.XPATH, "//button[text()='End jump']").click()
        posts[0] += 1
        wait.until(lambda d: d.execute_script("return Number(document.body.dataset.posts || 0)") >= posts[0])
        assert [str(m) for m in board.game.moves] == ["B2", "K6-G9-G11"]
        assert board.position == SEEDS.play("B2").play("K6-G9-G11")
        assert board.position.men == ["B2", "H11"]
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".phutball-status").text == "Ohs to move")
        # The browser shows Python's picture: the ball where the jump ended.
        assert browser.find_element(By.CSS_SELECTOR, ".phutball-picture circle.ball").get_attribute("data-point") == "G11"
        SCREENSHOT.parent.mkdir(exist_ok=True)
        browser.save_screenshot(str(SCREENSHOT))
        assert SCREENSHOT.stat().st_size > 1000
