"""The options form of HomeBuddy Proactive: every tuning value of the engine, and Assist's.

The form holds its fields in the sections of :data:`OPTION_SECTIONS`; it is built from
:data:`OPTION_FIELDS`, so a new option is one more descriptor in that tuple and its key in one
section. The embedding model is chosen from the embedding models the Ollama server lists when
the form opens (typed by name when it cannot be reached); which models chat and which embed is
``model_choice``'s to say. Options are stored flat, as before the sections existed, so the
engine and existing entries read them unchanged.

A value that cannot be saved is shown again alone, with its error under it (the *fix* step):
the long sectioned form would keep the person scrolled to its Submit button, far from an error
at its top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

import voluptuous as vol
from homeassistant.config_entries import ConfigFlowResult, OptionsFlowWithReload
from homeassistant.data_entry_flow import section
from homeassistant.helpers.selector import (
    EntitySelector,
    EntitySelectorConfig,
    NumberSelector,
    NumberSelectorConfig,
    NumberSelectorMode,
    Selector,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)

from .const import (
    ASSIST_DOMAINS,
    CONF_ACTIONS_PER_MINUTE,
    CONF_ALARM_SPEAKER,
    CONF_ALLOWED_DOMAINS,
    CONF_DETECTOR_MODE,
    CONF_EMBEDDING_MODEL,
    CONF_MEMORY_LINKS,
    CONF_NEWS_URL,
    CONF_RING_REPEAT_SECONDS,
    CONF_RINGS,
    CONF_SPEAKERS,
    CONF_URL,
    CONF_WEATHER_ENTITY,
    DEFAULT_ACTIONS_PER_MINUTE,
    DEFAULT_ALLOWED_DOMAINS,
)
from .engine.config import (
    TUNING_SETTINGS,
    ConfigError,
    EngineConfig,
    TuningSetting,
    http_url,
    validate_tuning,
)
from .engine.const import DETECTOR_CONVERSATE, DETECTOR_MODES
from .engine.llm import ModelUnavailableError
from .engine.memory import MemoryLinkError, MemoryLinks
from .model_choice import EMBEDDING, async_list_models
from .ringing import (
    DEFAULT_RING_REPEAT_SECONDS,
    DEFAULT_RINGS,
    MEDIA_PLAYER,
    SATELLITE,
    parse_speakers,
)

MAX_MODEL_NAME: Final = 200
DETECTOR_MODE_SELECTOR: Final = SelectSelector(
    SelectSelectorConfig(
        options=list(DETECTOR_MODES),
        mode=SelectSelectorMode.LIST,
        translation_key=CONF_DETECTOR_MODE,
    )
)


class FormNumberSelector(NumberSelector):
    """A number box that shows its range but leaves checking it to the options step.

    Home Assistant's own number selector refuses a value out of range before the step runs,
    which the frontend shows far from the field; here the step checks it and names the field.
    """

    def __call__(self, data: Any) -> float:
        """Accept any number; the step checks the range."""
        value: float = vol.Coerce(float)(data)
        return value


# Units shown in the number boxes of the options form.
UNITS: Final[dict[str, str]] = {
    "insight_cooldown_seconds": "s",
    "partial_insight_cooldown_seconds": "s",
    "transcript_window_seconds": "s",
    "ollama_timeout_seconds": "s",
    "ollama_keep_alive_minutes": "min",
    "partial_insight_debounce_ms": "ms",
    "partial_insight_interval_ms": "ms",
}


def _keep(value: Any) -> Any:
    """Return a value its selector has already validated."""
    return value


def _allowed_domains(value: Any) -> list[str]:
    """Return the chosen domains in the offered order; unknown domains are refused."""
    chosen = list(value)
    if any(domain not in ASSIST_DOMAINS for domain in chosen):
        raise ConfigError("unknown domain")
    return [domain for domain in ASSIST_DOMAINS if domain in chosen]


def _whole_number(low: int, high: int, value: Any) -> int:
    """Return a whole number from ``low`` to ``high`` (the selector gave a number)."""
    number = float(value)
    if not (low <= number <= high and number == int(number)):
        raise ConfigError("out of range")
    return int(number)


def _embedding_model(value: Any) -> str:
    """Return an Ollama model name, or "" for none."""
    name = str(value or "").strip()
    if len(name) > MAX_MODEL_NAME:
        raise ConfigError("too long")
    return name


def embedding_model_selector(models: list[str], current: str) -> Selector[Any]:
    """A dropdown of the server's models (and the current choice), or a text box when the
    server listed none (it could not be reached)."""
    offered = sorted({*models, current} - {""})
    if not offered:
        return TextSelector(TextSelectorConfig(type=TextSelectorType.TEXT))
    return SelectSelector(SelectSelectorConfig(options=offered, mode=SelectSelectorMode.DROPDOWN))


def _news_url(value: Any) -> str:
    """Return an http(s) feed address, or "" for no news."""
    url = str(value or "").strip()
    return http_url(url) if url else url


def _speakers(value: Any) -> str:
    """Return the "glasses client id = speaker" lines as typed, once they read."""
    text = str(value or "").strip()
    try:
        parse_speakers(text)
    except ValueError as err:
        raise LineError(int(str(err).split()[-1]), str(err)) from err
    return text


def _memory_links(value: Any) -> str:
    """Return the "speaker = client id" lines as typed, once they read as links."""
    text = str(value or "").strip()
    try:
        MemoryLinks.parse(text)
    except MemoryLinkError as err:
        raise LineError(err.line, str(err)) from err
    return text


class LineError(ConfigError):
    """A multi-line option's bad line, named in the form's error (placeholder ``line``)."""

    def __init__(self, line: int, message: str) -> None:
        """Keep the line for the form."""
        super().__init__(message)
        self.placeholders = {"line": str(line)}


@dataclass(frozen=True, kw_only=True)
class OptionField:
    """One field of the options form.

    ``validate`` returns the value to store or raises :class:`ConfigError`; the selector only
    guards the UI, so values are checked again here.
    """

    key: str
    default: Any
    selector: Selector[Any]
    validate: Callable[[Any], Any] = _keep
    required: bool = True  # optional fields may be left empty (stored as their default)
    error: str = ""  # the form's error for a bad value; a number's names its range
    # A number's allowed range: its error names the field and this range (placeholders
    # ``<key>_min`` and ``<key>_max``, in the home's way of writing numbers).
    range: tuple[float, float] | None = None

    @property
    def error_key(self) -> str:
        """The form's error (translations ``options.error``) for a bad value of this field."""
        return self.error or f"range_{self.key}"

    def range_placeholders(self, language: str) -> dict[str, str]:
        """The range the error names, its numbers written as ``language`` writes them."""
        if self.range is None:
            return {}
        low, high = self.range
        return {
            f"{self.key}_min": written_number(low, language),
            f"{self.key}_max": written_number(high, language),
        }


