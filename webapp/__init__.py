"""The Flask + Flask-SocketIO web game: lobby, play pages and the solver over Socket.IO.

``create_app(**config)`` builds an app; its Socket.IO server is
``app.extensions["socketio"]``.
"""

__all__ = ["create_app"]


def create_app(**config):
    """:func:`webapp.app.create_app`, imported when first called: importing the package
    imports nothing, so ``python -m webapp`` can patch for gevent before anything."""
    from .app import create_app as create

    return create(**config)
