"""The proactive room: glasses sockets, sessions, the detector and the cards they receive.

A transcript frame is parsed (``protocol``), handled by its socket's ``Connection`` (buffer,
store, one analysis from ``text``, the model through ``detector`` with its prompt laid out for
the model's KV cache by ``prompt``, partial evaluations paced by ``pacing``), shaped into a card
(``cards``) and sent by the ``ProactiveEngine``. May import: ``text``, ``memory``, ``storage``,
``llm``, ``config``, ``const``; never ``assist`` or ``standalone``.
"""

from .connection import Connection
from .engine import EngineStats, Insight, ProactiveEngine

__all__ = ["Connection", "EngineStats", "Insight", "ProactiveEngine"]
