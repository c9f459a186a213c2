"""Browser fixtures: the app served live on 127.0.0.1 (on the ``database_url`` fixture's
database, so PostgreSQL too when ``LEDGER_TEST_DATABASE_URL`` is set) and a phone-sized
Chromium page driven by Playwright's sync API.

Chromium is Debian's ``/usr/bin/chromium`` (never a downloaded build). Without it the browser
tests are skipped, or fail when ``CI`` is set.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Iterator

import pytest

from live_server import JoinedServer

CHROMIUM = os.environ.get("LEDGER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}


WHERE_THE_PAGE_IS = """() => ({
  title: document.title,
  heading: (document.querySelector("main h1") || document.querySelector("main h2") || {}).innerText || null,
  messages: Array.from(document.querySelectorAll(".flash")).map((m) => m.innerText),
  copy: document.documentElement.hasAttribute("data-kept-copy"),
})"""


def where(name: str, page: Any) -> str:
    """One line on where a phone's page is: its address, its heading, the messages it shows,
    and whether it is a copy the service worker kept (not the server's answer)."""
    try:
        if page.is_closed():
            return f"{name}: closed"
        seen = page.evaluate(WHERE_THE_PAGE_IS)
    except Exception as exc:  # mid-navigation, or the browser is gone: say so, keep the test's own error
        return f"{name}: {page.url} (the page could not be read: {str(exc).splitlines()[0]})"
    origin = "a copy kept on the phone" if seen["copy"] else "from the server"
    return (f"{name}: {page.url} · title {seen['title']!r} · heading {seen['heading']!r} · "
            f"messages {seen['messages']!r} · {origin}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test also says where each of its phones was (address, heading,
    messages), before the pages are closed."""
    report = yield
    if report.when == "call" and report.failed:
        from playwright.sync_api import Page

        funcargs = getattr(item, "funcargs", {})
        lines = [where(name, value) for name, value in funcargs.items() if isinstance(value, Page)]
        if lines:
            report.sections.append(("where the phones were", "\n".join(lines)))
    return report


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def live_server(app: Any) -> Iterator[str]:
    """The app served by werkzeug in a thread; yields its base URL (no trailing slash).
    Every request thread has ended before the app fixture disposes the engine. PDFs render at
    the server's own priority (``PDF_NICE`` 0): a download never waits on the machine's other work."""
    app.config["PDF_NICE"] = 0
    server = JoinedServer(app)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.stop()
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        _unavailable(f"Chromium is not installed at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        _unavailable("the playwright package is not installed")
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()


def _phone_page(chromium: Any, **options: Any) -> Iterator[Any]:
    context = chromium.new_context(**PHONE, **options)
    # how long a wait may take before it fails: on a busy two-core machine a page can take seconds
    # longer than on a quiet one (no test times anything)
    context.set_default_timeout(20_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    """A fresh phone-sized page (390×844, touch) with its own cookies."""
    yield from _phone_page(chromium)


@pytest.fixture
def second_phone(chromium: Any) -> Iterator[Any]:
    """Another phone-sized page with cookies of its own (another person's phone)."""
    yield from _phone_page(chromium)


@pytest.fixture
def phone_without_js(chromium: Any) -> Iterator[Any]:
    """The same phone with JavaScript switched off: every page must still work."""
    yield from _phone_page(chromium, java_script_enabled=False)
