"""The memory tools for every Assist agent, and the "HomeBuddy memory" LLM API.

The tools recall memories about a person or topic, remember a fact, and list the reminders,
tasks and alarms, all through the engine (``MemoryEngine.retrieve``, ``remember``,
``reminders``) and the Assist agent's alarm clock. Each call is scoped to the speaker the way
our own Assist agent scopes a turn (:func:`.speakers.speaker_client`): a speaker never
reads or writes another client's memories or alarms.

How agents reach them depends on Home Assistant (:data:`LLM_TOOLS_PLATFORM`, found by what
Home Assistant provides, not by its version):

- with the ``llm`` integration's tool platform (Home Assistant 2026.7 and later), our ``llm.py``
  platform adds them, named ``homebuddy_proactive__recall_memories`` …, to Home Assistant's own
  Assist API, so every agent that uses Assist has them; no separate API is registered;
- before, the entry registers the "HomeBuddy memory" API (:func:`memory_api`, named in the
  home's language) while it is loaded, to be chosen in the options of any conversation agent
  that lists the LLM APIs (Ollama, OpenAI, Anthropic …), with the tools under their
  ``RecallMemories`` … names.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers import llm
from homeassistant.util import dt as dt_util
from homeassistant.util.json import JsonObjectType

from .const import DOMAIN, ISSUE_MEMORY_API_MOVED
from .engine.assist import say
from .engine.const import MEMORY_KINDS
from .engine.memory import MemoryError as MemoryRequestError
from .engine.memory import told_memories
from .schema_library import vol
from .speakers import speaker_client

if TYPE_CHECKING:
    from .models import HomeBuddyConfigEntry

LLM_API_ID: Final = "homebuddy_memory"
RECALL_LIMIT: Final = 5
REMINDER_LIMIT: Final = 20
MAX_SUBJECT_CHARACTERS: Final = 200
# Where the memory came from, in its ``source``: another conversation agent, through this API.
SOURCE_LLM_API: Final = "llm_api"

# Tool parameters are described with this Home Assistant's schema library: the one the agents
# serialise.
schema = vol
# Newer Home Assistant wraps a tool's answer (and says what the tool does to the home).
_TOOL_RESULT: Any = getattr(llm, "ToolResult", None)
_ANNOTATIONS: Any = getattr(llm, "ToolAnnotations", None)


def _llm_tools_class() -> Any:
    """``LLMTools`` of Home Assistant's ``llm`` integration when it gathers integrations' tools
    from their ``llm.py`` platform (``async_get_tools``); None when this Home Assistant has no
    such platform."""
    if importlib.util.find_spec("homeassistant.components.llm") is None:
        return None
    integration = importlib.import_module("homeassistant.components.llm")
    if not hasattr(integration, "async_get_tools"):
        return None
    return getattr(integration, "LLMTools", None)


# What our ``llm.py`` platform answers with; None when Home Assistant has no tool platform.
LLM_TOOLS: Any = _llm_tools_class()
# True: the tools reach agents through the platform; False: through the "HomeBuddy memory" API.
LLM_TOOLS_PLATFORM: Final = LLM_TOOLS is not None


def _answer(data: JsonObjectType) -> Any:
    """A tool's answer as this Home Assistant expects it."""
    return data if _TOOL_RESULT is None else _TOOL_RESULT(data=data)


def memory_tools(entry: HomeBuddyConfigEntry, *, prefixed: bool = False) -> list[llm.Tool]:
    """The three tools bound to the entry; ``prefixed``: under their ``homebuddy_proactive__…``
    names (on Home Assistant's Assist API) rather than the API's ``RecallMemories`` …"""
    return [tool(entry, prefixed=prefixed) for tool in MEMORY_TOOLS]


def memory_prompt(language: str | None, *, prefixed: bool = False) -> str:
    """What the agent is told about the tools, in the language of the request when we speak
    it (English otherwise), naming the tools as they are offered."""
    recall, remember, reminders = (tool.tool_name(prefixed=prefixed) for tool in MEMORY_TOOLS)
    return say(
        "memory_api_prompt",
        language or "en",
        recall=recall,
        remember=remember,
        reminders=reminders,
    )


