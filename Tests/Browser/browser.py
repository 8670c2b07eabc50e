"""What the browser scripts share: their command line (the `opsview` to run and where to write),
the checks that failed, running that `opsview`, and headless Chromium driven by selenium.

Imported by the scripts beside it: Python puts a script's own directory first on `sys.path`, so this
works from any working directory (the Swift tests run the scripts by their absolute path).
"""
import argparse, os, shutil, subprocess, tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def parser(prefix):
    """The options every script takes: `--opsview BINARY` and `--out DIR` (a new temporary one by default)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--opsview", required=True)
    ap.add_argument("--out", default=tempfile.mkdtemp(prefix=prefix))
    return ap


class Run:
    """One run of a script: its parsed arguments (the output directory made), the checks that failed."""

    def __init__(self, ap):
        self.args = ap.parse_args()
        os.makedirs(self.args.out, exist_ok=True)
        self.failures = []

    def check(self, ok, what):
        if not ok:
            self.failures.append(what)
            print("FAIL:", what, flush=True)

    def opsview(self, *args):
        """`opsview ARGS`' standard output; the script stops with its error if it fails."""
        r = subprocess.run([self.args.opsview, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"opsview {' '.join(args)} failed: {r.stderr}")
        return r.stdout


def chromium(arguments, capabilities=None):
    """Headless Debian `chromium` under `chromedriver`, with `arguments` added and `capabilities` set."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *arguments]:
        options.add_argument(arg)
    for name, value in (capabilities or {}).items():
        options.set_capability(name, value)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(service=service, options=options)
