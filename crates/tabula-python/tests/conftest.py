"""What the tests share: the checkout's data files (the Rust crates' own oracles)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def read_epd(relative, max_count):
    """Each position of an EPD perft file with its counts ``;Dn count``, those at most ``max_count``."""
    cases = []
    for line in (ROOT / relative).read_text().splitlines():
        if not line.strip():
            continue
        fen, *fields = line.split(";")
        for field in fields:
            depth, count = field.split()
            if int(count) <= max_count:
                cases.append((fen.strip(), int(depth[1:]), int(count)))
    return cases


@pytest.fixture
def root():
    return ROOT
