"""Load and flood tools for the arcade server (``python -m loadtest``); not part of the wheel."""
