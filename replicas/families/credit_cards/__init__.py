"""Task families of the credit_cards replica (registered by ``replicas.families``)."""
