"""Answer, table and compliance verifiers, installed as ``replicas.verifiers``."""
