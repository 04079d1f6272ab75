"""Whose memories a speaker reaches: the one rule every Assist agent follows.

Glasses keep their memories under their own client id; Assist speakers (a Home Assistant user,
a person, a voice satellite) are linked to one in the options, one line each::

    person.lea = glasses-lea
    <user id or device id> = glasses-paul

A speaker is looked up by the user who speaks first (their user id, then the person entities of
that user), then by the device they speak to; the first link found names the client. A speaker
linked to nothing reaches the household's Assist memories (:data:`HOUSEHOLD_CLIENT_ID`). Reads
also see the ``global`` memories (retrieval adds them); writes go to the speaker's client only,
and no speaker ever reaches a client it is not linked to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from ..const import GLOBAL_CLIENT_ID, HOUSEHOLD_CLIENT_ID, MAX_ID_CHARACTERS
from .validation import MemoryError, check_client


class MemoryLinkError(MemoryError):
    """A speaker-links text that does not read; ``line`` is the first bad line (1-based)."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


MAX_LINKS: Final = 100


@dataclass(frozen=True)
class MemoryLinks:
    """The options' links from speakers (user, person or device ids) to glasses clients."""

    by_speaker: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> MemoryLinks:
        """Read "speaker = client id" lines (blank lines and ``#`` comments are skipped).

        Raises :class:`MemoryLinkError` naming the first bad line: no "=", an empty side, an id
        too long, a speaker with spaces, the ``global`` client, or a speaker linked twice.
        """
        links: dict[str, str] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            speaker, equals, client = (part.strip() for part in line.partition("="))
            if not equals or not speaker or not client:
                raise MemoryLinkError(number, "write it as 'speaker = client id'")
            if len(speaker.split()) > 1:
                # HA's ids (person.anna, a user's or a device's id) have no spaces: such a line
                # is a typo that would never match anyone.
                raise MemoryLinkError(number, "a speaker is one id, without spaces")
            if max(len(speaker), len(client)) > MAX_ID_CHARACTERS:
                raise MemoryLinkError(number, f"ids are at most {MAX_ID_CHARACTERS} characters")
            try:
                check_client(client)
            except MemoryError as err:
                raise MemoryLinkError(number, str(err)) from err
            if client == GLOBAL_CLIENT_ID:
                raise MemoryLinkError(number, "the global memories belong to no speaker")
            if speaker in links:
                raise MemoryLinkError(number, f"{speaker} is already linked")
            links[speaker] = client
            if len(links) > MAX_LINKS:
                raise MemoryLinkError(number, f"at most {MAX_LINKS} links")
        return cls(links)

    def client_for(self, speakers: Iterable[str | None]) -> str:
        """The client of the first linked speaker id, most personal first; else the household's.

        ``speakers`` is the speaking user's id, the person entities of that user, then the
        voice device's id (missing ones as None).
        """
        for speaker in speakers:
            if speaker and (client := self.by_speaker.get(speaker)):
                return client
        return HOUSEHOLD_CLIENT_ID
