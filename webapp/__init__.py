"""The Flask + Flask-SocketIO web game (being built)."""
