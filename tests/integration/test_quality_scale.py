"""quality_scale.yaml: every rule of Home Assistant's integration quality scale, judged once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from custom_components.homebuddy_proactive.const import DOMAIN

QUALITY_SCALE = (
    Path(__file__).resolve().parents[2] / "custom_components" / DOMAIN / "quality_scale.yaml"
)
# The rules of home-assistant/core script/hassfest/quality_scale.py (ALL_RULES), by tier.
RULES: dict[str, tuple[str, ...]] = {
    "bronze": (
        "action-setup",
        "appropriate-polling",
        "brands",
        "common-modules",
        "config-flow",
        "config-flow-test-coverage",
        "dependency-transparency",
        "docs-actions",
        "docs-conditions",
        "docs-high-level-description",
        "docs-installation-instructions",
        "docs-removal-instructions",
        "docs-triggers",
        "entity-event-setup",
        "entity-unique-id",
        "has-entity-name",
        "runtime-data",
        "test-before-configure",
        "test-before-setup",
        "unique-config-entry",
    ),
    "silver": (
        "action-exceptions",
        "config-entry-unloading",
        "docs-configuration-parameters",
        "docs-installation-parameters",
        "entity-unavailable",
        "integration-owner",
        "log-when-unavailable",
        "parallel-updates",
        "reauthentication-flow",
        "test-coverage",
    ),
    "gold": (
        "devices",
        "diagnostics",
        "discovery",
        "discovery-update-info",
        "docs-data-update",
        "docs-examples",
        "docs-known-limitations",
        "docs-supported-devices",
        "docs-supported-functions",
        "docs-troubleshooting",
        "docs-use-cases",
        "dynamic-devices",
        "entity-category",
        "entity-device-class",
        "entity-disabled-by-default",
        "entity-translations",
        "exception-translations",
        "icon-translations",
        "reconfiguration-flow",
        "repair-issues",
        "stale-devices",
    ),
    "platinum": ("async-dependency", "inject-websession", "strict-typing"),
}
ALL_RULES = [rule for tier in RULES.values() for rule in tier]
STATUSES = {"done", "todo", "exempt"}


class _UniqueKeyLoader(yaml.SafeLoader):
    """A YAML loader that refuses a key given twice (PyYAML would keep the last silently)."""


def _mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    keys = [loader.construct_object(key) for key, _ in node.value]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    assert not repeated, f"listed more than once: {repeated}"
    return loader.construct_mapping(node)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def load() -> dict[str, Any]:
    """The file, every key once."""
    data = yaml.load(QUALITY_SCALE.read_text("utf-8"), Loader=_UniqueKeyLoader)
    assert isinstance(data, dict)
    assert set(data) == {"rules"}
    rules = data["rules"]
    assert isinstance(rules, dict)
    return rules


def test_the_rule_list_has_no_repeats() -> None:
    """The list kept here names each rule once (54 in HA's list)."""
    assert len(ALL_RULES) == len(set(ALL_RULES)) == 54


def test_every_rule_exactly_once() -> None:
    """Every rule of the scale is judged, each once, and nothing else is."""
    rules = load()
    assert sorted(rules) == sorted(ALL_RULES)


def test_every_rule_has_a_status_and_a_reason() -> None:
    """Each rule is done, todo or exempt, with a comment saying why."""
    for name, rule in load().items():
        assert isinstance(rule, dict), name
        assert set(rule) == {"status", "comment"}, name
        assert rule["status"] in STATUSES, name
        assert isinstance(rule["comment"], str), name
        assert rule["comment"].strip(), name
