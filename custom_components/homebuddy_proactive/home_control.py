"""What Assist does to the home: Home Assistant's own sentences first, under our safety rules.

A request is first matched by Home Assistant's built-in intent recognition (the default agent's
local sentences, in every language HA has them: the time and the date, devices, the weather,
lists, timers …), before any rule of ours and before the model. Everything HA's intents would
do to the home passes the rules our own device commands pass (:meth:`HomeControl._hold` decides
before HA acts):

- only exposed entities (HA's strict matching matches nothing else) in the allowed domains;
- a spoken "yes" before a lock, an alarm panel, a cover, a valve or a door moves;
- at most so many actions a minute;
- every action, done or refused, written in the logbook (what was understood, not the words).

Questions that change nothing (the time, a state, the weather) are answered by HA at once.
When the model cannot answer, HA's own answer is given where its sentences recognise the
request, so "allume la lumière du salon" in a home without that room still hears HA say so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import async_get_agent
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.components.intent import async_device_supports_timers
from homeassistant.components.logbook import async_log_entry
from homeassistant.core import HomeAssistant, State
from homeassistant.helpers import intent

from .const import CONFIRM_DEVICE_CLASSES, CONFIRM_DOMAINS, DOMAIN
from .engine.assist import (
    COMMAND_SERVICE,
    SERVICE_INTENTS,
    ActionRateLimiter,
    PendingAnswers,
    RouterCommand,
    action_verb,
    join_names,
    say,
)

if TYPE_CHECKING:
    from hassil.recognize import RecognizeResult

    from .assist_agent import AssistTurn, PendingQuestion

AUDIT_NAME: Final = "HomeBuddy Assist"
# Home Assistant intents that change nothing in the home: answered by HA without our rules.
ASKING_INTENTS: Final = frozenset(
    {
        intent.INTENT_GET_STATE,
        intent.INTENT_GET_CURRENT_DATE,
        intent.INTENT_GET_CURRENT_TIME,
        intent.INTENT_NEVERMIND,
        intent.INTENT_RESPOND,
        intent.INTENT_GET_TEMPERATURE,
        "HassGetWeather",
        "HassShoppingListLastItems",
    }
)
# HA's timers run on a voice device that has them; elsewhere our alarms and reminders answer.
TIMER_INTENTS: Final = frozenset(
    {
        intent.INTENT_START_TIMER,
        intent.INTENT_CANCEL_TIMER,
        intent.INTENT_CANCEL_ALL_TIMERS,
        intent.INTENT_INCREASE_TIMER,
        intent.INTENT_DECREASE_TIMER,
        intent.INTENT_PAUSE_TIMER,
        intent.INTENT_UNPAUSE_TIMER,
        intent.INTENT_TIMER_STATUS,
    }
)
_ERROR: Final = intent.IntentResponseType.ERROR
# The slots of HA's sentences that say which entities an intent acts on.
_TARGET_SLOTS: Final = ("name", "area", "floor", "domain", "device_class")


@dataclass(frozen=True, kw_only=True)
class PlannedAction:
    """A device action asked for, with the exposed entities it resolved to.

    ``slots`` are Home Assistant's own when its sentences recognised the request; None for a
    command of the router (its slots are built from the command).
    """

    command: RouterCommand
    entity_ids: tuple[str, ...]
    names: tuple[str, ...]
    domains: tuple[str, ...]
    slots: dict[str, Any] | None = None


@dataclass(frozen=True)
class ConfirmAction:
    """Waiting for "oui" before a sensitive action."""

    action: PlannedAction


@dataclass(frozen=True, kw_only=True)
class HeldIntent:
    """An intent HA recognised that our rules stopped before HA acted, and why."""

    reason: str  # "not_found", "not_allowed", "confirm" or "rate_limited"
    action: PlannedAction
    # What was not found (the room or name said), or the entities outside the allowed domains.
    refused: tuple[str, ...] = ()


class HomeControl:
    """The agent's device turns (a part of :class:`HomeBuddyAssistant`)."""

    hass: HomeAssistant
    allowed_domains: frozenset[str]
    rate_limiter: ActionRateLimiter
    pending: PendingAnswers[PendingQuestion]

    # -- Home Assistant's own sentences ------------------------------------------------------

    async def _home_intent(self, turn: AssistTurn) -> str | None:
        """HA's answer when its strict sentences match the request (in the language it was
        spoken in, then the pipeline's), our answer when our rules hold HA's action back,
        None when HA's sentences do not match."""
        if turn.user_input is None or turn.chat_log is None:
            return None
        held: list[HeldIntent] = []

        def hold(result: RecognizeResult) -> bool:
            return self._hold(result, turn, held)

        for language in dict.fromkeys((turn.language, turn.user_input.language)):
            user_input = dataclasses.replace(turn.user_input, language=language)
            try:
                response = await conversation.async_handle_intents(
                    self.hass, user_input, turn.chat_log, intent_filter=hold
                )
            except intent.IntentError:  # a sentence of an integration not set up here
                continue
            if held:
                return await self._held(held[0], turn)
            # An intent HA cannot carry out here (a timer on a device without timers) is left
            # to our own rules: "réveille-moi dans 10 minutes" is then an alarm.
            if response is not None and response.response_type is not _ERROR:
                return self._answered(response, turn)
        return None

    async def _home_answer_loosely(self, turn: AssistTurn) -> str | None:
        """HA's own answer when its sentences, matched loosely, recognise a request to a kind of
        device in a room HA does not have: "allume la lumière du salon" → "je ne connais pas
        la pièce salon", at once and whether the model runs or not. Only HA's
        "not found" answers are taken (HA did nothing); None otherwise: loose matching reads
        almost any sentence as a device name, so nothing else is taken from it (the model
        reads the rest)."""
        agent = async_get_agent(self.hass, conversation.HOME_ASSISTANT_AGENT)
        recognize = getattr(agent, "async_recognize_intent", None)
        if turn.user_input is None or recognize is None:
            return None
        # HA caches recognition by the exact text, and a text its strict matching already
        # missed skips the loose stages: the same words with a trailing space are looked at
        # afresh (and then found in the cache by the answer below).
        text = turn.text.rstrip() + " "
        for language in dict.fromkeys((turn.language, turn.user_input.language)):
            user_input = dataclasses.replace(turn.user_input, text=text, language=language)
            result = await recognize(user_input)
            if result is None or not _names_a_device(result):
                continue
            # The same words in the same language are recognised the same way (HA caches it):
            # HA says what it did not find, and does nothing.
            reply = await conversation.async_converse(
                self.hass,
                text,
                None,
                turn.context,
                language=language,
                agent_id=conversation.HOME_ASSISTANT_AGENT,
                device_id=turn.device_id,
                satellite_id=turn.satellite_id,
            )
            response = reply.response
            if response.error_code is intent.IntentResponseErrorCode.NO_VALID_TARGETS:
                return self._answered(response, turn)
        return None

    def _hold(self, result: RecognizeResult, turn: AssistTurn, held: list[HeldIntent]) -> bool:
        """Whether our rules stop what HA recognised before HA acts (the reason in ``held``).

        Questions pass. An action is checked on every exposed entity its slots could reach
        (a superset of what HA will pick), then counted against the rate limit."""
        name = result.intent.name
        if name in TIMER_INTENTS and not (
            turn.device_id and async_device_supports_timers(self.hass, turn.device_id)
        ):
            return True  # no timer here: "réveille-moi dans 10 minutes" is one of our alarms
        if name == intent.INTENT_RESPOND and any(e.is_wildcard for e in result.entities_list):
            return True  # "πες {response}" would only say the rest back: not an answer
        if name in ASKING_INTENTS:
            return False
        slots = {
            e.name: {"value": e.value, "text": e.text or e.value} for e in result.entities_list
        }
        states = self._targets(slots)
        command = RouterCommand(
            command=COMMAND_SERVICE,
            intent=name,
            name=str(slots.get("name", {}).get("value") or ""),
            area=str(slots.get("area", {}).get("text") or slots.get("area", {}).get("value") or ""),
        )
        verdict = self._check(command, states, slots)
        if verdict is None and not self.rate_limiter.try_acquire():
            verdict = HeldIntent(reason="rate_limited", action=_planned(command, states, slots))
        if verdict is None:
            return False  # HA acts; :meth:`_answered` writes what it did in the logbook
        held.append(verdict)
        return True

    def _check(
        self, command: RouterCommand, states: list[State], slots: dict[str, Any] | None = None
    ) -> HeldIntent | None:
        """Our rules on the exposed entities a device request reaches, whoever understood it
        (HA's sentences or the router): None when it may go ahead."""
        action = _planned(command, states, slots)
        said = command.name or command.area
        if said and not states:
            # The room or name was heard, but nothing exposed there does this.
            return HeldIntent(reason="not_found", action=action, refused=(str(said),))
        if refused := tuple(s.name for s in states if s.domain not in self.allowed_domains):
            return HeldIntent(reason="not_allowed", action=action, refused=refused)
        if any(_needs_confirmation(state) for state in states):
            return HeldIntent(reason="confirm", action=action)
        return None

    def _targets(self, slots: dict[str, Any]) -> list[State]:
        """The exposed entities an intent's slots could reach (none for a target-less one)."""
        if not any(key in slots for key in _TARGET_SLOTS):
            return []
        name = slots.get("name", {}).get("value")
        domains = slots.get("domain", {}).get("value")
        classes = slots.get("device_class", {}).get("value")
        match = intent.async_match_targets(
            self.hass,
            intent.MatchTargetsConstraints(
                name=None if name == "all" else name,
                area_name=slots.get("area", {}).get("value"),
                floor_name=slots.get("floor", {}).get("value"),
                domains=_as_set(domains),
                device_classes=_as_set(classes),
                assistant=conversation.DOMAIN,
                allow_duplicate_names=True,
            ),
        )
        return list(match.states) if match.is_match else []

    async def _held(self, held: HeldIntent, turn: AssistTurn) -> str:
        """What is said when our rules stopped HA's action."""
        lang = turn.language
        action = held.action
        if held.reason == "not_found":
            self._audit(action.command, "refused: no exposed entity matches", None, turn)
            return say("service_not_found", lang, name=held.refused[0])
        if held.reason == "not_allowed":
            self._audit(action.command, "refused: domain not allowed", None, turn)
            return say("service_not_allowed", lang, names=join_names(list(held.refused), lang))
        if held.reason == "rate_limited":
            self._audit(action.command, "refused: too many actions this minute", action, turn)
            return say("service_rate_limited", lang)
        return self._ask_confirmation(action, turn)

    def _answered(self, response: intent.IntentResponse, turn: AssistTurn) -> str:
        """HA's spoken answer; an action it did is written in the logbook."""
        speech = str(response.speech.get("plain", {}).get("speech", ""))
        done = [
            target
            for target in response.success_results
            if target.type is intent.IntentResponseTargetType.ENTITY
        ]
        if done:
            understood = response.intent.intent_type if response.intent is not None else ""
            command = RouterCommand(command=COMMAND_SERVICE, intent=understood)
            ids = ", ".join(str(t.id) for t in done)
            self._audit(command, f"done by Home Assistant: {ids}", None, turn)
            return speech or say("service_done", turn.language, names=_names(done, turn))
        return speech or say("fallback_invalid", turn.language)

    # -- the router's device commands --------------------------------------------------------

    def _exposed_device_names(self) -> list[str]:
        """Names of the entities the agent could control (exposed and in allowed domains)."""
        names: list[str] = []
        for state in self.hass.states.async_all(self.allowed_domains):
            if async_should_expose(self.hass, conversation.DOMAIN, state.entity_id):
                names.append(state.name)
        return sorted(names)

    async def _service(self, command: RouterCommand, turn: AssistTurn) -> str:
        spec = SERVICE_INTENTS[command.intent]
        match = intent.async_match_targets(
            self.hass,
            intent.MatchTargetsConstraints(
                name=command.name or None,
                area_name=command.area or None,
                domains=spec.domains,
                assistant=conversation.DOMAIN,
            ),
        )
        states = list(match.states) if match.is_match else []
        if (verdict := self._check(command, states)) is not None:
            return await self._held(verdict, turn)
        return await self._execute(_planned(command, states, None), turn)

    def _ask_confirmation(self, action: PlannedAction, turn: AssistTurn) -> str:
        """Ask "do you really want …?" and wait for the answer in this conversation."""
        lang = turn.language
        self.pending.put(turn.conversation_id, ConfirmAction(action))
        self._audit(action.command, "waiting for confirmation", action, turn)
        spec = SERVICE_INTENTS.get(action.command.intent)
        turning_on = spec.turning_on if spec is not None else None
        domain = next(
            (d for d in action.domains if d in CONFIRM_DOMAINS),
            action.domains[0] if action.domains else "",
        )
        verb = action_verb(domain, turning_on, lang)
        return say(
            "confirm_question", lang, action=verb, names=join_names(list(action.names), lang)
        )

    async def _execute(self, action: PlannedAction, turn: AssistTurn) -> str:
        """Run the action through Home Assistant's intent handlers, under the assistant."""
        lang = turn.language
        command = action.command
        names = join_names(list(action.names), lang)
        if not self.rate_limiter.try_acquire():
            self._audit(command, "refused: too many actions this minute", action, turn)
            return say("service_rate_limited", lang)
        slots = action.slots if action.slots is not None else _router_slots(action)
        try:
            response = await intent.async_handle(
                self.hass,
                DOMAIN,
                command.intent,
                slots,
                context=turn.context,
                language=lang,
                assistant=conversation.DOMAIN,
                device_id=turn.device_id,
                satellite_id=turn.satellite_id,
                conversation_agent_id=turn.agent_id,
            )
        except intent.IntentError as err:
            self._audit(command, f"failed: {type(err).__name__}", action, turn)
            return say("service_failed", lang, names=names)
        done = [
            target
            for target in response.success_results
            if target.type is intent.IntentResponseTargetType.ENTITY
        ]
        if response.response_type is intent.IntentResponseType.ERROR or not done:
            self._audit(command, "failed", action, turn)
            return say("service_failed", lang, names=names)
        self._audit(command, "done: " + ", ".join(str(t.id) for t in done), action, turn)
        return say("service_done", lang, names=join_names([t.name for t in done], lang))

    def _audit(
        self,
        command: RouterCommand,
        result: str,
        action: PlannedAction | None,
        turn: AssistTurn,
    ) -> None:
        """Write the request (as it was understood, not the words) and its result."""
        async_log_entry(
            self.hass,
            AUDIT_NAME,
            f"request {command.describe()} → {result}",
            domain=DOMAIN,
            entity_id=action.entity_ids[0] if action and len(action.entity_ids) == 1 else None,
            context=turn.context,
        )


