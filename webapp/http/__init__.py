"""HTTP: the pages, the JSON API, health checks and the links between games and levels."""
