"""Serving in production: the gunicorn server and the table prebuild."""
