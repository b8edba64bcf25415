"""Drive a notebook in a real JupyterLab: start `jupyter lab` on a free loopback port (no token, no browser, its own
config, settings and workspace folders, so nothing of the user's is read or written; the page given
`window.jupyterapp`), open a notebook in Chromium, run its cells, and run Python in its kernel. Used by the map
widget's browser test and by `make bench` (bench/notebook_map.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.browser.harness import ROOT, LoopbackServer
from tests.ports import free_port

# The server's settings: the page gets `window.jupyterapp`; no news feed, update check or extension manager (they
# would reach the internet); root allowed (a CI container); every notebook cell rendered, not only those in view, so a
# widget draws wherever its cell is.
CONFIG = {"LabApp": {"expose_app_in_browser": True, "news_url": None, "extension_manager": "readonly",
                     "check_for_updates_class": "jupyterlab.NeverCheckForUpdate"},
          "ServerApp": {"ip": "127.0.0.1", "open_browser": False, "port_retries": 0, "allow_root": True,
                        "terminals_enabled": False},
          "IdentityProvider": {"token": ""}}
SETTINGS = {"@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
            "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                                "checkForUpdates": False}}


# A browser that leaves while the server is still sending to its websocket makes tornado log "Task exception was
# never retrieved" ending in this error (seen in CI as the page closed at a test's end): the client went away, the
# server did nothing wrong.
CLIENT_LEFT = "tornado.websocket.WebSocketClosedError"
RECORD = re.compile(r"^(?=\[[A-Z] \d{4}-|\[\w+\] |Task exception was never retrieved)", re.MULTILINE)


def faults(log: str) -> list[str]:
    """The log's records (a `[I 2026-...]` line and what follows it) that hold a traceback, less those of a browser
    that left."""
    return [record for record in RECORD.split(log)
            if "Traceback" in record and record.rstrip().splitlines()[-1].strip() != CLIENT_LEFT]


@dataclass
class LabServer(LoopbackServer):
    """A running `jupyter lab` serving `folder`."""

    folder: Path = ROOT
    stop_wait_s = 20


def start_lab(folder: Path, log_path: Path, timeout_s: float = 120) -> LabServer:
    """JupyterLab on 127.0.0.1 serving `folder` (its kernels run this interpreter, with the repository importable and
    the hub offline), once its API answers."""
    home = folder / ".lab"
    for name, settings in SETTINGS.items():
        path = home / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings), encoding="utf-8")
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "jupyter_server_config.json").write_text(json.dumps(CONFIG), encoding="utf-8")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "IPYTHONDIR": str(home / "ipython"), "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    port = free_port()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("w") as log:
        process = subprocess.Popen([sys.executable, "-m", "jupyterlab", f"--ServerApp.port={port}",
                                    f"--ServerApp.root_dir={folder}"],
                                   cwd=folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    server = LabServer(process, port, log_path, folder)
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with status {process.returncode}; see {log_path}")
        try:
            urllib.request.urlopen(f"{server.url}/api/status", timeout=2).read()
            return server
        except OSError:
            time.sleep(0.5)
    server.stop()
    raise RuntimeError(f"JupyterLab did not answer within {timeout_s:.0f} s; see {log_path}")


PANEL = "const panel = window.jupyterapp.shell.currentWidget;"


def open_notebook(page, server: LabServer, name: str, timeout_s: float = 120) -> None:
    """Open the notebook `name` (a file in the server's folder) and wait until its kernel is ready."""
    page.goto(f"{server.url}/lab/tree/{name}")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=timeout_s * 1000)
    page.evaluate(f"async () => {{ {PANEL} await panel.context.ready; await panel.sessionContext.ready; }}")
    page.wait_for_function(f"() => {{ {PANEL} return panel.sessionContext.session?.kernel?.status === 'idle'; }}",
                           timeout=timeout_s * 1000)


CELLS = f"""{PANEL}
    const cells = panel.content.widgets.filter((cell) => cell.model.type === 'code');"""


def run_all(page, timeout_s: float = 600) -> None:
    """Run every cell, as Run > Run All Cells does, and wait until each has run; an AssertionError with the error of
    any cell that raised."""
    page.evaluate(f"() => {{ {CELLS} cells.forEach((cell) => cell.model.sharedModel.execution_count = null); }}")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    errors = f"""{CELLS}
        const errors = cells.flatMap((cell) => cell.model.outputs.toJSON())
            .filter((out) => out.output_type === 'error').map((out) => `${{out.ename}}: ${{out.evalue}}`);"""
    page.wait_for_function(f"""() => {{ {errors}
        return errors.length > 0 || (cells.every((cell) => cell.model.executionCount !== null)
            && panel.sessionContext.session.kernel.status === 'idle'); }}""", timeout=timeout_s * 1000, polling=200)
    raised = page.evaluate(f"() => {{ {errors} return errors; }}")
    assert not raised, f"a cell raised: {raised}"


def run_python(page, code: str, timeout_s: float = 120) -> str:
    """Run `code` in the notebook's kernel (not as a cell: nothing is added to the notebook) and return what it
    printed; an AssertionError with the traceback if it raised."""
    result = page.evaluate(f"""async (code) => {{ {PANEL}
        const future = panel.sessionContext.session.kernel.requestExecute({{ code, store_history: false }});
        let printed = '';
        let error = null;
        future.onIOPub = (msg) => {{
            if (msg.header.msg_type === 'stream') printed += msg.content.text;
            if (msg.header.msg_type === 'error') error = msg.content.traceback.join('\\n');
        }};
        await future.done;
        return {{ printed, error }}; }}""", code)
    assert result["error"] is None, f"the kernel raised:\n{result['error']}"
    return result["printed"]
