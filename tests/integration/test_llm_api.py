"""The memory tools for other agents: through Home Assistant's llm helper, and used by HA's own
Ollama conversation agent (pointed at the fake Ollama, scripted to call our tool).

Each Home Assistant runs the branch that applies to it: with the ``llm`` integration's tool
platform (2026.7 and later: 2026.10.4 under scripts/test-newest-ha) the tools are on HA's Assist
API as ``homebuddy_proactive__…`` and the "HomeBuddy memory" API is not registered; without it
(2026.2.3 in .venv) the "HomeBuddy memory" API offers them as ``RecallMemories`` …, named in the
home's language. The behaviour tests call the tools wherever this Home Assistant offers them.

HA's ollama integration runs here on the ``ollama`` client our own manifest pins (0.6.3, also in
requirements/runtime.txt); HA pins 0.5.1 (2026.2.3) and 0.6.2 (2026.10.4), and both versions of
its agent work with ours (scripts/test-newest-ha runs this file too).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from awesomeversion import AwesomeVersion
from homeassistant.components import conversation
from homeassistant.config_entries import ConfigEntryState, ConfigSubentryData
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.const import __version__ as HA_VERSION
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers import llm
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import (
    CONF_MEMORY_LINKS,
    DOMAIN,
    ISSUE_MEMORY_API_MOVED,
)
from custom_components.homebuddy_proactive.engine.assist import AlarmTime
from custom_components.homebuddy_proactive.llm_api import LLM_API_ID, LLM_TOOLS_PLATFORM
from tests.fake_ollama import FakeOllama, FakeReply, call_tool
from tests.integration.conftest import MODEL
from tests.integration.test_conversation import agent_id as agent_of
from tests.integration.test_conversation import ask

GLASSES = "glasses-lea"
# The Home Assistant release that added the llm integration's tool platform.
PLATFORM_VERSION = AwesomeVersion("2026.7.0")
# Where agents find our tools on this Home Assistant.
API_ID = llm.LLM_API_ASSIST if LLM_TOOLS_PLATFORM else LLM_API_ID
SLUGS = {
    "RecallMemories": "recall_memories",
    "RememberFact": "remember_fact",
    "ListReminders": "list_reminders",
}


def tool_name(name: str) -> str:
    """A tool's name as this Home Assistant offers it to agents."""
    return f"{DOMAIN}__{SLUGS[name]}" if LLM_TOOLS_PLATFORM else name


OUR_TOOLS = [tool_name(name) for name in SLUGS]


@pytest.fixture
def setup_memory(
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
) -> Callable[..., Awaitable[MockConfigEntry]]:
    """Set the integration up with the given options."""
    return setup_with_options


def speaker(user_id: str | None = None, device_id: str | None = None) -> llm.LLMContext:
    """The context a conversation agent gives the API for one speaker."""
    return llm.LLMContext(
        platform="ollama",
        context=Context(user_id=user_id),
        language="fr",
        assistant=conversation.DOMAIN,
        device_id=device_id,
    )


async def call(
    hass: HomeAssistant, tool: str, context: llm.LLMContext | None = None, **arguments: Any
) -> dict[str, Any]:
    """Call one of our tools (named as on the "HomeBuddy memory" API) as an agent does, where
    this Home Assistant offers it, and return its data."""
    api = await llm.async_get_api(hass, API_ID, context or speaker())
    result: Any = await api.async_call_tool(
        llm.ToolInput(tool_name=tool_name(tool), tool_args=arguments)
    )
    data = getattr(result, "data", result)  # Home Assistant 2026.10 wraps it in a ToolResult
    assert isinstance(data, dict)
    return data


async def assist_tools(hass: HomeAssistant) -> list[str]:
    """Our tools among those of Home Assistant's Assist API."""
    assist = await llm.async_get_api(hass, llm.LLM_API_ASSIST, speaker())
    return [tool.name for tool in assist.tools if tool.name in {*SLUGS, *OUR_TOOLS}]


def test_the_platform_is_found_by_what_home_assistant_provides() -> None:
    """The feature check agrees with the release that added the platform."""
    assert LLM_TOOLS_PLATFORM is (AwesomeVersion(HA_VERSION) >= PLATFORM_VERSION)


