"""What the tests and the load tool both start: loopback ports and addresses, a server
process, a cluster as ``make cluster`` runs it. Neither imports the other; both import
this (not shipped in the wheel, like the load tool)."""
