"""Browser tests (Playwright + Debian Chromium); a package so its conftest does not shadow tests/conftest.py."""
