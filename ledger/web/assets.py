"""What goes over the wire: compressed answers and long-cached static files.

* HTML, JSON, CSS and JavaScript answers are compressed (Flask-Compress: brotli when the phone
  accepts it, else gzip; small answers and PDFs are sent as they are).
* Every ``url_for('static', filename=...)`` carries ``v=<hash of the file's content>``; a
  request with the current hash is answered with ``Cache-Control: public, max-age=31536000,
  immutable``, so a phone fetches a stylesheet or script once per change of its content.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from flask_compress import Compress

IMMUTABLE = "public, max-age=31536000, immutable"
COMPRESSED = ["text/html", "application/json", "text/css", "text/javascript", "application/javascript"]

compress = Compress()


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # a streamed answer (a file sent as it is read) goes uncompressed: compressing it chunk by
    # chunk leaves the file open until the phone has read it all
    app.config.setdefault("COMPRESS_STREAMS", False)
    compress.init_app(app)
    hashes: dict[str, str] = {}

    def content_hash(filename: str) -> str | None:
        if filename not in hashes:
            folder = Path(app.static_folder or "")
            path = (folder / filename).resolve()
            if not path.is_relative_to(folder.resolve()) or not path.is_file():
                return None
            hashes[filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        return hashes[filename]

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            digest = content_hash(values["filename"])
            if digest is not None:
                values["v"] = digest

    serve_static = app.view_functions["static"]

    def static_in_memory(**kwargs: Any) -> Response:
        """The static file read whole (they are a few kilobytes), so it is compressed like any
        answer and its file is closed at once."""
        response = serve_static(**kwargs)
        if response.status_code == 200 and response.direct_passthrough:
            try:
                data = b"".join(response.response)
            finally:
                response.close()
            response.direct_passthrough = False
            response.set_data(data)
        return response

    app.view_functions["static"] = static_in_memory

    @app.after_request
    def cache_static(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code in (200, 304):
            filename = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args.get("v") == content_hash(filename):
                response.headers["Cache-Control"] = IMMUTABLE
        return response
