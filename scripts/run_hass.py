"""Start Home Assistant like its ``hass`` entry point: ``python scripts/run_hass.py ARGS``.

Home Assistant 2026.2 refuses to start on a Python older than 3.13.2 (``REQUIRED_PYTHON_VER``),
but our machines have CPython 3.13.0, on which it starts and runs fine (docs/development.md). Only
when the running Python is older than Home Assistant's requirement, lower that requirement to
the running version before calling ``homeassistant.__main__.main()``; a new enough Python runs
Home Assistant exactly as ``hass`` would.
"""

from __future__ import annotations

import sys

from homeassistant import __main__ as ha_main


def main() -> int:
    """Run Home Assistant with the given command line arguments."""
    running = sys.version_info[:3]
    if running < ha_main.REQUIRED_PYTHON_VER:
        required = ".".join(map(str, ha_main.REQUIRED_PYTHON_VER))
        print(
            f"run_hass: Python {'.'.join(map(str, running))} is older than Home Assistant's "
            f"required {required}; starting anyway (it runs on 3.13.0 here)",
            file=sys.stderr,
        )
        ha_main.REQUIRED_PYTHON_VER = running  # type: ignore[misc]
    return ha_main.main()


if __name__ == "__main__":
    sys.exit(main())
