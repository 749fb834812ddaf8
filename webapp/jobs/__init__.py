"""Searches off the request thread: the job core and its two back ends.

``core`` (the rules), ``model`` (requests, limits, a job), ``fairness`` (the fair
queue every lane keeps) and ``escalation`` (what a search's report means for the
player) are the core; ``pool`` and ``process`` are this machine's back end (solver
processes), ``cluster``, ``cluster_job`` and ``cluster_worker`` the RQ one.
``contract`` is what pages ask the solver processes (one request type per page task,
its typed answer, an ``Outcome``), ``tasks`` what a solver process runs for one,
``outcomes`` what an outcome or a refusal means for HTTP and a socket, and
``judging`` one judged move for any caller.
"""