# How a language writes 3600.5: its thousands separator and its decimal mark. English's (and
# anything unknown) is 3,600.5; French sets thousands apart with a narrow no-break space.
_NUMBER_MARKS: Final = {
    "fr": ("\u202f", ","),
    "el": (".", ","),
    "de": (".", ","),
    "es": (".", ","),
    "it": (".", ","),
    "pt": (".", ","),
    "nl": (".", ","),
}


def written_number(value: float, language: str) -> str:
    """``value`` as a person of ``language`` writes it (3 600 in French, 3,600 in English)."""
    text = f"{int(value):,}" if value == int(value) else f"{value:,}"
    thousands, decimal = _NUMBER_MARKS.get(language.split("-", maxsplit=1)[0].lower(), (",", "."))
    return text.translate({ord(","): thousands, ord("."): decimal})


def tuning_field(setting: TuningSetting) -> OptionField:
    """Return the options-form field of one engine tuning setting."""
    return OptionField(
        key=setting.key,
        default=setting.default,
        selector=FormNumberSelector(
            NumberSelectorConfig(
                min=setting.minimum,
                max=setting.maximum,
                step=setting.step,
                mode=NumberSelectorMode.BOX,
                **({"unit_of_measurement": UNITS[setting.key]} if setting.key in UNITS else {}),
            )
        ),
        validate=partial(validate_tuning, setting.key),
        range=(setting.minimum, setting.maximum),
    )


