"""Single source of the kit version; it is part of every build-cache key."""

__version__ = "0.1.0"
