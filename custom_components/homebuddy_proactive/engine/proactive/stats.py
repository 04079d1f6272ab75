"""The engine's counters, shared by the engine, its sockets and the card sink."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class EngineStats:
    """Counters for diagnostics and sensors (no personal data)."""

    finals: int = 0
    partials: int = 0
    insights: int = 0
    model_evaluations: int = 0
    protocol_errors: int = 0
    open_connections: int = 0