OPTION_FIELDS: Final[tuple[OptionField, ...]] = (
    OptionField(
        key=CONF_DETECTOR_MODE, default=DETECTOR_CONVERSATE, selector=DETECTOR_MODE_SELECTOR
    ),
    *(tuning_field(setting) for setting in TUNING_SETTINGS),
    OptionField(
        key=CONF_EMBEDDING_MODEL,
        default="",
        selector=embedding_model_selector([], ""),  # replaced by the server's list (_schema)
        validate=_embedding_model,
        required=False,
        error="invalid_model",
    ),
    OptionField(
        key=CONF_ALLOWED_DOMAINS,
        default=list(DEFAULT_ALLOWED_DOMAINS),
        selector=SelectSelector(
            SelectSelectorConfig(
                options=list(ASSIST_DOMAINS),
                multiple=True,
                mode=SelectSelectorMode.DROPDOWN,
                translation_key=CONF_ALLOWED_DOMAINS,
            )
        ),
        validate=_allowed_domains,
        error="unknown_domain",
    ),
    OptionField(
        key=CONF_ACTIONS_PER_MINUTE,
        default=DEFAULT_ACTIONS_PER_MINUTE,
        selector=FormNumberSelector(
            NumberSelectorConfig(min=1, max=60, step=1, mode=NumberSelectorMode.BOX)
        ),
        validate=partial(_whole_number, 1, 60),
        range=(1, 60),
    ),
    OptionField(
        key=CONF_WEATHER_ENTITY,
        default="",
        selector=EntitySelector(EntitySelectorConfig(domain="weather")),
        required=False,
    ),
    OptionField(
        key=CONF_ALARM_SPEAKER,
        default="",
        selector=EntitySelector(EntitySelectorConfig(domain=[MEDIA_PLAYER, SATELLITE])),
        required=False,
    ),
    OptionField(
        key=CONF_SPEAKERS,
        default="",
        selector=TextSelector(TextSelectorConfig(multiline=True)),
        validate=_speakers,
        required=False,
        error="invalid_speakers",
    ),
    OptionField(
        key=CONF_RING_REPEAT_SECONDS,
        default=DEFAULT_RING_REPEAT_SECONDS,
        selector=FormNumberSelector(
            NumberSelectorConfig(
                min=10, max=600, step=1, mode=NumberSelectorMode.BOX, unit_of_measurement="s"
            )
        ),
        validate=partial(_whole_number, 10, 600),
        range=(10, 600),
    ),
    OptionField(
        key=CONF_RINGS,
        default=DEFAULT_RINGS,
        selector=FormNumberSelector(
            NumberSelectorConfig(min=1, max=20, step=1, mode=NumberSelectorMode.BOX)
        ),
        validate=partial(_whole_number, 1, 20),
        range=(1, 20),
    ),
    OptionField(
        key=CONF_NEWS_URL,
        default="",
        selector=TextSelector(TextSelectorConfig(type=TextSelectorType.URL)),
        validate=_news_url,
        required=False,
        error="invalid_url",
    ),
    OptionField(
        key=CONF_MEMORY_LINKS,
        default="",
        selector=TextSelector(TextSelectorConfig(multiline=True)),
        validate=_memory_links,
        required=False,
        error="invalid_memory_links",
    ),
)


@dataclass(frozen=True, kw_only=True)
class OptionSection:
    """One section of the options form: its key (translations) and its fields, in order."""

    key: str
    fields: tuple[str, ...]
    collapsed: bool = False


OPTION_SECTIONS: Final[tuple[OptionSection, ...]] = (
    OptionSection(
        key="cards",
        fields=(
            CONF_DETECTOR_MODE,
            "insight_target_characters",
            "insight_max_characters",
            "insight_cooldown_seconds",
        ),
    ),
    OptionSection(
        key="timing",
        fields=(
            "partial_insight_cooldown_seconds",
            "transcript_window_seconds",
            "transcript_max_items",
        ),
    ),
    OptionSection(
        key="memory",
        fields=(
            "memory_result_limit",
            "memory_weight_recency",
            "memory_weight_frequency",
            "memory_weight_feedback",
            "memory_weight_importance",
            "memory_learning_turns",
            CONF_EMBEDDING_MODEL,
        ),
    ),
    OptionSection(
        key="assist",
        fields=(
            CONF_ALLOWED_DOMAINS,
            CONF_ACTIONS_PER_MINUTE,
            CONF_ALARM_SPEAKER,
            CONF_SPEAKERS,
            CONF_RING_REPEAT_SECONDS,
            CONF_RINGS,
            CONF_WEATHER_ENTITY,
            CONF_NEWS_URL,
            CONF_MEMORY_LINKS,
        ),
    ),
    OptionSection(
        key="advanced",
        fields=(
            "detector_threshold",
            "partial_insight_debounce_ms",
            "partial_insight_interval_ms",
            "ollama_timeout_seconds",
            "ollama_keep_alive_minutes",
            "prompt_token_budget",
        ),
        collapsed=True,
    ),
)
OPTION_BY_KEY: Final = {option.key: option for option in OPTION_FIELDS}


