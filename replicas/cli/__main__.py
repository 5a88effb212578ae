"""``python -m replicas.cli`` — the same as the ``replicas`` console script."""

from replicas.cli import main

main()
