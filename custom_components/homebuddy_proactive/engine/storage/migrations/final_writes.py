"""What the trigger of the ``final_writes`` view does first (v13 to v15 write it).

It refuses a replay (the same session, event id and text: ``RAISE(ABORT)`` with
:data:`~..transcripts.REPLAYED`, so the statement writes nothing while the transaction and the
other callers' writes in it go on), then stores the transcript.
"""

from __future__ import annotations

from typing import Final

from ..transcripts import REPLAYED

STORE_TRANSCRIPT: Final = f"""SELECT RAISE(ABORT, '{REPLAYED}') WHERE EXISTS (SELECT 1
            FROM transcripts WHERE session_id = new.session_id AND event_id = new.event_id
            AND text = new.text);
        INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language,
            timestamp, received_at) VALUES (new.event_id, new.client_id, new.session_id,
            new.text, new.speaker, new.language, new.timestamp, new.received_at);"""
