"""Hardening at the edge: socket frames, allowed hosts, rate limits, trusted proxies."""
