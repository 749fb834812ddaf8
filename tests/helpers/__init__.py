"""Helpers the tests share: import from here, never from another test module."""
