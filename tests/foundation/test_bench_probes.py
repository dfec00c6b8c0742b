"""The benchmark's probes of the machine: they must work wherever ``make bench`` runs."""

from __future__ import annotations

import time

from bench.e2e_bench import _DiskFlushes, _Steal


def test_the_disk_flush_probe_times_flushes_while_a_section_runs() -> None:
    probe = _DiskFlushes()
    time.sleep(0.3)  # a handful of 50 ms rounds
    summary = probe.summary()
    assert set(summary) == {"disk_flush_max_ms", "disk_flushes_over_50_ms"}
    assert summary["disk_flush_max_ms"] > 0  # it flushed, and the flush took time
    assert 0 <= summary["disk_flushes_over_50_ms"] <= 6


def test_the_steal_probe_gives_a_share_or_nothing() -> None:
    steal = _Steal()
    sum(range(200_000))  # let the kernel's counters move
    time.sleep(0.05)
    percent = steal.percent()
    assert percent is None or 0.0 <= percent <= 100.0
