"""Scheduled cards: a reminder that comes due while its glasses are not connected.

The host says when a reminder is due (:meth:`ProactiveEngine.deliver_scheduled`); the engine
shows it at once on every open socket of its client. When none is open, the card waits in the
store (``storage/waiting_cards.py``: across a restart too) and is shown once, on the first socket
of that client that opens within :data:`GRACE`, in its late wording (it says when it was due).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final

GRACE: Final = timedelta(hours=12)
