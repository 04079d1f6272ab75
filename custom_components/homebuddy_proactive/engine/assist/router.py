"""The Assist router: one model call decides what a spoken request is; code does the rest.

The model reads the transcribed request and returns a structured ``command`` (``service``,
``weather``, ``news``, ``alarm``, ``memory_save``, ``memory_recall`` or ``chat``) with its
parameters, under a JSON schema. Its answer is validated here; anything invalid becomes a polite
spoken fallback in the user's language, never an exception. The prompt's sentences in each
language sit in the phrasebooks (``phrases/<lang>.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal, Protocol

from ..llm import ModelOutputError, ModelUnavailableError
from .alarms import parse_alarm_time
from .phrases import phrasebook
from .spoken_stream import SpokenText

COMMAND_SERVICE: Final = "service"
COMMAND_WEATHER: Final = "weather"
COMMAND_NEWS: Final = "news"
COMMAND_ALARM: Final = "alarm"
COMMAND_MEMORY_SAVE: Final = "memory_save"
COMMAND_MEMORY_RECALL: Final = "memory_recall"
COMMAND_CHAT: Final = "chat"
COMMANDS: Final = (
    COMMAND_SERVICE,
    COMMAND_WEATHER,
    COMMAND_NEWS,
    COMMAND_ALARM,
    COMMAND_MEMORY_SAVE,
    COMMAND_MEMORY_RECALL,
    COMMAND_CHAT,
)


@dataclass(frozen=True, slots=True)
class ServiceIntent:
    """A built-in Home Assistant intent the router may choose, and its value slot."""

    name: str
    slot: str | None = None
    minimum: float = 0
    maximum: float = 100
    domains: frozenset[str] | None = None  # None: whatever the name designates
    turning_on: bool | None = None


SERVICE_INTENTS: Final[Mapping[str, ServiceIntent]] = {
    intent.name: intent
    for intent in (
        ServiceIntent("HassTurnOn", turning_on=True),
        ServiceIntent("HassTurnOff", turning_on=False),
        ServiceIntent("HassSetPosition", "position", 0, 100, frozenset({"cover", "valve"})),
        ServiceIntent("HassLightSet", "brightness", 0, 100, frozenset({"light"})),
        ServiceIntent("HassClimateSetTemperature", "temperature", 5, 35, frozenset({"climate"})),
        ServiceIntent("HassSetVolume", "volume_level", 0, 100, frozenset({"media_player"})),
        ServiceIntent("HassMediaPause", domains=frozenset({"media_player"})),
        ServiceIntent("HassMediaUnpause", domains=frozenset({"media_player"})),
        ServiceIntent("HassMediaNext", domains=frozenset({"media_player"})),
    )
}

MAX_NAME: Final = 80
MAX_TEXT: Final = 800
MAX_FACT: Final = 400

ROUTER_SCHEMA: Final[Mapping[str, Any]] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "enum": list(COMMANDS)},
        "intent": {"type": "string", "enum": ["", *SERVICE_INTENTS]},
        "name": {"type": "string", "maxLength": MAX_NAME},
        "area": {"type": "string", "maxLength": MAX_NAME},
        "value": {"type": "number"},
        "time": {"type": "string", "maxLength": 20},
        "fact": {"type": "string", "maxLength": MAX_FACT},
        "subject": {"type": "string", "maxLength": MAX_NAME},
        "text": {"type": "string", "maxLength": MAX_TEXT},
    },
    "required": ["command"],
}


@dataclass(frozen=True, kw_only=True, slots=True)
class RouterCommand:
    """A validated decision of the router."""

    command: str
    intent: str = ""
    name: str = ""
    area: str = ""
    value: float | None = None
    time: str = ""
    fact: str = ""
    subject: str = ""
    text: str = ""

    def describe(self) -> str:
        """Describe the request without the user's words (for audit entries)."""
        parts = [self.intent or self.command]
        if self.name:
            parts.append(f"name={self.name!r}")
        if self.area:
            parts.append(f"area={self.area!r}")
        if self.value is not None:
            parts.append(f"value={self.value:g}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class RouterFailure:
    """The router could not decide: the model was unreachable or answered nonsense."""

    reason: Literal["unavailable", "invalid"]


class RouterOutputError(ValueError):
    """The model's JSON does not describe a usable command."""


def _text(data: Mapping[str, Any], key: str, limit: int) -> str:
    """Return a stripped string field (empty when absent); wrong types are errors."""
    value = data.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RouterOutputError(f"{key} is not a string")
    return value.strip()[:limit]


def validate_router_output(data: Mapping[str, Any]) -> RouterCommand:
    """Check the model's answer against what each command needs; raise RouterOutputError."""
    command = data.get("command")
    if command not in COMMANDS:
        raise RouterOutputError("unknown command")
    intent = _text(data, "intent", 40)
    name = _text(data, "name", MAX_NAME)
    area = _text(data, "area", MAX_NAME)
    raw_value = data.get("value")
    value: float | None = None
    if raw_value is not None and not isinstance(raw_value, bool):
        if not isinstance(raw_value, int | float) or not math.isfinite(raw_value):
            raise RouterOutputError("value is not a number")
        value = float(raw_value)
    result = RouterCommand(
        command=command,
        intent=intent,
        name=name,
        area=area,
        value=value,
        time=_text(data, "time", 20),
        fact=_text(data, "fact", MAX_FACT),
        subject=_text(data, "subject", MAX_NAME),
        text=_text(data, "text", MAX_TEXT),
    )
    if command == COMMAND_SERVICE:
        spec = SERVICE_INTENTS.get(intent)
        if spec is None:
            raise RouterOutputError("service without a supported intent")
        if not (name or area):
            raise RouterOutputError("service without a target")
        if spec.slot is not None:
            if value is None or not spec.minimum <= value <= spec.maximum:
                raise RouterOutputError(f"{intent} needs a value in range")
        elif value is not None:
            result = RouterCommand(
                command=command, intent=intent, name=name, area=area, text=result.text
            )
    elif command == COMMAND_ALARM:
        if parse_alarm_time(result.time) is None:
            raise RouterOutputError("alarm without a readable time")
    elif command == COMMAND_MEMORY_SAVE:
        if not result.fact:
            raise RouterOutputError("memory_save without a fact")
    elif command == COMMAND_CHAT and not result.text:
        raise RouterOutputError("chat without text")
    return result


class ChatModel(Protocol):
    """What the router needs of a model (``OllamaModel`` is one)."""

    async def chat_json(
        self,
        messages: Sequence[Mapping[str, str]],
        schema: Mapping[str, Any],
        *,
        max_tokens: int = ...,
        temperature: float = ...,
        on_content: Callable[[str], None] | None = ...,
    ) -> dict[str, Any]:
        """Return one JSON object following ``schema`` (its raw text streamed to
        ``on_content`` as it is written, when given)."""
        ...

    def report_invalid(self, reason: str) -> None:
        """Count an answer that broke the schema."""
        ...


@dataclass(frozen=True, kw_only=True)
class RouterContext:
    """What the router prompt is fed besides the request itself."""

    language: str
    now: datetime
    memories: Sequence[str] = ()
    episode_summary: str | None = None
    recent_turns: Sequence[tuple[str, str]] = ()  # (role "user"/"assistant", text)
    devices: Sequence[str] = ()


# The command list stays in English in every prompt: the keys and intent names are code.
_COMMAND_GUIDE: Final = (
    '- "service": control a device. "intent" is one of '
    + ", ".join(SERVICE_INTENTS)
    + '; "name" is the device name as the person said it, "area" the room if said, "value" '
    "the number for HassSetPosition/HassLightSet/HassSetVolume (0-100) or "
    "HassClimateSetTemperature (degrees).\n"
    '- "weather": the weather or forecast.\n'
    '- "news": the news headlines.\n'
    '- "alarm": set an alarm; "time" as HH:MM (24 h).\n'
    '- "memory_save": the person asks you to remember something; "fact" is that fact, '
    "written as a full sentence.\n"
    '- "memory_recall": the person asks what you remember; "subject" is who or what.\n'
    '- "chat": anything else; "text" is your spoken answer.'
)

MAX_PROMPT_MEMORIES: Final = 8
MAX_PROMPT_TURNS: Final = 6
MAX_PROMPT_DEVICES: Final = 60


def build_router_messages(text: str, context: RouterContext) -> list[dict[str, str]]:
    """Return the chat messages of one router call, in the user's language."""
    prompt = phrasebook(context.language).router_prompt
    lines = [
        prompt["intro"],
        _COMMAND_GUIDE,
        prompt["language"],
        prompt["now"].format(now=context.now.strftime("%Y-%m-%d %H:%M (%A)")),
    ]
    if context.memories:
        lines.append(prompt["memories"])
        lines.extend(f"- {m}" for m in context.memories[:MAX_PROMPT_MEMORIES])
    if context.episode_summary:
        lines.append(f"{prompt['episode']} {context.episode_summary}")
    if context.devices:
        lines.append(prompt["devices"])
        lines.append(", ".join(context.devices[:MAX_PROMPT_DEVICES]))
    messages = [{"role": "system", "content": "\n".join(lines)}]
    for role, content in list(context.recent_turns)[-MAX_PROMPT_TURNS:]:
        if role in ("user", "assistant") and content:
            messages.append({"role": role, "content": content})
    messages.append({"role": "user", "content": text})
    return messages


class AssistRouter:
    """One model call per request; the answer is validated, never trusted."""

    def __init__(self, model: ChatModel, *, max_tokens: int = 300) -> None:
        """Bind the model."""
        self.model = model
        self.max_tokens = max_tokens

    async def route(
        self,
        text: str,
        context: RouterContext,
        speak: Callable[[str], None] | None = None,
    ) -> RouterCommand | RouterFailure:
        """Return the model's validated command, or why there is none.

        The command is decided first (the first key the model writes): with ``speak``, a chat
        answer is passed to it piece by piece while the model writes it
        (:mod:`.spoken_stream`); every other command is answered by code after validation.
        """
        messages = build_router_messages(text, context)
        spoken = SpokenText(speak) if speak is not None else None
        try:
            data = await self.model.chat_json(
                messages,
                ROUTER_SCHEMA,
                max_tokens=self.max_tokens,
                temperature=0.2,
                on_content=spoken.feed if spoken is not None else None,
            )
        except ModelUnavailableError:
            return RouterFailure("unavailable")
        except ModelOutputError:
            return RouterFailure("invalid")
        try:
            return validate_router_output(data)
        except RouterOutputError as err:
            self.model.report_invalid(f"router: {err}")
            return RouterFailure("invalid")
