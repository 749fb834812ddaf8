"""The live Socket.IO protocol: events, payload checks and the replies they send."""
