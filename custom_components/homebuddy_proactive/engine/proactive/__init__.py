"""The proactive room: glasses sockets, sessions, the detector and the cards they receive.

A transcript frame is parsed (``protocol``) and handled by its socket's ``Connection``, which
sees the engine only through ``host``. A final goes to the final lane (``final_lane``: buffer,
store, one analysis from ``text``, routed by ``final_routing``, the model through ``detector``
with its prompt laid out for the model's KV cache by ``prompt``); live speech goes to the
partial lane (``partial_lane``, its evaluations paced by ``pacing``). A decided card is shaped
(``text.cards``) and reaches the socket and the host's listeners through ``cards``; the
``ProactiveEngine`` owns the sessions and the sockets. May import: ``text``, ``memory``,
``storage``, ``llm``, ``config``, ``const``; never ``assist`` or ``standalone``.
"""

from .cards import Insight
from .connection import Connection
from .engine import ProactiveEngine
from .stats import EngineStats

__all__ = ["Connection", "EngineStats", "Insight", "ProactiveEngine"]
