"""Hard task families on the ``ecommerce_enterprise`` replica (suites ``hard-v1``, ``hard-v2``, ``hard-v3``)."""
