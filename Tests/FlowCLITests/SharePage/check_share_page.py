"""Opens a share page in Debian's Chromium, driven by Playwright, and reports what a person would meet.

Usage: check_share_page.py PAGE.html EXPECTED.flow.yml SCREENSHOT.png

Prints one JSON object: console errors and page errors, requests for anything but the page itself,
the data-position of every step in the DOM, whether the download gives back EXPECTED's exact bytes,
what the copy button says after a click, the page's title, and the tile's symbol: its text, its size, and whether
its drawing paints pixels. The screenshot is the whole page.
"""
import json
import sys

from playwright.sync_api import sync_playwright

page_path, expected_path, screenshot_path = sys.argv[1:4]
with open(expected_path, "rb") as handle:
    expected = handle.read()

with sync_playwright() as playwright:
    # Playwright's own browser download cannot work here; the system's Chromium does. Root needs
    # --no-sandbox.
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    context = browser.new_context(accept_downloads=True, viewport={"width": 960, "height": 900})
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    outside = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(("file:", "data:")) else None)
    page.goto("file://" + page_path, wait_until="load")
    positions = page.eval_on_selector_all("li.step", "nodes => nodes.map(node => node.dataset.position)")
    # The tile's symbol: its text (an emoji would need a colour-emoji font, which this machine lacks),
    # the size of its drawing, and whether the drawing paints anything: the symbol's pixels with the
    # drawing shown and hidden must differ.
    glyph = page.evaluate("""() => {
        const glyph = document.querySelector('.tile .glyph');
        const svg = glyph.querySelector('svg');
        const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
        return {text: glyph.textContent, svg: !!svg, width: box.width, height: box.height};
    }""")
    symbol = page.locator(".tile .glyph")
    drawn = symbol.screenshot()
    page.evaluate("() => { const svg = document.querySelector('.tile .glyph svg'); if (svg) svg.style.visibility = 'hidden'; }")
    glyph["painted"] = drawn != symbol.screenshot()
    page.evaluate("() => { const svg = document.querySelector('.tile .glyph svg'); if (svg) svg.style.visibility = ''; }")
    with page.expect_download() as download_info:
        page.click("#download")
    with open(download_info.value.path(), "rb") as handle:
        downloaded = handle.read()
    page.click("#copy")
    copy_label = page.text_content("#copy")
    page.screenshot(path=screenshot_path, full_page=True)
    print(json.dumps({
        "errors": errors,
        "outside": outside,
        "positions": positions,
        "downloadMatches": downloaded == expected,
        "downloadSize": len(downloaded),
        "copyLabel": copy_label,
        "title": page.title(),
        "command": page.text_content("#import-command"),
        "glyph": glyph,
    }))
    browser.close()
