"""phutball.widget.Board in real JupyterLab, in a real browser: the test
starts `jupyter lab` on 127.0.0.1 (a free port, a token, a temporary root
with a notebook that makes a Board of a known position, temporary Jupyter
config and runtime directories), headless Chromium (Debian's chromium and
chromium-driver, driven by selenium) opens the notebook and runs it, and
real mouse clicks on the widget place a man and make a jump, ended with the
widget's own "End jump" button. The game is then read on the Python side,
in the notebook's own kernel (jupyter_client on its connection file), and
compared with the core's; a screenshot goes to target/widget-jupyterlab.png.
tests/python/run.sh installs the browser packages and the [test] extra
brings JupyterLab; without either this test fails saying so."""

import importlib.util
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import pytest

import phutball
from phutball.widget import Board

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SEEDS = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
SCREENSHOT = pathlib.Path(__file__).resolve().parents[2] / "target" / "widget-jupyterlab.png"
FAILED_SCREENSHOT = SCREENSHOT.with_name("widget-jupyterlab-failed.png")
# The first start of JupyterLab and of the kernel on a busy 2-core machine.
START_SECONDS = 90
STEP_SECONDS = 20
# Small enough that the board, its buttons and the cell fit the window.
WIDGET_SIZE = 360


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes_naming(text):
    """The ids of the processes whose command line contains ``text``."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:  # gone meanwhile, or not ours to read
                pass
    return found


class JupyterLab:
    """`jupyter lab` in a process group of its own, with everything it writes under ``root``."""

    def __init__(self, root):
        self.root = root
        self.port = _free_port()
        self.token = os.urandom(16).hex()
        self.url = f"http://127.0.0.1:{self.port}"
        self.notebooks = root / "notebooks"
        self.runtime = root / "runtime"
        self.log = root / "jupyter-lab.log"
        config = root / "config"
        (config / "labconfig").mkdir(parents=True)
        # No "get Jupyter news?" toast over the page.
        (config / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
        )
        self.notebooks.mkdir()
        self.env = dict(
            os.environ,
            JUPYTER_CONFIG_DIR=str(config),
            JUPYTER_DATA_DIR=str(root / "data"),
            JUPYTER_RUNTIME_DIR=str(self.runtime),
            IPYTHONDIR=str(root / "ipython"),
        )
        self.process = None

    def start(self):
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--port-retries=0",
            "--allow-root",  # CI runs as root
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.notebooks}",
            # window.jupyterapp, to run the notebook and read the kernel's state.
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.news_url=",
            "--LabApp.extension_manager=readonly",
        ]
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"jupyter lab exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                self.api("GET", "/api/status")
                return
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline:
                    raise AssertionError(
                        f"jupyter lab did not answer on {self.url} in {START_SECONDS} s:\n{self.log_text()}"
                    ) from None
                time.sleep(0.25)

    def log_text(self):
        return self.log.read_text(errors="replace")[-4000:]

    def api(self, method, path):
        request = urllib.request.Request(
            self.url + path, method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def stop(self):
        """Shuts the server and its kernels down; returns the processes that were left and had to be killed."""
        if self.process is None:
            return []
        try:
            self.api("POST", "/api/shutdown")  # the server shuts its kernels down first
            self.process.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.process.poll() is None:  # not reaped yet, so its group id is still ours
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        # Kernels run in sessions of their own: find them by their
        # connection files, which live in our runtime directory.
        left = _processes_naming(str(self.root))
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return left


@pytest.fixture
def lab():
    assert importlib.util.find_spec("jupyterlab"), (
        'the widget\'s browser test needs JupyterLab: pip install "phutball[test]" (tests/python/run.sh does)'
    )
    root = pathlib.Path(tempfile.mkdtemp(prefix="phutball-jupyterlab-"))
    server = JupyterLab(root)
    try:
        server.start()
        yield server
    finally:
        left = server.stop()
        shutil.rmtree(root, ignore_errors=True)
    assert not left, f"jupyter lab left processes running (killed now): {left}"


@pytest.fixture
def browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
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
        "--window-size=1000,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(START_SECONDS)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _notebook(path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell(
            f"import phutball\nfrom phutball.widget import Board\n\n"
            f"board = Board(phutball.Position({str(SEEDS)!r}), size={WIDGET_SIZE})\nboard"
        )
    ]
    nbformat.write(nb, path)


def _run_in_kernel(lab, code):
    """What ``code`` prints in the notebook's kernel (the one kernel the server runs)."""
    from jupyter_client import BlockingKernelClient

    sessions = lab.api("GET", "/api/sessions")
    assert len(sessions) == 1, sessions
    client = BlockingKernelClient(connection_file=str(lab.runtime / f"kernel-{sessions[0]['kernel']['id']}.json"))
    client.load_connection_file()
    client.start_channels()
    printed = []
    try:
        client.wait_for_ready(timeout=STEP_SECONDS)
        reply = client.execute_interactive(
            code,
            timeout=STEP_SECONDS,
            output_hook=lambda msg: printed.append(msg["content"].get("text", "")),
        )
    finally:
        client.stop_channels()
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(printed)


