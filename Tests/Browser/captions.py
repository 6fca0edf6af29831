#!/usr/bin/env python3
"""The library page's captions in a real browser: Debian's chromium, headless, driven by selenium
through Debian's chromedriver (ServerBrowserTests runs this).

usage: captions.py BASE_URL TITLE_KEY SECONDS...

Opens BASE_URL (the page), opens the first disc, plays title TITLE_KEY, chooses the first subtitle
rendition, and for each SECONDS (video time) pauses there and waits until the text track shown has
an active cue. Prints one JSON line: the tracks and, per time, the active cues (text, start, end);
exits 1 on the first failed check."""
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import Browser

base, key, times = sys.argv[1], sys.argv[2], [float(t) for t in sys.argv[3:]]

seen = {"cues": []}
browser = Browser(seen)
driver, fail, wait_for = browser.driver, browser.fail, browser.wait_for


def active():
    return driver.execute_script("""
        const v = document.getElementById('video');
        const shown = [...v.textTracks].filter((t) => t.mode === 'showing');
        return {time: v.currentTime, seeking: v.seeking, status: document.getElementById('status').textContent,
                error: v.error ? (v.error.message || String(v.error.code)) : null,
                tracks: shown.map((t) => ({label: t.label, language: t.language, cues: t.cues ? t.cues.length : 0})),
                active: shown.flatMap((t) => [...(t.activeCues || [])].map((c) => ({text: c.text, start: c.startTime, end: c.endTime})))};
    """)


try:
    driver.get(base)
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "li.disc"), 20, "the disc list")
    driver.find_elements(By.CSS_SELECTOR, "li.disc")[0].click()
    titles = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f"li.title[data-key='{key}']"), 30, "the title list")
    titles[0].click()
    wait_for(lambda: driver.execute_script("return document.getElementById('video').currentTime > 0.2"), 30, "playback to start")
    choices = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#subtitles option"), 10, "the subtitle choice")
    seen["choices"] = [c.text for c in choices]
    if len(choices) < 2:
        fail(f"no subtitle rendition to choose: {seen['choices']}")
    Select(driver.find_element(By.ID, "subtitles")).select_by_index(1)
    for at in times:
        driver.execute_script(f"const v = document.getElementById('video'); v.pause(); v.currentTime = {at};")
        wait_for(lambda: not active()["seeking"], 20, f"the seek to {at}")
        state = wait_for(lambda: (lambda s: s if s["active"] or s["error"] else None)(active()), 60,
                         f"an active cue at {at}")
        if state["error"]:
            fail(f"media error {state['error']}")
        seen["tracks"] = state["tracks"]
        seen["cues"].append({"at": at, "time": state["time"], "active": state["active"]})
    browser.report()
finally:
    browser.quit()
