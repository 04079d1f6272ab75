"""The HomeBuddy AI Task entity: automations ask HomeBuddy's own Ollama model for data.

``ai_task.generate_data`` reaches it with instructions and, optionally, a structure (the fields
the answer must have). The model answers through Ollama's structured output, so an answer is
always one JSON object: the structure's fields when one is given, else ``{"text": ...}``, whose
text is the task's answer. A failure (Ollama unreachable, no model chosen, an answer that does
not fit the structure) fails the action with a readable message; Home Assistant keeps running.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from types import ModuleType
from typing import Any, Final

import voluptuous as vol
from homeassistant.components import ai_task, conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm
from homeassistant.helpers.entity import EntityDescription
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import DOMAIN
from .engine.llm import ModelError, ModelUnavailableError
from .entity import HomeBuddyEntity
from .models import HomeBuddyConfigEntry

AI_TASKS_DESCRIPTION = EntityDescription(key="ai_tasks", translation_key="ai_tasks")
# Room for a paragraph or a filled-in structure; the prompt of a task is small, so the call
# still fits the context every other call uses (Ollama reloads the model when it changes).
TASK_MAX_TOKENS: Final = 1000
TASK_TEMPERATURE: Final = 0.3
TEXT_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
}
ANSWER_AS_JSON: Final = "Answer with one JSON object only."
ANSWER_AS_TEXT: Final = 'Answer with one JSON object only: {"text": "<your answer>"}.'

# Home Assistant 2026.10 describes a task's structure with probatio (voluptuous' successor,
# with its own OpenAPI codec); earlier versions with voluptuous, converted by voluptuous_openapi.
_PROBATIO: ModuleType | None = (
    importlib.import_module("probatio") if importlib.util.find_spec("probatio") else None
)
_INVALID: tuple[type[Exception], ...] = (vol.Invalid,) + (
    (_PROBATIO.Invalid,) if _PROBATIO is not None else ()
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: HomeBuddyConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the AI Task entity (it is there even before a model is chosen)."""
    async_add_entities([HomeBuddyAITaskEntity(entry, AI_TASKS_DESCRIPTION)])


class HomeBuddyAITaskEntity(HomeBuddyEntity, ai_task.AITaskEntity):
    """Generates data for automations with the model the rest of HomeBuddy uses."""

    _attr_supported_features = ai_task.AITaskEntityFeature.GENERATE_DATA

    async def _async_generate_data(
        self,
        task: ai_task.GenDataTask,
        chat_log: conversation.ChatLog,
    ) -> ai_task.GenDataTaskResult:
        """Ask the model for the task's answer, check it, and add it to the chat log."""
        model = self.entry.runtime_data.engine.model
        if not model.model:
            raise HomeAssistantError(translation_domain=DOMAIN, translation_key="ai_task_no_model")
        if task.structure:
            schema = _json_schema(task.structure, chat_log)
            messages = _messages(chat_log, ANSWER_AS_JSON)
        else:
            schema, messages = TEXT_SCHEMA, _messages(chat_log, ANSWER_AS_TEXT)
        try:
            answer = await model.chat_json(
                messages, schema, max_tokens=TASK_MAX_TOKENS, temperature=TASK_TEMPERATURE
            )
        except ModelUnavailableError as err:
            raise HomeAssistantError(
                translation_domain=DOMAIN,
                translation_key="ai_task_unavailable",
                translation_placeholders={"error": str(err)},
            ) from err
        except ModelError as err:
            raise _invalid_answer(str(err)) from err
        data: Any
        if task.structure:
            try:
                data = task.structure(answer)
            except _INVALID as err:
                model.report_invalid("AI task answer does not match its structure")
                raise _invalid_answer(str(err)) from err
            content = json.dumps(data, ensure_ascii=False, default=str)
        else:
            data = answer.get("text")
            if not isinstance(data, str):
                model.report_invalid("AI task answer without text")
                raise _invalid_answer('no "text" string')
            content = data
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.entity_id, content=content)
        )
        return ai_task.GenDataTaskResult(conversation_id=chat_log.conversation_id, data=data)


def _json_schema(structure: Any, chat_log: conversation.ChatLog) -> dict[str, Any]:
    """The structure as the JSON schema Ollama's ``format`` takes, as HA's Ollama converts it
    (selectors through the LLM helper's serializer)."""
    serializer = chat_log.llm_api.custom_serializer if chat_log.llm_api else llm.selector_serializer
    if _PROBATIO is not None:
        converted = _PROBATIO.to_openapi(
            structure, custom_serializer=serializer, openapi_version="3.1.0"
        )
    else:
        converted = importlib.import_module("voluptuous_openapi").convert(
            structure, custom_serializer=serializer
        )
    return dict(converted)


def _messages(chat_log: conversation.ChatLog, answer_rule: str) -> list[dict[str, str]]:
    """The chat log as Ollama chat messages: Home Assistant's system prompt (with the rule of
    the answer's form added) and the task's instructions as the user message."""
    messages = [
        {"role": content.role, "content": content.content}
        for content in chat_log.content
        if isinstance(
            content,
            conversation.SystemContent | conversation.UserContent | conversation.AssistantContent,
        )
        and content.content
    ]
    if messages and messages[0]["role"] == "system":
        messages[0]["content"] += f"\n{answer_rule}"
    else:
        messages.insert(0, {"role": "system", "content": answer_rule})
    return messages


def _invalid_answer(error: str) -> HomeAssistantError:
    return HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key="ai_task_invalid_answer",
        translation_placeholders={"error": error},
    )
