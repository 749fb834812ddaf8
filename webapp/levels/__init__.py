"""Levels as players meet them: shipped packs, seeded levels and the daily.

:mod:`.facts` reads a page's query into a level and says what is known of it
(fewest moves, name, pack); :mod:`.maker` generates seeded levels and the daily
in a solver process and keeps them. Pages and players reach the app's maker
through ``app.extensions["levels"]``, so neither imports the other.
"""