def flatten_options(user_input: dict[str, Any]) -> dict[str, Any]:
    """The form's sectioned input as the flat mapping the entry stores."""
    flat: dict[str, Any] = {}
    for part in OPTION_SECTIONS:
        flat.update(user_input.get(part.key) or {})
    return flat


def sectioned_options(flat: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Flat options (stored, or typed) grouped by the form's sections."""
    return {
        part.key: {key: flat[key] for key in part.fields if key in flat} for part in OPTION_SECTIONS
    }


class HomeBuddyOptionsFlow(OptionsFlowWithReload):
    """Edit the engine's tuning values and the detector mode.

    The entry's update listener (``__init__.py``) reloads it when the options change.
    """

    _models: list[str] | None = None

    def __init__(self) -> None:
        """Start with nothing typed."""
        self._typed: dict[str, Any] = {}
        self._errors: dict[str, str] = {}
        self._placeholders: dict[str, str] = {}

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Show every option by section; save them, or ask for what cannot be saved."""
        if self._models is None:
            # The server's models, once per form, for the embedding model's dropdown.
            try:
                _, self._models = await async_list_models(
                    self.config_entry.data[CONF_URL], EMBEDDING
                )
            except ModelUnavailableError:
                self._models = []
        if user_input is not None:
            return await self._async_save_or_fix(flatten_options(user_input))
        return self.async_show_form(step_id="init", data_schema=self._schema())

    async def async_step_fix(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Only the values that could not be saved, each with its error: a short form, so the
        errors are in view after *Submit*. The other values are kept as typed."""
        if user_input is not None:
            return await self._async_save_or_fix({**self._typed, **user_input})
        keys = [option.key for option in OPTION_FIELDS if option.key in self._errors]
        schema = vol.Schema(
            {
                vol.Optional(key, description={"suggested_value": self._typed.get(key)})
                if self._typed.get(key) not in (None, "")
                else vol.Optional(key): self._selector(OPTION_BY_KEY[key])
                for key in keys
            }
        )
        return self.async_show_form(
            step_id="fix",
            data_schema=schema,
            errors=self._errors,
            description_placeholders=self._placeholders,
        )

    async def _async_save_or_fix(self, typed: dict[str, Any]) -> ConfigFlowResult:
        """Save ``typed`` (flat) when every value is valid; else show the fix step."""
        errors: dict[str, str] = {}
        placeholders: dict[str, str] = {}
        options: dict[str, Any] = {}
        for option in OPTION_FIELDS:
            try:
                options[option.key] = option.validate(typed.get(option.key, option.default))
            except ConfigError as err:
                errors[option.key] = option.error_key
                placeholders.update(option.range_placeholders(self.hass.config.language))
                if isinstance(err, LineError):
                    placeholders.update(err.placeholders)
        if not errors:
            try:
                EngineConfig(detector_mode=options[CONF_DETECTOR_MODE]).with_tuning(options)
            except ConfigError:
                # Every value is in range and the mode comes from its selector, so the one
                # rule left to break is the card length ceiling below its target.
                errors["insight_max_characters"] = "max_below_target"
        if not errors:
            return self.async_create_entry(data=options)
        self._typed, self._errors, self._placeholders = typed, errors, placeholders
        return await self.async_step_fix()

    def _selector(self, option: OptionField) -> Selector[Any]:
        """The field's selector; the embedding model's lists the server's models."""
        if option.key != CONF_EMBEDDING_MODEL:
            return option.selector
        current = self.config_entry.options.get(CONF_EMBEDDING_MODEL) or ""
        return embedding_model_selector(self._models or [], current)

    def _schema(self) -> vol.Schema:
        """Return the sectioned options schema, defaulting to the entry's current values.

        Old entries store the same flat keys, so they are read as they are.
        """
        entry = self.config_entry

        def marker(option: OptionField) -> vol.Marker:
            current = entry.options.get(option.key, entry.data.get(option.key, option.default))
            if option.required:
                return vol.Required(option.key, default=current)
            # An empty optional field must stay empty: a suggested value, not a default, and
            # none at all when nothing is stored (the entity selector refuses "").
            if current in (None, ""):
                return vol.Optional(option.key)
            return vol.Optional(option.key, description={"suggested_value": current})

        return vol.Schema(
            {
                vol.Required(part.key): section(
                    vol.Schema(
                        {
                            marker(OPTION_BY_KEY[key]): self._selector(OPTION_BY_KEY[key])
                            for key in part.fields
                        }
                    ),
                    {"collapsed": part.collapsed},
                )
                for part in OPTION_SECTIONS
            }
        )