def memory_api(hass: HomeAssistant, entry: HomeBuddyConfigEntry) -> HomeBuddyMemoryAPI:
    """The "HomeBuddy memory" API of the entry, for Home Assistant without the tool platform.

    Agents list an API by its ``name`` as it is (Home Assistant does not translate it), so it is
    named in the home's language when it is registered ("Mémoire HomeBuddy" in French).
    """
    return HomeBuddyMemoryAPI(
        hass=hass, id=LLM_API_ID, name=say("memory_api_name", hass.config.language), entry=entry
    )


def agents_on_the_old_api(hass: HomeAssistant) -> list[str]:
    """Titles of the conversation agents (config entries and their subentries) whose options
    still name the "HomeBuddy memory" API: with the tools on the Assist API it is gone, and
    Home Assistant refuses to answer through an agent set to an API that does not exist."""
    found: list[str] = []
    for entry in hass.config_entries.async_entries():
        configs = [(entry.title, entry.options), (entry.title, entry.data)]
        configs += [(sub.title, sub.data) for sub in getattr(entry, "subentries", {}).values()]
        for title, config in configs:
            chosen = config.get(CONF_LLM_HASS_API)
            chosen = [chosen] if isinstance(chosen, str) else chosen or []
            if LLM_API_ID in chosen and title not in found:
                found.append(title)
    return found


def async_offer_memory_tools(hass: HomeAssistant, entry: HomeBuddyConfigEntry) -> None:
    """The memory tools for every conversation agent while the entry is loaded: on Home
    Assistant's Assist API through our ``llm.py`` platform when it has one (with a repair
    naming the agents still set to the old API), otherwise as the "HomeBuddy memory" API in
    every agent's options. Never both."""
    if not LLM_TOOLS_PLATFORM:
        entry.async_on_unload(llm.async_register_api(hass, memory_api(hass, entry)))
    agents = agents_on_the_old_api(hass) if LLM_TOOLS_PLATFORM else []
    if not agents:
        ir.async_delete_issue(hass, DOMAIN, ISSUE_MEMORY_API_MOVED)
        return
    ir.async_create_issue(
        hass,
        DOMAIN,
        ISSUE_MEMORY_API_MOVED,
        is_fixable=False,
        severity=ir.IssueSeverity.ERROR,
        translation_key=ISSUE_MEMORY_API_MOVED,
        translation_placeholders={"agents": ", ".join(agents)},
    )


@dataclass(slots=True, kw_only=True)
class HomeBuddyMemoryAPI(llm.API):
    """The entry's memory, offered to any conversation agent."""

    entry: HomeBuddyConfigEntry

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        """The tools and a short prompt, in the language of the request when we speak it."""
        return llm.APIInstance(
            api=self,
            api_prompt=memory_prompt(llm_context.language),
            llm_context=llm_context,
            tools=memory_tools(self.entry),
        )


class MemoryTool(llm.Tool):
    """A memory tool: validates its arguments and finds the speaker's client.

    ``name`` is its name on the "HomeBuddy memory" API; on Home Assistant's Assist API it is
    offered as ``homebuddy_proactive__<slug>``.
    """

    integration = DOMAIN
    slug: str

    def __init__(self, entry: HomeBuddyConfigEntry, *, prefixed: bool = False) -> None:
        """Bind the entry (its runtime data is read at each call: it follows reloads)."""
        self.entry = entry
        self.name = self.tool_name(prefixed=prefixed)

    @classmethod
    def tool_name(cls, *, prefixed: bool = False) -> str:
        """The tool's name on the "HomeBuddy memory" API, or on the Assist API (``prefixed``)."""
        return f"{DOMAIN}__{cls.slug}" if prefixed else cls.name

    def arguments(self, tool_input: llm.ToolInput) -> dict[str, Any]:
        """The validated arguments; a clear error, and nothing done, when they are wrong."""
        try:
            arguments: dict[str, Any] = self.parameters(tool_input.tool_args)
        except schema.Invalid as err:
            raise HomeAssistantError(f"Invalid arguments for {self.name}: {err}") from err
        return arguments

    def client(self, llm_context: llm.LLMContext) -> str:
        """The client whose memories the speaking user or device reaches."""
        user_id = llm_context.context.user_id if llm_context.context else None
        links = self.entry.runtime_data.assist.links
        return speaker_client(
            self.entry.runtime_data.assist.hass, links, user_id, llm_context.device_id
        )