def _planned(
    command: RouterCommand, states: list[State], slots: dict[str, Any] | None
) -> PlannedAction:
    """The action a request plans on the entities it reaches."""
    return PlannedAction(
        command=command,
        entity_ids=tuple(state.entity_id for state in states),
        names=tuple(state.name for state in states),
        domains=tuple(sorted({state.domain for state in states})),
        slots=slots,
    )


def _router_slots(action: PlannedAction) -> dict[str, Any]:
    """The intent slots of a router command, limited to the domains it resolved to."""
    command = action.command
    spec = SERVICE_INTENTS[command.intent]
    slots: dict[str, Any] = {"domain": {"value": list(action.domains)}}
    if command.name:
        slots["name"] = {"value": command.name}
    if command.area:
        slots["area"] = {"value": command.area}
    if spec.slot is not None and command.value is not None:
        value: float | int = command.value
        if spec.slot != "temperature":
            value = round(command.value)
        slots[spec.slot] = {"value": value}
    return slots


def _names_a_device(result: RecognizeResult) -> bool:
    """Whether loosely matched words ask something of a kind of device in a room HA does not
    have ("la lumière du salon" in a home without a salon): an action on a device kind its
    sentence names, with only the room not found, rather than whatever words filled a
    sentence's every slot. A name HA does not know is left to the model, which may know
    that "la lampe" is the living-room lamp."""
    unmatched = set(result.unmatched_entities)
    return (
        result.intent.name not in ASKING_INTENTS
        and bool({"domain", "device_class"} & set(result.entities))
        and len(unmatched) == 1
        and unmatched <= {"area", "floor"}
    )


def _names(targets: list[intent.IntentResponseTarget], turn: AssistTurn) -> str:
    return join_names([t.name for t in targets], turn.language)


def _as_set(value: Any) -> set[str] | None:
    """A slot's value (one or several) as a set, None when the slot is absent."""
    if value is None:
        return None
    return {str(v) for v in value} if isinstance(value, list | tuple | set) else {str(value)}


def _needs_confirmation(state: State) -> bool:
    """Locks, alarm panels, covers, valves and anything that is a door need a spoken yes."""
    return (
        state.domain in CONFIRM_DOMAINS
        or state.attributes.get("device_class") in CONFIRM_DEVICE_CLASSES
    )
