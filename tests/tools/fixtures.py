"""Shared fixtures for tool and agent tests: directory principals and ToolDeps over the session index."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from identity.principal import Principal
from tools import ToolDeps

AS_OF = dt.date(2026, 3, 1)
LEAD = "tax.lead@sinarnusantara.co.id"
CLERK = "ap.clerk@sinarnusantara.co.id"
PAYROLL = "hr.payroll@sinarnusantara.co.id"


@pytest.fixture(scope="session")
def people(services) -> dict[str, Principal]:
    return {
        "guest": services.cli_principal(None),
        "lead": services.cli_principal(LEAD),
        "clerk": services.cli_principal(CLERK),
        "payroll": services.cli_principal(PAYROLL),
    }


@pytest.fixture(scope="session")
def make_deps(services) -> Callable[..., ToolDeps]:
    def make(**kw: object) -> ToolDeps:
        base = {
            "retriever": services.retriever,
            "store": services.store,
            "default_as_of": AS_OF,
            "question_masked": "pertanyaan uji",
        }
        base.update(kw)
        return ToolDeps(**base)  # type: ignore[arg-type]

    return make
