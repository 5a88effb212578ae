"""Hard task families on the ``ecommerce_enterprise`` replica (suite ``hard-v1``)."""
