"""The Flask + Flask-SocketIO web game: lobby, play pages and the solver over Socket.IO.

``create_app(testing=False, **config)`` builds an app; its Socket.IO server is
``app.extensions["socketio"]``. ``socketio`` here is the most recently created
one, for ``python -m webapp`` and quick scripts.
"""
from .app import create_app

socketio = None

__all__ = ["create_app", "socketio"]
