"""GET /v1/sessions/{id}/summary: authenticated, 404 until an episode of the session closed."""

from __future__ import annotations

from tests.standalone.test_memories import API_KEY, Client, client, headers

__all__ = ["client"]


async def test_session_summary_route(client: Client) -> None:
    """401 without a token, 404 before, the summary with its moments after the session ends."""
    assert (await client.get("/v1/sessions/trip/summary")).status == 401
    auth = await headers(client)
    missing = await client.get("/v1/sessions/trip/summary", headers=auth)
    assert missing.status == 404
    assert (await missing.json())["error"] == "not_found"
    engine = client.app[API_KEY].runtime.engine
    for text in ("We fly to Australia in May.", "The flights are booked.", "We land in Sydney."):
        await engine.memory.observe_turn("c1", "trip", text, speaker="owner", language="en")
    await engine.memory.close_episode("c1", "trip")
    response = await client.get("/v1/sessions/trip/summary", headers=auth)
    assert response.status == 200
    body = await response.json()
    assert body["session_id"] == "trip"
    assert body["source"] == "extractive"  # heuristic mode: no model call
    assert body["moments"] and body["missed_insights"] == []
    assert (await client.get(f"/v1/sessions/{'x' * 200}/summary", headers=auth)).status == 400