class RecallMemoriesTool(MemoryTool):
    """What the memory knows about a person or a topic."""

    name = "RecallMemories"
    slug = "recall_memories"
    title = "Recall memories"
    description = (
        "Recall what is remembered about a person (family, friends, doctors), a topic or an "
        "event of the user's life: relationships, preferences, routines, appointments. "
        "Returns the matching memories, most relevant first; an empty list means nothing is "
        "known."
    )
    parameters = schema.Schema(
        {
            schema.Required(
                "subject", description="The person or topic, e.g. 'Léa' or 'the doctor'."
            ): schema.All(str, schema.Length(min=1, max=MAX_SUBJECT_CHARACTERS)),
        }
    )
    if _ANNOTATIONS is not None:
        annotations = _ANNOTATIONS(
            read_only=True, destructive=False, idempotent=True, open_world=False
        )

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> Any:
        """Retrieve the speaker's memories about the subject."""
        subject = str(self.arguments(tool_input)["subject"]).strip()
        if not subject:
            raise HomeAssistantError(f"Invalid arguments for {self.name}: the subject is empty")
        memory = self.entry.runtime_data.engine.memory
        found = await memory.retrieve(self.client(llm_context), subject, RECALL_LIMIT)
        memories: list[Any] = [
            {"kind": m.kind, "content": m.content} for m in told_memories(found, RECALL_LIMIT)
        ]
        return _answer({"subject": subject, "memories": memories})


class RememberFactTool(MemoryTool):
    """Keep a lasting fact the user stated."""

    name = "RememberFact"
    slug = "remember_fact"
    title = "Remember a fact"
    description = (
        "Remember a lasting fact the user stated about themselves or the people in their life, "
        "written as a short sentence in the user's words, e.g. 'My doctor is Dr Martin'. "
        "Only what the user said; never guess facts about other people's health or beliefs."
    )
    parameters = schema.Schema(
        {
            schema.Required("fact", description="The fact, as one short sentence."): str,
            schema.Optional(
                "kind",
                default="fact",
                description="fact, preference, person, reminder or task.",
            ): schema.In(MEMORY_KINDS),
        }
    )
    if _ANNOTATIONS is not None:
        annotations = _ANNOTATIONS(
            read_only=False, destructive=False, idempotent=True, open_world=False
        )

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> Any:
        """Store the fact for the speaker (said again, it is kept once)."""
        arguments = self.arguments(tool_input)
        memory = self.entry.runtime_data.engine.memory
        try:
            record = await memory.remember(
                self.client(llm_context),
                arguments["kind"],
                arguments["fact"],
                importance=0.6,
                source=SOURCE_LLM_API,
            )
        except MemoryRequestError as err:
            raise HomeAssistantError(f"Not remembered: {err}") from err
        return _answer({"remembered": record.content, "kind": record.kind})


class RemindersTool(MemoryTool):
    """The speaker's reminders, tasks and pending alarms."""

    name = "ListReminders"
    slug = "list_reminders"
    title = "List reminders and alarms"
    description = (
        "List the user's reminders and tasks (as they said them, newest first, with the day "
        "each was noted) and their pending alarms (local time and date, soonest first)."
    )
    parameters = schema.Schema({})
    if _ANNOTATIONS is not None:
        annotations = _ANNOTATIONS(
            read_only=True, destructive=False, idempotent=True, open_world=False
        )

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> Any:
        """Read the speaker's reminders and tasks, and their alarms."""
        self.arguments(tool_input)
        runtime = self.entry.runtime_data
        client = self.client(llm_context)
        reminders: list[Any] = [
            {
                "kind": record.kind,
                "content": record.content,
                "noted_on": dt_util.as_local(record.created_at).date().isoformat(),
            }
            for record in await runtime.engine.memory.reminders(client, REMINDER_LIMIT)
        ]
        alarms: list[Any] = []
        for alarm in await runtime.assist.alarms.async_pending(client):
            ring_at = dt_util.as_local(alarm.fire_at)
            alarms.append(
                {
                    "time": f"{alarm.hour:02d}:{alarm.minute:02d}",
                    "date": ring_at.date().isoformat(),
                    "label": alarm.label,
                }
            )
        return _answer({"reminders": reminders, "alarms": alarms})


# In the order agents are offered them.
MEMORY_TOOLS: Final[tuple[type[MemoryTool], ...]] = (
    RecallMemoriesTool,
    RememberFactTool,
    RemindersTool,
)
