"""Load and flood tools for the arcade server (``python -m loadtest``); not part of the wheel.

Simulated players and floods (:mod:`loadtest.players`, :mod:`loadtest.floods`), races
(:mod:`loadtest.races`), the single-purpose scenarios (:mod:`loadtest.scenarios`), and the
attacks of issue 46 with a ``/healthz`` probe (``--attacks``: :mod:`loadtest.attacks`,
:mod:`loadtest.probe`)."""
