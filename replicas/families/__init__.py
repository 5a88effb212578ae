"""Built-in task families. Importing this package registers every family module below it.

Each family lives in its own module ``replicas/families/<replica>/<family>.py`` and registers
itself with ``@register_family``. Modules are discovered (sorted, so registration order is
stable), so adding a family never means editing a central list. Private modules (``_x.py``)
are helpers and are skipped.
"""

from __future__ import annotations

import importlib
import pkgutil


def _discover() -> list[str]:
    names: list[str] = []
    for info in pkgutil.walk_packages(__path__, prefix=__name__ + "."):
        leaf = info.name.rsplit(".", 1)[-1]
        if not leaf.startswith("_"):
            names.append(info.name)
    return sorted(names)


FAMILY_MODULES: tuple[str, ...] = tuple(_discover())

for _module in FAMILY_MODULES:
    importlib.import_module(_module)
