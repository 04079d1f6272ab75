"""The schema library of this Home Assistant, and the error our actions refuse input with.

Home Assistant 2026.10 validates with probatio (voluptuous' successor, the same API); earlier
versions with voluptuous. Action schemas are written with the library this HA catches, so a
value a schema refuses is answered as HA answers its own: 400 over the REST API, a validation
error over the websocket and in the UI.

What only the database can judge (a memory or an alarm id that does not exist) is refused by
the action itself with :class:`ActionInputError`, which is both HA's
``ServiceValidationError`` (translated) and the library's ``Invalid``: HA's REST view answers
400 for either, depending on its version (2026.2 knows only the schema error), and its
websocket answers it as a format error without logging it. A mistyped id in an automation
then costs one clear answer, never a 500 and a traceback in the log.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from homeassistant.exceptions import ServiceValidationError

vol: ModuleType = importlib.import_module(
    "probatio" if importlib.util.find_spec("probatio") else "voluptuous"
)
_Invalid: Any = vol.Invalid


class ActionInputError(ServiceValidationError, _Invalid):  # type: ignore[misc]
    """Input an action refuses, translated, that HA answers like a schema error.

    Raised by the action (an id the database does not have) or by a schema's own validator
    (a blank content): the schema library reads it as one of its errors (with its path), HA
    as a translated validation error."""

    def __init__(
        self,
        *,
        translation_domain: str,
        translation_key: str,
        translation_placeholders: dict[str, str] | None = None,
    ) -> None:
        """The translated error, also a schema error of this HA's library."""
        ServiceValidationError.__init__(
            self,
            translation_domain=translation_domain,
            translation_key=translation_key,
            translation_placeholders=translation_placeholders,
        )
        _Invalid.__init__(self, translation_key)
