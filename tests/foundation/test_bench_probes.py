"""The benchmark's probes of the machine: they must work wherever ``make bench`` runs."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.e2e_bench import _DiskFlushes, _Steal
from bench.scale_bench import _cpu_seconds


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


def test_cpu_of_a_process_counts_its_ended_children_when_asked() -> None:
    """The scale-out bench sums Postgres's CPU over its processes: a backend that ended meanwhile
    must still count (the postmaster holds it as its reaped children's CPU)."""
    before = _cpu_seconds(os.getpid(), reaped=True)
    own_before = _cpu_seconds(os.getpid())
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    subprocess.run([sys.executable, "-c", burn], check=True)  # ended and waited for
    assert _cpu_seconds(os.getpid(), reaped=True) - before >= 0.25
    assert _cpu_seconds(os.getpid()) - own_before < 0.25  # not the process's own
    assert _cpu_seconds(2**22 + 12345) == 0.0  # no such process
