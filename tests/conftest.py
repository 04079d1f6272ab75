"""Shared by every test package: readable assertion failures in the shared check modules."""

import pytest

pytest.register_assert_rewrite("tests.seed_protocol", "tests.engine.corpus")
