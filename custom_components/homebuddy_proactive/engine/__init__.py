"""HA-free proactive engine shared by the Home Assistant integration and the standalone server.

Nothing in this package imports ``homeassistant``: the hosts pass in the clock, the aiohttp
session and the insight sinks.
"""
