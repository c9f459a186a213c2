"""On the wire: answers compressed for phones that accept it; static files under content-hashed
URLs, cached for a year."""
from __future__ import annotations

import gzip
import hashlib
import json
import re
from typing import Any

import brotli

from conftest import REPO, session_body


def test_json_and_html_are_compressed_when_accepted(client: Any, night_data: dict[str, Any]) -> None:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    url = f"/api/v1/sessions/{body['id']}"
    headers = {"Authorization": f"Bearer {body['token']}"}
    plain = client.get(url, headers=headers)
    assert "Content-Encoding" not in plain.headers
    zipped = client.get(url, headers=headers | {"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(zipped.get_data())) == plain.get_json()
    assert "Accept-Encoding" in zipped.headers["Vary"]
    page = client.get("/", headers={"Accept-Encoding": "br, gzip"})
    assert page.headers["Content-Encoding"] == "br"
    assert "<html" in brotli.decompress(page.get_data()).decode()


def test_static_urls_carry_the_content_hash_and_are_cached_immutably(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    match = re.search(r'/static/live\.js\?v=([0-9a-f]{12})', page)
    assert match, "live.js is linked with its content hash"
    expected = hashlib.sha256((REPO / "static" / "live.js").read_bytes()).hexdigest()[:12]
    assert match.group(1) == expected
    current = client.get(f"/static/live.js?v={expected}")
    assert current.status_code == 200
    assert current.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    current.close()
    stale = client.get("/static/live.js?v=000000000000")
    assert "immutable" not in stale.headers.get("Cache-Control", "")
    stale.close()
    css = client.get(f"/static/app.css?v={hashlib.sha256((REPO / 'static' / 'app.css').read_bytes()).hexdigest()[:12]}",
                     headers={"Accept-Encoding": "br, gzip"})
    assert css.headers["Content-Encoding"] == "br"
    assert b"{" in brotli.decompress(css.get_data())
    js = client.get(match.group(0), headers={"Accept-Encoding": "gzip"})
    assert js.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(js.get_data()) == (REPO / "static" / "live.js").read_bytes()
    css.close()
