"""HA-free proactive engine shared by the Home Assistant integration and the standalone server.

Nothing in this package imports ``homeassistant``: the hosts pass in the clock, the aiohttp
session and the insight sinks. Its rooms, from the bottom up:

- ``const``, ``config``: shared constants and the validated tuning values;
- ``llm``: the Ollama boundary (the only module that talks to a model);
- ``text``: normalisation, the language registry, identification and the per-language rules
  that turn an utterance into one frozen analysis;
- ``storage``: the SQLite file, its migrations and the tables' owners;
- ``memory``: long-term memory (stores, search, episodes) over ``storage``;
- ``proactive``: glasses sockets, sessions, the detector and cards;
- ``assist``: what Home Assistant's Assist agent understands and says (alarms, news, phrases);
- ``standalone``: the engine's own HTTP host; Home Assistant never imports it.
"""
