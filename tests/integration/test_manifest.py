"""The manifest, read through Home Assistant's own loader, and hacs.json."""

from __future__ import annotations

import json
import re
from pathlib import Path

from homeassistant.core import HomeAssistant
from homeassistant.loader import async_get_integration

# Import the repository's `custom_components` before any hass starts: HA's loader imports that
# name with the config dir first on sys.path, and the test config dir of
# pytest-homeassistant-custom-component has a package of that name that would shadow ours.
import custom_components

DOMAIN = "homebuddy_proactive"
REPO = Path(__file__).resolve().parents[2]
PINNED = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*==[0-9][0-9A-Za-z.+!-]*$")


async def test_manifest_through_the_loader(hass: HomeAssistant) -> None:
    """HA's loader finds the custom integration and reads the expected manifest."""
    assert any((Path(path) / DOMAIN).is_dir() for path in custom_components.__path__)
    integration = await async_get_integration(hass, DOMAIN)
    manifest = integration.manifest

    assert integration.domain == DOMAIN
    assert not integration.is_built_in
    assert integration.config_flow is True
    assert integration.single_config_entry is True
    assert integration.iot_class == "local_push"
    assert integration.dependencies == ["conversation", "http"]

    requirements = integration.requirements
    assert requirements
    for requirement in requirements:
        assert PINNED.match(requirement), f"not pinned with ==: {requirement}"
    names = {requirement.split("==")[0].lower() for requirement in requirements}
    assert {"ollama", "aiosqlite"} <= names

    # HA refuses a custom integration without a valid version; the loader parsed it.
    assert integration.version is not None
    assert str(integration.version) == manifest["version"]
    assert manifest["documentation"].startswith("https://")
    assert manifest["issue_tracker"].startswith("https://")
    assert manifest["codeowners"]
    assert all(owner.startswith("@") for owner in manifest["codeowners"])


def test_hacs_json() -> None:
    """hacs.json names the integration and the minimum Home Assistant version."""
    hacs = json.loads((REPO / "hacs.json").read_text())
    assert hacs["name"]
    assert hacs["homeassistant"] == "2026.2.0"
