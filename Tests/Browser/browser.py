"""What the browser scripts share (library-page.py, captions.py): Debian's chromium, headless,
driven by selenium through Debian's chromedriver, and a run's report: `seen` (what the script
saw) printed as one JSON line when it ends or fails."""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# Headless, no sandbox (root in CI), nothing fetched from elsewhere, media that plays without a
# user gesture and makes no sound.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--autoplay-policy=no-user-gesture-required", "--mute-audio"]


class Browser:
    """A chromium session: `driver` (selenium's), `seen` (the report), `fail` and `wait_for`."""

    def __init__(self, seen):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in FLAGS:
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.seen = seen

    def fail(self, message):
        """Prints the report with `failed` set and exits 1."""
        self.seen["failed"] = message
        print(json.dumps(self.seen))
        self.driver.quit()
        sys.exit(1)

    def wait_for(self, condition, timeout, what):
        """The first true value of `condition()`, asked every 0.2 s; fails after `timeout` seconds."""
        end = time.time() + timeout
        while time.time() < end:
            value = condition()
            if value:
                return value
            time.sleep(0.2)
        self.fail("timed out waiting for " + what)

    def report(self):
        """Prints the report."""
        print(json.dumps(self.seen))

    def quit(self):
        self.driver.quit()
