"""The HomeBuddy conversation agent: selectable in an Assist pipeline, speaks fr, en and el.

Assist brings the voice (wake word, speech-to-text, text-to-speech, satellites); this entity
answers the text. The turn logic lives in :mod:`.assist_agent`; this module is the thin layer
between Home Assistant's chat log and it. The answer is streamed into the chat log: a model's
chat answer piece by piece as the model writes it (Assist's text-to-speech starts after the
first sentence), an answer made by code in one piece.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from typing import Literal

from homeassistant.components import conversation
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent, llm
from homeassistant.helpers.entity import EntityDescription
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .assist_agent import AssistTurn
from .engine.assist import request_language
from .entity import HomeBuddyEntity
from .models import HomeBuddyConfigEntry

ASSISTANT_DESCRIPTION = EntityDescription(key="assistant", translation_key="assistant")
RECENT_TURNS = 6


async def async_setup_entry(
    hass: HomeAssistant,
    entry: HomeBuddyConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the conversation entity (the entry's Assist agent is already running)."""
    async_add_entities([HomeBuddyConversationEntity(entry, ASSISTANT_DESCRIPTION)])


class HomeBuddyConversationEntity(
    HomeBuddyEntity, conversation.ConversationEntity, AbstractConversationAgent
):
    """The assistant in an Assist pipeline: understands each request and answers or acts."""

    # It turns devices on and off through Home Assistant's intents: without this flag the Assist
    # dialog tells the user "This assistant cannot control your home".
    _attr_supported_features = conversation.ConversationEntityFeature.CONTROL
    _attr_supports_streaming = True

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Any language: French, English and Greek are spoken, others are answered in English."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Register as an agent of the entry too (agent id = entry id), as HA's Ollama does."""
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self.entry, self)

    async def async_will_remove_from_hass(self) -> None:
        """Unregister the entry's agent."""
        conversation.async_unset_agent(self.hass, self.entry)
        await super().async_will_remove_from_hass()

    async def _async_handle_message(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
    ) -> conversation.ConversationResult:
        """Answer one request and put the answer in the chat log."""
        turn = AssistTurn(
            text=user_input.text,
            language=request_language(user_input.text, user_input.language),
            conversation_id=chat_log.conversation_id,
            context=user_input.context,
            device_id=user_input.device_id,
            satellite_id=user_input.satellite_id,
            agent_id=self.entity_id,
            recent_turns=_recent_turns(chat_log),
            user_input=user_input,
            chat_log=chat_log,
        )
        before = len(chat_log.content)
        async for _content in chat_log.async_add_delta_content_stream(
            self.entity_id, self._spoken(turn)
        ):
            pass
        return _result(turn, chat_log, before)

    async def _spoken(
        self, turn: AssistTurn
    ) -> AsyncGenerator[conversation.AssistantContentDeltaDict]:
        """The answer as chat-log deltas: each piece as soon as it is known."""
        pieces: asyncio.Queue[str] = asyncio.Queue()
        answering = self.hass.async_create_task(
            self.entry.runtime_data.assist.async_handle(turn, speak=pieces.put_nowait),
            name="homebuddy assist turn",
        )
        try:
            yield {"role": "assistant"}
            said = ""
            while not answering.done() or not pieces.empty():
                if pieces.empty():
                    waiting = asyncio.ensure_future(pieces.get())
                    await asyncio.wait({waiting, answering}, return_when=asyncio.FIRST_COMPLETED)
                    if not waiting.done():
                        waiting.cancel()
                        continue
                    piece = waiting.result()
                else:
                    piece = pieces.get_nowait()
                said += piece
                yield {"content": piece}
            speech = answering.result()
            if not said:
                yield {"content": speech}
            elif speech.startswith(said) and len(speech) > len(said):
                yield {"content": speech[len(said) :]}
        finally:
            if not answering.done():
                answering.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await answering


def _result(
    turn: AssistTurn, chat_log: conversation.ChatLog, before: int
) -> conversation.ConversationResult:
    """The turn's result: Home Assistant's own intent response when its sentences answered
    this turn (what it did, for clients that read it), else a plain one in the answer's
    language; the speech is what was said either way. Intent results of earlier turns in the
    chat log are not this turn's."""
    response = intent.IntentResponse(language=turn.language)
    for content in chat_log.content[before:]:
        if (
            isinstance(content, conversation.ToolResultContent)
            and isinstance(content.tool_result, llm.IntentResponseDict)
            and content.tool_result.original.response_type is not intent.IntentResponseType.ERROR
        ):
            response = content.tool_result.original
    answer = chat_log.content[-1]
    response.async_set_speech(answer.content or "" if answer.role == "assistant" else "")
    return conversation.ConversationResult(
        response=response,
        conversation_id=chat_log.conversation_id,
        continue_conversation=chat_log.continue_conversation,
    )


def _recent_turns(chat_log: conversation.ChatLog) -> tuple[tuple[str, str], ...]:
    """The conversation's earlier turns (the current request is the last user content)."""
    turns: list[tuple[str, str]] = []
    for content in chat_log.content[:-1]:
        if (
            isinstance(content, conversation.UserContent | conversation.AssistantContent)
            and content.content
        ):
            turns.append((content.role, content.content))
    return tuple(turns[-RECENT_TURNS:])
