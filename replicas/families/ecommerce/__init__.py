"""Task families of the ecommerce replica (registered by ``replicas.families``)."""