def test_clicks_in_jupyterlab_reach_the_kernel(lab, browser):
    try:
        _play_in_jupyterlab(lab, browser)
    except BaseException:
        # What the page showed and what the server said, for a red CI run.
        browser.save_screenshot(str(FAILED_SCREENSHOT))
        print(f"screenshot of the failure: {FAILED_SCREENSHOT}\njupyter lab's log:\n{lab.log_text()}")
        raise

    # The Python side, in the notebook's kernel, against the core here.
    expected = phutball.Game(SEEDS)
    expected.push("B2")
    expected.push("K6-G9-G11")
    shown = _run_in_kernel(lab, "import json; print(json.dumps([str(board.game), str(board.position)]))")
    record, position = json.loads(shown)
    assert record == str(expected)
    assert position == str(expected.position)
    assert expected.position.men == ["B2", "H11"]


def _play_in_jupyterlab(lab, browser):
    """Opens and runs the notebook, then places B2 and jumps K6-G9-G11 by clicks; saves the screenshot."""
    SCREENSHOT.parent.mkdir(exist_ok=True)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    _notebook(lab.notebooks / "board.ipynb")
    # JupyterLab's single-document mode: the notebook alone, no file browser.
    browser.get(f"{lab.url}/doc/tree/board.ipynb?token={lab.token}")
    start = WebDriverWait(browser, START_SECONDS)
    notebook = "Array.from(window.jupyterapp.shell.widgets('main')).find((w) => w.sessionContext)"
    kernel_idle = (
        f"const w = window.jupyterapp && {notebook};"
        "const k = w && w.sessionContext.session && w.sessionContext.session.kernel;"
        "return !!k && k.status === 'idle';"
    )
    start.until(lambda d: d.execute_script(kernel_idle), "the notebook's kernel did not become idle")
    # Run it: JupyterLab's "Run All Cells" on the notebook made current.
    browser.execute_script(
        f"const w = {notebook}; window.jupyterapp.shell.activateById(w.id);"
        "return window.jupyterapp.commands.execute('notebook:run-all-cells');"
    )
    start.until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".phutball-picture svg circle.ball"),
        "the widget did not show in the notebook",
    )
    wait = WebDriverWait(browser, STEP_SECONDS)

    def status():
        return browser.find_element(By.CSS_SELECTOR, ".phutball-status").text

    # Where the widget draws each point, in the picture's own units (pure geometry).
    geometry = Board(SEEDS, size=WIDGET_SIZE)

    def click_point(point, then_status):
        """A real mouse click where ``point`` is drawn; the kernel's answer shows as ``then_status``."""
        svg = browser.find_element(By.CSS_SELECTOR, ".phutball-picture svg")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", svg)
        # The picture's units to page pixels, relative to the picture's centre.
        dx, dy = browser.execute_script(
            "const [svg, x, y] = arguments; const p = svg.createSVGPoint(); p.x = x; p.y = y;"
            "const q = p.matrixTransform(svg.getScreenCTM()); const r = svg.getBoundingClientRect();"
            "return [q.x - (r.left + r.width / 2), q.y - (r.top + r.height / 2)];",
            svg,
            *geometry.point_centre(point),
        )
        ActionChains(browser).move_to_element_with_offset(svg, round(dx), round(dy)).click().perform()
        wait.until(lambda d: status() == then_status, f"after a click on {point}: {status()!r}, not {then_status!r}")

    click_point("B2", "Eks to move")  # Ohs places a man
    assert browser.find_elements(By.CSS_SELECTOR, '.phutball-picture circle.man[data-point="B2"]')

    click_point("K6", "Eks jumping: K6")  # Eks picks up the ball...
    assert browser.find_elements(By.CSS_SELECTOR, '.phutball-picture rect.highlight[data-point="G9"]')
    click_point("G9", "Eks jumping: K6-G9")  # ...jumps J7 and H8...
    click_point("G11", "Eks jumping: K6-G9-G11")  # ...and G10...
    # The jump so far, drawn by the kernel's board: an arrow a landing, the men jumped crossed out.
    assert len(browser.find_elements(By.CSS_SELECTOR, ".phutball-picture line.last-move")) == 2
    assert len(browser.find_elements(By.CSS_SELECTOR, ".phutball-picture path.jumped")) == 3
    browser.find_element(By.XPATH, "//button[text()='End jump']").click()  # ...and stops there
    wait.until(lambda d: status() == "Ohs to move", f"after End jump: {status()!r}")
    assert browser.find_element(By.CSS_SELECTOR, ".phutball-picture circle.ball").get_attribute("data-point") == "G11"

    browser.save_screenshot(str(SCREENSHOT))
    print(f"screenshot: {SCREENSHOT}")
    assert SCREENSHOT.stat().st_size > 1000
