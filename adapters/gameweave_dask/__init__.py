"""Simulations on a Dask cluster: ``gameweave simulate --cluster`` (the ``dask`` extra).

:mod:`gameweave_dask.cluster` runs the games on the cluster;
:mod:`gameweave_dask.commands` adds the option to the command line through the
``register_commands`` hook. Dask itself is imported only when a cluster is opened.
"""
