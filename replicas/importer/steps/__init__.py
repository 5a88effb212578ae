"""The import itself (check, stage, compile, derive, install). A sub-package so that the
generator's source closure — part of every imported snapshot's cache key — stays
``replicas.importer.{schema,store,synth}`` and not the factory or the build engine."""
