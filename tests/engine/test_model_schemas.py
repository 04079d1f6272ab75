"""Every JSON schema the engine sends as Ollama's ``format`` is one llama.cpp can compile.

Ollama (and the dev model's shim) turn a schema into a llama.cpp grammar, where ``maxLength``
and ``maxItems`` become repetitions of a rule. llama.cpp refuses a repetition whose count times
the rule's size passes its threshold (2,000): the learning schema once asked for facts of up to
2,000 characters, and the dev model's server crashed on the first batch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from custom_components.homebuddy_proactive.engine.assist.router import ROUTER_SCHEMA
from custom_components.homebuddy_proactive.engine.memory.episodes import summary_schema
from custom_components.homebuddy_proactive.engine.memory.learning import (
    decision_schema,
    extraction_schema,
)
from custom_components.homebuddy_proactive.engine.proactive.detector import insight_schema
from custom_components.homebuddy_proactive.engine.proactive.verification import (
    verification_schema,
)

# Under llama.cpp's threshold (a string's character rule has more than one symbol); the
# router's 800-character answers compile and run on the dev model.
MAX_REPETITION = 1000


def repetitions(node: Any, path: str = "$") -> Iterator[tuple[str, int | None]]:
    """Each string or array of the schema with its bound (None: unbounded)."""
    kind = node.get("type")
    if kind == "string" and "enum" not in node:
        yield path, node.get("maxLength")
    elif kind == "array":
        yield path, node.get("maxItems")
        yield from repetitions(node["items"], f"{path}[]")
    elif kind == "object":
        for name, child in node.get("properties", {}).items():
            yield from repetitions(child, f"{path}.{name}")


SCHEMAS = {
    "extraction": extraction_schema(),
    "decision": decision_schema(),
    "summary": summary_schema(),
    "insight": insight_schema(200),
    "verification": verification_schema(200),
    "router": dict(ROUTER_SCHEMA),
}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_repetition_is_bounded_and_small(name: str) -> None:
    """No string or list of a model answer is unbounded or long enough to break the grammar."""
    found = list(repetitions(SCHEMAS[name]))
    assert found
    too_long = [(path, bound) for path, bound in found if bound is None or bound > MAX_REPETITION]
    assert too_long == []
