#!/usr/bin/env python3
"""The library page of `disckit serve` in a real browser: Debian's chromium, headless, driven by
selenium through Debian's chromedriver (ServerBrowserTests runs this).

usage: library-page.py BASE_URL DISC_LABEL TITLE_KEY SEEK_SECONDS JOIN_SECONDS

Opens BASE_URL (the page, `?token=` included when the server wants one), checks that the disc
list shows DISC_LABEL, opens it, checks the title list shows TITLE_KEY, plays it and asserts, in
real time, that the video's clock advances and frames are decoded (getVideoPlaybackQuality) with
no media error: from the start, after a seek to SEEK_SECONDS, and across the clip join at
JOIN_SECONDS; with an audio rendition chosen, the decoded audio grows too
(webkitAudioDecodedByteCount). Prints one JSON line of what it saw; exits 1 on the first failed check."""
import sys
import time

from selenium.webdriver.common.by import By

from browser import Browser

base, label, key, seek_to, join_at = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])

seen = {}
browser = Browser(seen)
driver, fail, wait_for = browser.driver, browser.fail, browser.wait_for


def video_state():
    return driver.execute_script("""
        const v = document.getElementById('video');
        const q = v.getVideoPlaybackQuality ? v.getVideoPlaybackQuality() : {};
        const audio = document.getElementById('audio');
        return {time: v.currentTime, frames: q.totalVideoFrames || 0, dropped: q.droppedVideoFrames || 0,
                audioBytes: v.webkitAudioDecodedByteCount || 0,
                audioChoice: audio && audio.selectedIndex >= 0 ? audio.options[audio.selectedIndex].text : "",
                error: v.error ? (v.error.message || String(v.error.code)) : null, paused: v.paused,
                status: document.getElementById('status').textContent};
    """)


def plays(phase, start_time, seconds=1.5):
    before = video_state()
    if before["error"]:
        fail(f"{phase}: media error {before['error']}")
    time.sleep(seconds)
    after = video_state()
    seen[phase] = {"from": before["time"], "to": after["time"], "frames": after["frames"] - before["frames"]}
    if after["error"]:
        fail(f"{phase}: media error {after['error']}")
    if not after["time"] > before["time"] >= start_time - 0.5:
        fail(f"{phase}: the clock did not advance from {start_time}: {before['time']} -> {after['time']}")
    if not after["frames"] > before["frames"]:
        fail(f"{phase}: no frame decoded ({before['frames']} -> {after['frames']})")
    # With an audio rendition chosen (the page picks the first the browser decodes), audio is
    # decoded too.
    seen[phase]["audio"] = after["audioChoice"]
    if after["audioChoice"] not in ("", "none") and not after["audioBytes"] > before["audioBytes"]:
        fail(f"{phase}: no audio decoded from {after['audioChoice']} ({before['audioBytes']} -> {after['audioBytes']})")


try:
    driver.get(base)
    discs = wait_for(lambda: [e.text for e in driver.find_elements(By.CSS_SELECTOR, "li.disc")], 20, "the disc list")
    seen["discs"] = discs
    disc = next((e for e in driver.find_elements(By.CSS_SELECTOR, "li.disc") if label in e.text), None)
    if disc is None:
        fail(f"{label} is not in the disc list {discs}")
    disc.click()
    titles = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f"li.title[data-key='{key}']"), 30, "the title list")
    seen["titles"] = [e.get_attribute("data-key") for e in driver.find_elements(By.CSS_SELECTOR, "li.title")]
    titles[0].click()
    wait_for(lambda: video_state()["time"] > 0.2 or video_state()["error"], 30, "playback to start")
    plays("start", 0)
    driver.execute_script(f"document.getElementById('video').currentTime = {seek_to}")
    wait_for(lambda: abs(video_state()["time"] - seek_to) < 2 and not driver.execute_script(
        "return document.getElementById('video').seeking"), 20, "the seek")
    plays("seek", seek_to)
    driver.execute_script(f"document.getElementById('video').currentTime = {max(0, join_at - 1)}")
    wait_for(lambda: not driver.execute_script("return document.getElementById('video').seeking"), 20, "the seek before the join")
    wait_for(lambda: video_state()["time"] > join_at + 0.5 or video_state()["error"], 20, "playback across the join")
    plays("join", join_at, 0.5)
    seen["final"] = video_state()
    browser.report()
finally:
    browser.quit()
