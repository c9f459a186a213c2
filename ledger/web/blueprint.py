"""The ``web`` blueprint that every phone page registers its routes on."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("web", __name__)
