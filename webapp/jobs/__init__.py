"""Searches off the request thread: the job rules and their back ends (process pools, RQ)."""
