"""The dbt projects of the shipped replicas, installed as package data (``replicas.dbt_projects``)."""
