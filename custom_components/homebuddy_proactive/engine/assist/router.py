"""The Assist router: one model call decides what a spoken request is; code does the rest.

The seed's dispatch layer: the model reads the transcribed request and returns a structured
``command`` (``service``, ``weather``, ``news``, ``alarm``, ``memory_save``, ``memory_recall``
or ``chat``) with its parameters, under a JSON schema. Its answer is validated here; anything
invalid becomes a polite spoken fallback in the user's language, never an exception. Around the
router sit the deterministic pieces that need no model: "remember that …" and "what do you know
about …" fast paths, affective signals for caregivers, yes/no answers to confirmation questions,
repeated questions, an action rate limit and pending confirmations.

Nothing here imports Home Assistant: the host passes its clock and does the I/O.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final, Literal, Protocol

from ..llm import ModelOutputError, ModelUnavailableError
from .alarms import fold, parse_alarm_time
from .phrases import spoken_language

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
    ) -> dict[str, Any]:
        """Return one JSON object following ``schema``."""
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


_PROMPTS: Final[Mapping[str, Mapping[str, str]]] = {
    "fr": {
        "intro": (
            "Tu es HomeBuddy, l'assistant vocal bienveillant d'une personne âgée, dans sa "
            "maison. Tu reçois ce qu'elle vient de dire (transcrit, parfois imparfait) et tu "
            "réponds UNIQUEMENT par un objet JSON conforme au schéma, qui choisit une commande :"
        ),
        "language": "Réponds en français, avec des phrases courtes, simples et chaleureuses.",
        "now": "Nous sommes le {now}.",
        "memories": "Ce que tu sais de cette personne :",
        "episode": "Résumé de la conversation récente :",
        "devices": "Appareils que tu peux commander :",
    },
    "en": {
        "intro": (
            "You are HomeBuddy, the kind voice assistant of an older person, at home. You get "
            "what they just said (transcribed, sometimes imperfectly) and answer ONLY with a "
            "JSON object following the schema, choosing one command:"
        ),
        "language": "Answer in English, with short, simple and warm sentences.",
        "now": "It is {now}.",
        "memories": "What you know about this person:",
        "episode": "Summary of the recent conversation:",
        "devices": "Devices you may control:",
    },
    "el": {
        "intro": (
            "Είσαι ο HomeBuddy, ο ευγενικός φωνητικός βοηθός ενός ηλικιωμένου ανθρώπου, στο "
            "σπίτι του. Λαμβάνεις ό,τι μόλις είπε (μεταγραμμένο, μερικές φορές ατελώς) και "
            "απαντάς ΜΟΝΟ με ένα αντικείμενο JSON σύμφωνο με το σχήμα, επιλέγοντας μία εντολή:"
        ),
        "language": "Απάντα στα ελληνικά, με σύντομες, απλές και ζεστές προτάσεις.",
        "now": "Σήμερα είναι {now}.",
        "memories": "Τι ξέρεις για αυτόν τον άνθρωπο:",
        "episode": "Περίληψη της πρόσφατης συζήτησης:",
        "devices": "Συσκευές που μπορείς να χειριστείς:",
    },
}

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
    lang = spoken_language(context.language)
    prompt = _PROMPTS[lang]
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

    async def route(self, text: str, context: RouterContext) -> RouterCommand | RouterFailure:
        """Return the model's validated command, or why there is none."""
        messages = build_router_messages(text, context)
        try:
            data = await self.model.chat_json(
                messages, ROUTER_SCHEMA, max_tokens=self.max_tokens, temperature=0.2
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


# ---------------------------------------------------------------------------------------------
# Deterministic fast paths
# ---------------------------------------------------------------------------------------------

# Fillers an older person says before the request, as speech-to-text writes them.
_FILLERS: Final = (
    r"(?:e+u+h+|h?e+u+|hum+|alors|bon|ben|bah|dis|dites|ecoute|ecoutez|tiens|ok|okay|"
    r"hey|um+|uh+|so|well|oh|ah|homebuddy|λοιπον|ε+|ακου|just|and|also|et|aussi|"
    r"s'il\s+(?:te|vous)\s+plait|please|σε\s+παρακαλω|παρακαλω|"
    # Vocatives: "ma petite, retiens que …", "dear, remember that …"
    r"ma\s+petite|mon\s+petit|ma\s+belle|ma\s+cherie|mon\s+cheri|mon\s+ami|ma\s+grande|"
    r"(?:my\s+)?dear|darling|love|sweetheart|καλε\s+μου|καλη\s+μου)"
)
_SAVE_RE: Final = re.compile(
    rf"^\W*(?:{_FILLERS}\W+)*"
    r"(?:(?:est\s+ce\s+que\s+)?(?:tu\s+peux|tu\s+pourrais|peux\s+tu|pourrais\s+tu|vous\s+pouvez|"
    r"pouvez\s+vous|pourriez\s+vous|vous\s+pourriez|tu\s+veux\s+bien|vous\s+voulez\s+bien|"
    r"veux\s+tu|voulez\s+vous|(?:je\s+(?:veux|voudrais)|j'aimerais)\s+que\s+(?:tu|vous)|"
    r"(?:il\s+)?(?:faut|faudrait)\s+que\s+(?:tu|vous)|"
    r"can\s+you|could\s+you|would\s+you|will\s+you|i\s+want\s+you\s+to|"
    r"i'd\s+like\s+you\s+to|i\s+would\s+like\s+you\s+to|μπορεις\s+να|μπορειτε\s+να|"
    r"θελω\s+να)\s+(?:please\s+|bien\s+)?)?"
    r"(?:souviens\s+toi|souvenez\s+vous|te\s+souvenir|vous\s+souvenir|te\s+souviennes|"
    r"vous\s+souveniez|vous\s+rappeliez|te\s+rappelles|notiez|"
    r"rappelle\s+toi|rappelez\s+vous|te\s+rappeler|retiens|retenez|retenir|retiennes|reteniez|"
    r"n'oublie\s+pas|n'oubliez\s+pas|oublie\s+pas|oubliez\s+pas|ne\s+pas\s+oublier|"
    r"notes?|notez|noter|prends\s+note|prenez\s+note|prendre\s+note|"
    r"gardez?\s+en\s+memoire|garder\s+en\s+memoire|enregistre|memorise|memoriser|saches|"
    r"remember|don't\s+forget|do\s+not\s+forget|never\s+forget|keep\s+in\s+mind|"
    r"bear\s+in\s+mind|note\s+down|make\s+a\s+note|take\s+(?:a\s+)?note|memori[sz]e|"
    r"θυμησου|να\s+θυμασαι|θυμηθεις|μην\s+ξεχασεις|μην\s+ξεχνας|σημειωσε|κρατα|κρατησε|"
    r"θελω\s+να\s+θυμασαι)"
    r"\s*(?:bien\s+|well\s+|please\s+|s'il\s+te\s+plait\s+|σε\s+παρακαλω\s+)?"
    r"(?:for\s+me\s+|pour\s+moi\s+|για\s+μενα\s+)?"
    r"(?:que\s+|qu'|that\s+|οτι\s+|πως\s+|:\s*)(?P<fact>\S.*)$",
    re.DOTALL,
)
_SUBJECT: Final = r"(?:de\s+|d'|du\s+|des\s+)?\s*"
_RECALL_RE: Final = re.compile(
    # "Qu'est-ce que tu sais sur Claire ?", "que sais-tu de mon fils", "ce que tu as retenu sur …"
    r"(?:qu'est\s*ce\s+que|que|qu'?)\s*(?:tu\s+sais|vous\s+savez|sais\s+tu|savez\s+vous|"
    r"tu\s+te\s+souviens|vous\s+vous\s+souvenez|tu\s+te\s+rappelles|tu\s+as\s+retenu|"
    r"vous\s+avez\s+retenu|tu\s+connais|tu\s+te\s+rappelles)\s+"
    r"(?:sur|a\s+propos|au\s+sujet|concernant|des\b|du\b|de\b|d')\s*"
    + _SUBJECT
    + r"(?P<fr>[^?!.;]+)"
    # "Est-ce que tu sais quelque chose sur Julien ?", "qu'est-ce que je t'ai dit sur …"
    r"|(?:tu\s+sais|vous\s+savez|sais\s+tu|savez\s+vous)\s+(?:quelque\s+chose|des\s+choses)\s+"
    r"(?:sur|a\s+propos\s+de|au\s+sujet\s+de|concernant)\s+" + _SUBJECT + r"(?P<fr6>[^?!.;]+)"
    r"|(?:qu'est\s*ce\s+que|que)\s+je\s+(?:t'ai|vous\s+ai)\s+(?:dit|raconte|appris)\s+"
    r"(?:sur|a\s+propos|au\s+sujet|concernant|des\b|du\b|de\b|d')\s*"
    + _SUBJECT
    + r"(?P<fr7>[^?!.;]+)"
    # "Tu te souviens de Paul ?", "tu te souviens quand on est allés à Nice ?"
    r"|(?:tu\s+te\s+souviens|vous\s+vous\s+souvenez|te\s+souviens\s+tu|vous\s+souvenez\s+vous|"
    r"tu\s+te\s+rappelles?|vous\s+vous\s+rappelez|te\s+rappelles\s+tu)\s+"
    r"(?:(?:des\b|du\b|de\b|d')\s*(?P<fr2>[^?!.;]+)"
    r"|(?:que|qu')\s*(?P<fr3>[^?!.;]+)"
    r"|(?P<fr4>(?:quand|comment|ou|pourquoi|la\s+fois|le\s+jour)\b[^?!.;]+))"
    # "Parle-moi de Claire"
    r"|\bparlez?\s+moi\s+(?:des\b|du\b|de\b|d')\s*(?P<fr5>[^?!.;]+)"
    # English
    r"|\bwhat\s+(?:do|did)\s+you\s+(?:know|remember|recall)\s+(?:about|of)\s+(?P<en>[^?!.;]+)"
    r"|\bwhat\s+(?:did|have)\s+i\s+(?:tell|told)\s+you\s+about\s+(?P<en2>[^?!.;]+)"
    r"|\bwhat\s+you\s+(?:know|remember)\s+about\s+(?P<en3>[^?!.;]+)"
    r"|\bdo\s+you\s+(?:know|remember)\s+anything\s+about\s+(?P<en4>[^?!.;]+)"
    r"|\b(?:do|can)\s+you\s+(?:remember|recall)\s+(?:that\s+)?(?P<en5>[^?!.;]+)"
    r"|\btell\s+me\s+about\s+(?P<en6>[^?!.;]+)"
    # Greek
    r"|τι\s+(?:ξερεις|θυμασαι|ξερετε|θυμαστε)\s+(?:για|σχετικα\s+με)\s+(?P<el>[^?!.;]+)"
    r"|(?:θυμασαι|θυμαστε)\s+τι\s+σου\s+(?:ειπα|εχω\s+πει)\s+(?:για|σχετικα\s+με)\s+"
    r"(?P<el2>[^?!.;]+)"
    r"|(?:θυμασαι|θυμαστε)\s+(?:οτι\s+|πως\s+)?(?!τι\b)(?P<el3>[^?!.;]+)"
    r"|(?:πες|πειτε|μιλησε|μιλη?στε)\s+μου\s+για\s+(?P<el4>[^?!.;]+)"
    r"|(?:ξερεις|ξερετε|θυμασαι|θυμαστε)\s+(?:τιποτα|κατι)\s+(?:για|σχετικα\s+με)\s+(?P<el5>[^?!.;]+)"
)
_RECALL_GROUPS: Final = (
    "fr",
    "fr2",
    "fr3",
    "fr4",
    "fr5",
    "fr6",
    "fr7",
    "en",
    "en2",
    "en3",
    "en4",
    "en5",
    "en6",
    "el",
    "el2",
    "el3",
    "el4",
    "el5",
)
# Subjects that are no memory: "parle-moi de la météo", "tell me about yourself".
_NOT_SUBJECT_RE: Final = re.compile(
    r"(?:(?:le|la|l'|les|the|un|une|a|an|το|τον|την|τα|τους|ο|η|των|τις)\s*)?"
    r"(?:meteo|temps|actualites?|actus?|nouvelles|infos?|informations|journal|toi|vous|ta|ton|"
    r"tes|votre|vos|autre|quelque|n'importe|rien|ca|cela|histoire|blague|faire|"
    r"weather|news|yourself|you|your|something|anything|it|that|this|joke|story|"
    r"καιρο|καιρος|ειδησεις|εσενα|εαυτο|κατι|αυτο)\b"
)
_SUBJECT_TAIL_RE: Final = re.compile(
    r"\s*(?:s'il\s+(?:te|vous)\s+plait|please|σε\s+παρακαλω|παρακαλω)\s*$"
)


def _original_span(original: str, folded: str, start: int, end: int) -> str:
    """Return the original spelling of a span found in the folded text (same lengths)."""
    if len(original) == len(folded):
        return original[start:end]
    return folded[start:end]


def _flat(text: str) -> str:
    """Fold ``text`` and turn hyphens into spaces (same length)."""
    return fold(text).replace("-", " ")


def match_memory_save(text: str) -> str | None:
    """Return the fact of "souviens-toi que …" / "remember that …", or None."""
    folded = _flat(text)
    match = _SAVE_RE.match(folded)
    if not match:
        return None
    fact = _original_span(text, folded, match.start("fact"), match.end("fact")).strip()
    fact = fact.rstrip(" .!")
    return fact[:MAX_FACT] or None


def match_memory_recall(text: str) -> str | None:
    """Return the subject of "qu'est-ce que tu sais sur Claire ?", or None."""
    folded = _flat(text)
    match = _RECALL_RE.search(folded)
    if not match:
        return None
    group = next(g for g in _RECALL_GROUPS if match.group(g))
    start, end = match.start(group), match.end(group)
    if _NOT_SUBJECT_RE.match(folded, start):
        return None
    if tail := _SUBJECT_TAIL_RE.search(folded, start, end):
        end = tail.start()
    subject = _original_span(text, folded, start, end)
    subject = subject.strip().rstrip(" ?;!.,")
    return subject[:MAX_NAME] or None


AFFECT_LONELINESS: Final = "loneliness"
AFFECT_PAIN: Final = "pain"
AFFECT_FEAR: Final = "fear"
AFFECT_SADNESS: Final = "sadness"
AFFECT_FALL: Final = "fall"
AFFECT_KINDS: Final = (AFFECT_LONELINESS, AFFECT_PAIN, AFFECT_FEAR, AFFECT_SADNESS, AFFECT_FALL)
REPEATED_QUESTION: Final = "repeated_question"


@dataclass(frozen=True, slots=True)
class AffectSignal:
    """A feeling said out loud that a caregiver may want to know about."""

    kind: str
    sentiment: float  # -1 (distress) … 1
    emotions: tuple[str, ...]
    language: str


_AFFECT_RULES: Final[tuple[tuple[str, float, tuple[str, ...], re.Pattern[str]], ...]] = (
    (
        AFFECT_FALL,
        -0.9,
        ("fear", "pain"),
        re.compile(
            r"\b(?:je suis tombee?(?! sur (?:une?|des|quelqu'un|quelque)\b| (?:amoureuse?|malade|"
            r"d'accord|en panne|des nues)\b)|je me suis cassee? la figure|je ne peux (?:pas|plus) "
            r"me relever|j'ai fait une (?:mauvaise )?chute|"
            r"i(?:'ve| have)? fell(?! (?:asleep|in love|for|behind|ill|silent)\b)|"
            r"i(?:'ve| have) fallen(?! (?:asleep|in love|for|behind|ill|silent)\b)|"
            r"i (?:slipped|tripped)(?: (?:and|over))?|and fell (?:down|over|in|on)|"
            r"i can'?t get up|i had a (?:bad )?fall|"
            r"(?<!δεν )επεσα|δεν μπορω να σηκωθω)\b"
        ),
    ),
    (
        AFFECT_PAIN,
        -0.7,
        ("pain",),
        re.compile(
            r"(?:\bj'ai (?:tres |si |tellement |vraiment )?mal "
            r"(?:au|a la|a l'|aux|a|partout|dans)\b|"
            r"\bj'ai (?:tres |si |tellement )?mal\s*(?:$|[.!,])|\bje souffre\b|"
            r"\b(?:me|m') (?:fait|font) (?:tres |si |tellement |vraiment )?(?:mal|souffrir)\b|"
            r"\bj'ai (?:une |des )?(?:douleurs?|migraines?)\b|"
            r"\bi(?:'m| am) in pain\b|\bit hurts\b|\bi hurt\b|\bmy \w+ hurts?\b|"
            r"\bi(?: have|'ve got| got)? (?:a |bad |terrible |an awful )?"
            r"(?:pain|headache|backache|stomach ?ache|toothache|migraine)\b|"
            r"\bmy \w+ (?:is|are) killing me\b|\bi(?:'m| am) hurting\b|"
            r"(?<!δεν )\bποναω\b|(?<!δεν )(?<!δεν με )\b(?:με )?πονα(?:ει|νε)\b|"
            r"\bεχω (?:πονο|πονους|πονοκεφαλο)\b)"
        ),
    ),
    (
        AFFECT_LONELINESS,
        -0.6,
        ("loneliness", "sadness"),
        re.compile(
            r"\b(?:je me sens (?:un peu |bien |si |tres |tellement |vraiment |assez )?"
            r"(?:seule?|isolee?|abandonnee?)|"
            r"je suis (?:tout |toute |bien |si |tres |tellement )?seule?"
            r"(?! a \w+(?:er|ir|re|oir)\b)(?! a savoir)|"
            r"personne ne (?:vient|m'appelle|me rend visite)|"
            r"i(?:'m| am|'ve been| have been)? (?:feel(?:ing)? |am |'m )?"
            r"(?:a bit |a little |so |very |really |all |quite |terribly )?"
            r"(?:lonely|alone|isolated)|nobody (?:ever )?(?:visits|calls|comes)|"
            r"(?<!δεν )νιωθω (?:πολυ |τοσο )?(?:μοναξια|μονος|μονη|μοναχος|μοναχη)|"
            r"(?<!δεν )ειμαι (?:πολυ |τοσο )?(?:μονος|μονη|ολομοναχος|ολομοναχη)|"
            r"κανεις δεν (?:ερχεται|με παιρνει))\b"
        ),
    ),
    (
        AFFECT_FEAR,
        -0.7,
        ("fear",),
        re.compile(
            r"\b(?:j'ai (?:tres |si |un peu )?peur|je suis (?:tres |si )?(?:inquiete?|angoissee?|"
            r"effrayee?|terrifiee?)|ca m'angoisse|"
            r"i(?:'m| am) (?:so |very |a bit )?(?:scared|frightened|terrified|worried)|"
            r"i(?:'m| am) (?:so |very |a bit )?afraid"
            r"(?! (?:i|not|so|we|you|it|he|she|they|there|this|that's)\b)|"
            r"(?<!δεν )φοβαμαι|(?<!δεν )ανησυχω)\b"
        ),
    ),
    (
        AFFECT_SADNESS,
        -0.5,
        ("sadness",),
        re.compile(
            r"\b(?:je suis (?:tres |si |un peu )?(?:triste|deprimee?)|"
            r"je me sens (?:tres |si |un peu )?(?:triste|deprimee?)|je deprime|"
            r"j'ai (?:un peu |vraiment |encore |souvent )?le cafard|"
            r"j'ai le moral (?:a zero|dans les chaussettes)|"
            r"(?:je n'ai|j'ai|j'ai plus|je n'ai plus) "
            r"(?:pas |plus )?le moral|"
            r"i(?: feel| am|'m|'ve been| have been)(?: feeling)? (?:so |very |a bit |really )?"
            r"(?:sad|down|depressed|miserable|blue|low)|"
            r"(?<!δεν )ειμαι (?:πολυ )?(?:λυπημενος|λυπημενη|στενοχωρημενος|στενοχωρημενη)|"
            r"νιωθω (?:λυπη|θλιψη)|(?<!δεν )στενοχωριεμαι)\b"
        ),
    ),
)


def detect_affect(text: str, language: str) -> AffectSignal | None:
    """Return the strongest feeling said in ``text`` (a fall first, then pain …), or None."""
    folded = fold(text)
    for kind, sentiment, emotions, pattern in _AFFECT_RULES:
        if pattern.search(folded):
            return AffectSignal(kind, sentiment, emotions, spoken_language(language))
    return None


_YES: Final = frozenset(
    {
        "oui",
        "ouais",
        "ouai",
        "ouiii",
        "volontiers",
        "d'accord",
        "daccord",
        "dac",
        "confirme",
        "confirmer",
        "exactement",
        "absolument",
        "certainement",
        "evidemment",
        "parfait",
        "carrement",
        "yes",
        "yeah",
        "yep",
        "yup",
        "sure",
        "ok",
        "okay",
        "confirm",
        "definitely",
        "absolutely",
        "certainly",
        "right",
        "ναι",
        "ενταξει",
        "σιγουρα",
        "βεβαιως",
        "βεβαια",
        "φυσικα",
        "αμε",
        "μαλιστα",
        "οκ",
    }
)
_YES_PHRASES: Final = (
    "bien sur",
    "bien entendu",
    "c'est bon",
    "that's right",
    "that's it",
    "all right",
    "alright",
    "vas y",
    "allez y",
    "allez",
    "tout a fait",
    "c'est ca",
    "c'est bon vas y",
    "fais le",
    "faites le",
    "do it",
    "go ahead",
    "go on",
    "of course",
    "please do",
    "κανε το",
    "προχωρα",
)
_NO: Final = frozenset(
    {
        "non",
        "nan",
        "ne",
        "pas",
        "annule",
        "annuler",
        "surtout",
        "jamais",
        "arrete",
        "no",
        "nope",
        "nah",
        "not",
        "cancel",
        "stop",
        "don't",
        "dont",
        "never",
        "οχι",
        "ακυρο",
        "ακυρωσε",
        "μην",
        "μη",
        "αστο",
        "ασ'το",
        "ας'το",
        "αφησε",
        "ποτε",
    }
)
# They start with a "no" word but mean yes.
_YES_DESPITE_NO: Final = (
    "pas de probleme",
    "pas de souci",
    "pourquoi pas",
    "no problem",
    "why not",
)
_NO_PHRASES: Final = (
    "laisse tomber",
    "laissez tomber",
    "forget it",
    "never mind",
    "nevermind",
    # A yes word, then the negation: "certainly not", "absolument pas".
    "certainly not",
    "absolutely not",
    "definitely not",
    "of course not",
    "surely not",
    "better not",
    "rather not",
    "i'd rather not",
    "absolument pas",
    "certainement pas",
    "evidemment pas",
    "surement pas",
    "bien sur que non",
    "pas la peine",
    "c'est pas la peine",
    "ce n'est pas la peine",
)
# Hesitations that start with a "no" word: "pas sûr", "not sure", "don't know".
_UNSURE_PHRASES: Final = (
    "pas sur",
    "pas sure",
    "pas certain",
    "pas certaine",
    "je sais pas",
    "je ne sais pas",
    "not sure",
    "not certain",
    "don't know",
    "dont know",
    "i don't know",
    "δεν ξερω",
    "δεν ειμαι σιγουρ",
)
_CONFIRM_FILLERS: Final = frozenset(
    {"euh", "heu", "euhh", "hum", "hmm", "ben", "bah", "mais", "ah", "oh", "eh", "alors", "bon"}
    | {"uh", "um", "umm", "well", "so", "λοιπον", "ε", "εε", "α", "ω"}
)


def confirmation_answer(text: str) -> bool | None:
    """Return True for "oui"/"yes"/"ναι", False for "non"/"no"/"όχι", None otherwise."""
    words = re.findall(r"[\w']+", _flat(text))
    while words and words[0] in _CONFIRM_FILLERS:
        words = words[1:]
    if not words or len(words) > 6:
        return None
    said = " ".join(words)
    if any(said == p or said.startswith(p + " ") for p in _YES_DESPITE_NO):
        return True
    if any(said.startswith(p) for p in _UNSURE_PHRASES):
        return None
    if words[0] in _NO or any(said.startswith(p) for p in _NO_PHRASES):
        return False
    if words[0] in _YES or any(said == p or said.startswith(p + " ") for p in _YES_PHRASES):
        return True
    return None


def question_key(text: str) -> str:
    """Return the form of a question used to notice it being asked again."""
    return " ".join(re.findall(r"\w+", fold(text)))


# ---------------------------------------------------------------------------------------------
# Small stateful helpers (clock injected)
# ---------------------------------------------------------------------------------------------

Clock = Callable[[], datetime]


class ActionRateLimiter:
    """At most ``limit`` actions in any sliding minute."""

    def __init__(self, limit: int, clock: Clock, window: timedelta = timedelta(minutes=1)) -> None:
        """Set the limit and the clock."""
        self.limit = limit
        self.window = window
        self._clock = clock
        self._times: deque[datetime] = deque()

    def try_acquire(self) -> bool:
        """Count one action; False (and nothing counted) when the limit is reached."""
        now = self._clock()
        while self._times and now - self._times[0] >= self.window:
            self._times.popleft()
        if len(self._times) >= self.limit:
            return False
        self._times.append(now)
        return True


@dataclass
class _Pending[T]:
    item: T
    expires_at: datetime


class PendingAnswers[T]:
    """Questions waiting for the user's next turn, per conversation, that expire."""

    def __init__(self, timeout: timedelta, clock: Clock) -> None:
        """Set how long a question waits."""
        self.timeout = timeout
        self._clock = clock
        self._items: dict[str, _Pending[T]] = {}

    def put(self, conversation_id: str, item: T) -> None:
        """Remember what the conversation waits for (replacing any earlier question)."""
        self._prune()
        self._items[conversation_id] = _Pending(item, self._clock() + self.timeout)

    def pop(self, conversation_id: str) -> T | None:
        """Return and forget what the conversation waits for; None when nothing or expired."""
        self._prune()
        pending = self._items.pop(conversation_id, None)
        return pending.item if pending else None

    def __len__(self) -> int:
        """Number of questions still waiting."""
        self._prune()
        return len(self._items)

    def _prune(self) -> None:
        now = self._clock()
        for key in [k for k, p in self._items.items() if p.expires_at <= now]:
            del self._items[key]


@dataclass
class RepeatedAnswer:
    """A previous answer to the same question, and how often it was asked."""

    answer: str
    count: int
    first_asked: datetime
    last_asked: datetime


class RepeatTracker:
    """Notice the same question asked again within ``window`` and keep its first answer."""

    def __init__(self, window: timedelta, clock: Clock, *, max_entries: int = 200) -> None:
        """Set the window."""
        self.window = window
        self._clock = clock
        self._max = max_entries
        self._answers: dict[str, RepeatedAnswer] = {}

    def repeat(self, key: str) -> RepeatedAnswer | None:
        """Return the earlier answer (counting this asking), or None when it is new."""
        now = self._clock()
        entry = self._answers.get(key)
        if entry is None or not key:
            return None
        if now - entry.last_asked > self.window:
            del self._answers[key]
            return None
        entry.count += 1
        entry.last_asked = now
        return entry

    def record(self, key: str, answer: str) -> None:
        """Remember the answer given to a question asked for the first time."""
        if not key:
            return
        now = self._clock()
        if len(self._answers) >= self._max:
            oldest = min(self._answers, key=lambda k: self._answers[k].last_asked)
            del self._answers[oldest]
        self._answers[key] = RepeatedAnswer(answer, 1, now, now)


@dataclass
class SignalCounter:
    """How many signals of each kind were seen within ``window``."""

    window: timedelta
    clock: Clock
    _seen: dict[str, deque[datetime]] = field(default_factory=dict)

    def add(self, kind: str) -> int:
        """Count one signal and return how many of its kind are within the window."""
        now = self.clock()
        seen = self._seen.setdefault(kind, deque())
        while seen and now - seen[0] > self.window:
            seen.popleft()
        seen.append(now)
        return len(seen)
