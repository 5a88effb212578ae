"""Where the repository is, for tests that run the kit from its source tree (a helper module)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
