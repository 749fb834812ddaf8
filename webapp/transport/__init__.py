"""The cluster's transport: the one Redis client every part of a web process shares, and
Socket.IO's message queue between web processes.

Low on purpose: the job back end (RQ's queue, the reply lists), the races' store and
the app factory's Socket.IO all take Redis from here, and nothing here knows jobs,
races or sockets' handlers.
"""