async def test_listed_for_every_agent_while_loaded(
    hass: HomeAssistant,
    setup_memory: Callable[..., Awaitable[MockConfigEntry]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Agents get the three tools and a prompt naming them, from the Assist API (HA 2026.7+) or
    from "HomeBuddy memory" (older); after unload they are gone."""
    entry = await setup_memory()
    api = await llm.async_get_api(hass, API_ID, speaker())
    assert [tool.name for tool in api.tools if tool.name in OUR_TOOLS] == OUR_TOOLS
    assert all(tool.integration == DOMAIN for tool in api.tools if tool.name in OUR_TOOLS)
    assert f"cherchez avec {tool_name('RecallMemories')}." in api.api_prompt
    assert f"utilisez {tool_name('ListReminders')}." in api.api_prompt
    assert "Répondez en français" in api.api_prompt
    assert "la mémoire HomeBuddy de la personne" in api.api_prompt
    if LLM_TOOLS_PLATFORM:
        assert OUR_TOOLS == [
            "homebuddy_proactive__recall_memories",
            "homebuddy_proactive__remember_fact",
            "homebuddy_proactive__list_reminders",
        ]
        assert "not prefixed" not in caplog.text
        assert "without an integration" not in caplog.text
    else:
        assert [tool.name for tool in api.tools] == OUR_TOOLS
        assert OUR_TOOLS == ["RecallMemories", "RememberFact", "ListReminders"]

    assert await hass.config_entries.async_unload(entry.entry_id)
    assert LLM_API_ID not in {api.id for api in llm.async_get_apis(hass)}
    assert await assist_tools(hass) == []
    assist = await llm.async_get_api(hass, llm.LLM_API_ASSIST, speaker())
    assert "mémoire HomeBuddy" not in assist.api_prompt


async def test_offered_one_way_never_both(
    hass: HomeAssistant, setup_memory: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """With the platform, on the Assist API only; without it, as "HomeBuddy memory" only."""
    await setup_memory()
    registered = LLM_API_ID in {api.id for api in llm.async_get_apis(hass)}
    on_assist = await assist_tools(hass)
    if LLM_TOOLS_PLATFORM:
        assert not registered
        assert on_assist == OUR_TOOLS
    else:
        assert registered
        assert on_assist == []


async def test_agents_left_on_the_old_api_are_named_in_a_repair(
    hass: HomeAssistant, setup_memory: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """With the platform, an agent still set to "HomeBuddy memory" cannot answer: a repair names
    it; without the platform that API is there and nothing is raised."""
    MockConfigEntry(
        domain="ollama",
        data={"url": "http://127.0.0.1:9"},
        subentries_data=[
            ConfigSubentryData(
                data={"model": MODEL, CONF_LLM_HASS_API: [LLM_API_ID]},
                subentry_type="conversation",
                title="Ollama du salon",
                unique_id=None,
            )
        ],
    ).add_to_hass(hass)
    await setup_memory()
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_MEMORY_API_MOVED)
    if LLM_TOOLS_PLATFORM:
        assert issue is not None
        assert issue.translation_placeholders == {"agents": "Ollama du salon"}
    else:
        assert issue is None


@pytest.mark.parametrize(
    ("language", "name"),
    [("fr", "Mémoire HomeBuddy"), ("en", "HomeBuddy memory"), ("el", "Μνήμη HomeBuddy")],
)
async def test_the_separate_api_is_named_in_the_home_language(
    hass: HomeAssistant,
    setup_memory: Callable[..., Awaitable[MockConfigEntry]],
    language: str,
    name: str,
) -> None:
    """Agents list the API under the name given at registration, in the home's language; with
    the platform there is no such API, under any name."""
    hass.config.language = language
    await setup_memory()
    names = {api.id: api.name for api in llm.async_get_apis(hass)}
    if LLM_TOOLS_PLATFORM:
        assert LLM_API_ID not in names
        assert name not in names.values()
    else:
        assert names[LLM_API_ID] == name


async def test_prompt_follows_the_language_of_the_request(
    hass: HomeAssistant, setup_memory: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """English and Greek requests get the prompt in their language."""
    await setup_memory()
    for language, words in (("en", "Never invent a memory"), ("el", "Μην επινοείτε")):
        context = speaker()
        context.language = language
        api = await llm.async_get_api(hass, API_ID, context)
        assert words in api.api_prompt
        assert tool_name("RememberFact") in api.api_prompt


async def test_remember_then_recall(
    hass: HomeAssistant, setup_memory: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """A fact another agent saves is stored once, marked as theirs, and recalled by topic."""
    entry = await setup_memory()
    saved = await call(hass, "RememberFact", fact="Mon médecin c'est le docteur Dupont")
    assert saved == {"remembered": "Mon médecin c'est le docteur Dupont", "kind": "fact"}
    await call(hass, "RememberFact", fact="Mon médecin c'est le docteur Dupont")
    stored = await entry.runtime_data.engine.memory.list("assist")
    assert [(m.content, m.source) for m in stored] == [
        ("Mon médecin c'est le docteur Dupont", "llm_api")
    ]

    found = await call(hass, "RecallMemories", subject="médecin")
    assert found == {
        "subject": "médecin",
        "memories": [{"kind": "fact", "content": "Mon médecin c'est le docteur Dupont"}],
    }
    assert (await call(hass, "RecallMemories", subject="jardinage"))["memories"] == []


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("RememberFact", {}),
        ("RememberFact", {"fact": "   "}),
        ("RememberFact", {"fact": "x" * 5000}),
        ("RememberFact", {"fact": "Le code de la porte", "kind": "secret"}),
        ("RememberFact", {"fact": ["une", "liste"]}),
        ("RecallMemories", {}),
        ("RecallMemories", {"subject": ""}),
        ("RecallMemories", {"subject": "   "}),
        ("ListReminders", {"unexpected": 1}),
    ],
)
async def test_bad_arguments_get_a_clear_error_and_store_nothing(
    hass: HomeAssistant,
    setup_memory: Callable[..., Awaitable[MockConfigEntry]],
    tool: str,
    arguments: dict[str, Any],
) -> None:
    """The model hears what was wrong; no memory is written."""
    entry = await setup_memory()
    with pytest.raises(HomeAssistantError, match=r"Invalid arguments|Not remembered"):
        await call(hass, tool, **arguments)
    assert await entry.runtime_data.engine.memory.list("assist") == []


async def test_reminders_and_alarms_of_the_speaker_only(
    hass: HomeAssistant, setup_memory: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """The household speaker lists its reminders, tasks and alarms, not the glasses' ones."""
    entry = await setup_memory()
    memory = entry.runtime_data.engine.memory
    await memory.remember("assist", "reminder", "Appeler Anna demain à 15 h", source="assist")
    await memory.remember("assist", "task", "Acheter du pain", source="assist")
    await memory.remember(GLASSES, "reminder", "Rendez-vous chez le dentiste", source="capture")
    alarms = entry.runtime_data.assist.alarms
    await alarms.async_add(AlarmTime(7, 30), client_id="assist", language="fr")
    await alarms.async_add(AlarmTime(6, 0), client_id=GLASSES, language="fr")

    listed = await call(hass, "ListReminders")
    assert [(r["kind"], r["content"]) for r in listed["reminders"]] == [
        ("task", "Acheter du pain"),
        ("reminder", "Appeler Anna demain à 15 h"),
    ]
    assert all(len(r["noted_on"]) == 10 for r in listed["reminders"])
    assert [a["time"] for a in listed["alarms"]] == ["07:30"]


async def test_a_linked_user_reaches_their_glasses_and_nobody_else_does(
    hass: HomeAssistant,
    setup_memory: Callable[..., Awaitable[MockConfigEntry]],
    hass_admin_user: MockUser,
) -> None:
    """Léa (a person linked to her glasses) reads and writes her glasses' memories only; an
    unlinked user and a device stay in the household's; our own agent agrees for Léa."""
    hass.states.async_set("person.lea", "home", {"user_id": hass_admin_user.id})
    entry = await setup_memory(**{CONF_MEMORY_LINKS: f"person.lea = {GLASSES}\n"})
    memory = entry.runtime_data.engine.memory
    await memory.remember(GLASSES, "person", "Ma petite-fille Léa commence la fac à Lyon")
    await memory.remember("assist", "person", "La voisine Léa arrose les plantes")
    lea = speaker(user_id=hass_admin_user.id)

    found = await call(hass, "RecallMemories", lea, subject="Léa")
    assert [m["content"] for m in found["memories"]] == [
        "Ma petite-fille Léa commence la fac à Lyon"
    ]
    others = await call(hass, "RecallMemories", speaker("another-user", "kitchen"), subject="Léa")
    assert [m["content"] for m in others["memories"]] == ["La voisine Léa arrose les plantes"]

    await call(hass, "RememberFact", lea, fact="Je préfère le thé vert", kind="preference")
    assert [(m.kind, m.content) for m in await memory.list(GLASSES)] == [
        ("preference", "Je préfère le thé vert"),
        ("person", "Ma petite-fille Léa commence la fac à Lyon"),
    ]
    assert "Je préfère le thé vert" not in [m.content for m in await memory.list("assist")]

    # Our own Assist agent, asked by Léa, answers from the same client.
    result = await conversation.async_converse(
        hass,
        "Qu'est-ce que tu sais sur Léa ?",
        None,
        Context(user_id=hass_admin_user.id),
        language="fr",
        agent_id=agent_of(hass, entry),
    )
    speech = result.response.speech["plain"]["speech"]
    assert "fac à Lyon" in speech
    assert "voisine" not in speech
    await conversation.async_converse(
        hass,
        "Souviens-toi que mon dentiste est le docteur Roux",
        None,
        Context(user_id=hass_admin_user.id),
        language="fr",
        agent_id=agent_of(hass, entry),
    )
    assert "mon dentiste est le docteur Roux" in [m.content for m in await memory.list(GLASSES)]
    household = await ask(hass, entry, "Qu'est-ce que tu sais sur Léa ?")
    assert "voisine" in household.speech
    assert "fac à Lyon" not in household.speech


async def test_a_linked_device_reaches_its_client(
    hass: HomeAssistant, setup_memory: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """A voice satellite linked to the glasses sets and lists that client's alarms."""
    entry = await setup_memory(**{CONF_MEMORY_LINKS: f"satellite-bedroom = {GLASSES}"})
    await entry.runtime_data.assist.alarms.async_add(
        AlarmTime(6, 15), client_id=GLASSES, language="fr"
    )
    await entry.runtime_data.assist.alarms.async_add(
        AlarmTime(8, 0), client_id="assist", language="fr"
    )
    bedroom = await call(hass, "ListReminders", speaker(device_id="satellite-bedroom"))
    assert [a["time"] for a in bedroom["alarms"]] == ["06:15"]
    spoken = await ask(hass, entry, "Quels réveils sont prévus ?", device_id="satellite-bedroom")
    assert "6" in spoken.speech
    assert "8" not in spoken.speech


# ---------------------------------------------------------------------------------------------
# End to end: Home Assistant's own Ollama agent, configured to use Assist (with the platform)
# or "HomeBuddy memory" (without)
# ---------------------------------------------------------------------------------------------


async def test_ollama_agent_recalls_through_our_tool(
    hass: HomeAssistant,
    setup_memory: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """The core Ollama agent calls our recall tool; the memory reaches the model's second
    request and the user hears the model's answer."""
    entry = await setup_memory()
    await entry.runtime_data.engine.memory.remember(
        "assist", "fact", "Mon médecin c'est le docteur Dupont"
    )
    ollama_entry = MockConfigEntry(
        domain="ollama",
        data={"url": fake_ollama.url},
        version=3,
        minor_version=3,
        subentries_data=[
            ConfigSubentryData(
                data={"model": MODEL, CONF_LLM_HASS_API: [API_ID], "prompt": "Sois bref."},
                subentry_type="conversation",
                title="Ollama Conversation",
                unique_id=None,
            )
        ],
    )
    ollama_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(ollama_entry.entry_id)
    await hass.async_block_till_done()
    assert ollama_entry.state is ConfigEntryState.LOADED
    subentry_id = next(iter(ollama_entry.subentries))
    agent = er.async_get(hass).async_get_entity_id("conversation", "ollama", subentry_id)
    assert agent is not None

    fake_ollama.requests.clear()
    fake_ollama.queue(
        call_tool(tool_name("RecallMemories"), subject="médecin"),
        FakeReply(content="Votre médecin est le docteur Dupont."),
    )
    result = await conversation.async_converse(
        hass, "Comment s'appelle mon médecin ?", None, Context(), language="fr", agent_id=agent
    )

    assert result.response.speech["plain"]["speech"] == "Votre médecin est le docteur Dupont."
    first, second = fake_ollama.requests
    assert first["stream"] is True
    offered = [tool["function"]["name"] for tool in first["tools"]]
    assert [name for name in offered if name in OUR_TOOLS] == OUR_TOOLS
    if not LLM_TOOLS_PLATFORM:
        assert offered == OUR_TOOLS  # "HomeBuddy memory" alone
    # Our prompt, in the system one.
    assert f"cherchez avec {tool_name('RecallMemories')}" in first["messages"][0]["content"]
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert len(tool_messages) == 1
    assert "Mon médecin c'est le docteur Dupont" in tool_messages[0]["content"]
    assert await hass.config_entries.async_unload(ollama_entry.entry_id)


async def test_diagnostics_do_not_show_who_is_linked(
    hass: HomeAssistant,
    setup_memory: Callable[..., Awaitable[MockConfigEntry]],
    hass_client: ClientSessionGenerator,
) -> None:
    """The speaker links name people and devices: redacted in diagnostics."""
    entry = await setup_memory(**{CONF_MEMORY_LINKS: f"person.lea = {GLASSES}"})
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, entry)
    assert diagnostics["entry"]["options"][CONF_MEMORY_LINKS] == "**REDACTED**"
    assert GLASSES not in str(diagnostics)
