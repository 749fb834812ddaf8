"""The Flask + Flask-SocketIO web game: lobby, play pages and the solver over Socket.IO.

``create_app(testing=False, **config)`` builds an app; its Socket.IO server is
``app.extensions["socketio"]``.
"""

from .app import create_app

__all__ = ["create_app"]
