"""The game server (服务器): ASGI app, protocol, tables, lobby — the only layer with sockets and timers."""
