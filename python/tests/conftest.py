from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def idl() -> Path:
    return REPOSITORY / "idl"


@pytest.fixture(scope="session")
def repository() -> Path:
    return REPOSITORY
