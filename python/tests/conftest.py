"""Shared fixtures of the houserules Python tests (python/tests; run by scripts/test-python).

- ``shared``: the ``shared/data`` folder beside the repository checkout (``../shared``), or
  ``$HOUSERULES_SHARED/data``; tests that need it are skipped, saying so, when it is absent.
- ``HOUSERULES_PY_POSITIONS``: random positions compared with python-chess (default 10,000).
- ``HOUSERULES_PY_PERFT_MAX_NODES``: perft counts checked up to this many leaves (default 1,000,000).
"""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def shared_data():
    base = os.environ.get("HOUSERULES_SHARED")
    path = pathlib.Path(base) if base else ROOT.parent / "shared"
    data = path / "data"
    return data if data.is_dir() else None


@pytest.fixture(scope="session")
def shared():
    data = shared_data()
    if data is None:
        pytest.skip(
            "../shared/data is absent (set HOUSERULES_SHARED=/path/to/shared): "
            "the perft suites and PGN files there are not checked"
        )
    return data


def env_int(name, default):
    v = os.environ.get(name)
    return int(v) if v else default
