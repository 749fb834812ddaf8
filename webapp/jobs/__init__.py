"""Searches off the request thread: the job core and its two back ends.

``core`` (the rules), ``model`` (requests, limits, a job), ``fairness`` (the fair
queue every lane keeps) and ``escalation`` (what an outcome means for the player)
are the core; ``pool`` and ``process`` are this machine's back end (solver
processes), ``cluster``, ``cluster_job`` and ``cluster_worker`` the RQ one;
``tasks`` are the searches pages need.
"""
