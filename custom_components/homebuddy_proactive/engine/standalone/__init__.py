"""The engine's own host: the aiohttp server that runs HomeBuddy Proactive without Home Assistant.

It may import every engine room, never ``homeassistant``; nothing else imports it (Home Assistant
in particular must never load it): ``scripts/serve.py`` and the ``Dockerfile`` start it.
"""
