"""Every archive page opened in headless Chromium: it renders, its pictures and charts load, the console stays clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser import Browser, missing

IMAGES = """return Array.from(document.images).map(i => ({src: i.getAttribute("src"), complete: i.complete,
  width: i.naturalWidth, height: i.naturalHeight}));"""
PAGE = """return {title: document.title, h1: (document.querySelector("h1") || {}).textContent || "",
  scripts: document.scripts.length, height: document.body.scrollHeight,
  background: getComputedStyle(document.body).backgroundColor};"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    why = missing()
    if why:
        pytest.fail(why)  # never skipped: `make test` installs the browser like it installs Dovecot
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


@pytest.mark.parametrize("game", ["intrigue", "pmb", "1626"])
def test_every_archive_page_renders_with_its_pictures_and_charts_and_no_console_error(
        browser: Browser, archives: dict[str, Any], game: str, tmp_path: Path) -> None:
    a = archives[game]
    browser.console()  # start from a clean log
    for page in a.pages:
        browser.open(page.resolve().as_uri())
        info = browser.run(PAGE)
        assert info["title"] and info["h1"].strip(), page.name
        assert info["scripts"] == 0 and info["height"] > 200, (page.name, info)
        assert info["background"] == "rgb(251, 248, 241)", (page.name, info)  # style.css was read and applied
        images = browser.run(IMAGES)
        html = page.read_text("utf-8")
        assert len(images) == html.count("<img "), page.name
        for img in images:
            assert img["complete"] and img["width"] > 0 and img["height"] > 0, (page.name, img)
        if page.name == "index.html":
            charts = [i for i in images if i["src"].startswith("charts/")]
            thumbs = [i for i in images if i["src"].startswith("images/")]
            assert len(charts) == len(a.charts) and len(thumbs) == len(a.pictures)
            assert all((i["width"], i["height"]) == (900, 420) for i in charts)
        elif page.name.startswith("turn-") and a.pictures:
            assert len(images) == 1 and images[0]["width"] == 1200
        errors = [e for e in browser.console() if e.get("level") == "SEVERE"]
        assert not errors, (page.name, errors)
    browser.open(a.pages[0].resolve().as_uri())
    browser.screenshot(tmp_path / "index.png")  # the page as a reader sees it (kept with the test's files)
    assert (tmp_path / "index.png").stat().st_size > 10_000


def test_the_checks_see_a_broken_page(browser: Browser, tmp_path: Path) -> None:
    """The control: a missing picture shows as not loaded and as a console error, so a clean run means something."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>x</title></head>'
                    '<body><h1>x</h1><img src="absent.png" alt="absent"></body></html>', encoding="utf-8")
    browser.console()
    browser.open(page.as_uri())
    images = browser.run(IMAGES)
    assert images and images[0]["width"] == 0
    assert any(e.get("level") == "SEVERE" and "absent.png" in e.get("message", "") for e in browser.console())
