"""The benchmark's probes of the machine: they must work wherever ``make bench`` runs."""

from __future__ import annotations

import time

from bench.e2e_bench import _DiskFlushes, _Steal


def test_the_disk_flush_probe_times_flushes_while_a_section_runs() -> None:
    probe = _DiskFlushes()
    # Rounds come every 50 ms; on a loaded machine (the full suite runs beside Postgres) the
    # probe's thread can start late, so wait for three rounds rather than a fixed time.
    deadline = time.monotonic() + 10
    while probe.flushes < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    summary = probe.summary()
    assert set(summary) == {"disk_flushes", "disk_flush_max_ms", "disk_flushes_over_50_ms"}
    assert summary["disk_flushes"] >= 3
    # A flush may be fast (tmpfs, a write cache) but is timed: a number, never negative.
    assert isinstance(summary["disk_flush_max_ms"], float)
    assert summary["disk_flush_max_ms"] >= 0
    assert 0 <= summary["disk_flushes_over_50_ms"] <= summary["disk_flushes"]


def test_the_disk_flush_probe_says_none_when_it_never_flushed() -> None:
    probe = _DiskFlushes()
    summary = probe.summary()  # stopped before its first 50 ms round
    assert summary["disk_flushes"] in (0, 1)
    if summary["disk_flushes"] == 0:
        assert summary["disk_flush_max_ms"] is None


def test_the_steal_probe_gives_a_share_or_nothing() -> None:
    steal = _Steal()
    sum(range(200_000))  # let the kernel's counters move
    time.sleep(0.05)
    percent = steal.percent()
    assert percent is None or 0.0 <= percent <= 100.0
