"""What ``replicas audit --import tests.defective_plugin`` loads: registers the defective families.

A user's family module registers on import in the same way; the test process itself registers
them through fixtures instead (``tests/defective_families.py``).
"""

from __future__ import annotations

from tests.defective_families import register_defective

register_defective()
