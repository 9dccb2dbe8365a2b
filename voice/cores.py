"""How many worker threads a model may use: the cores this process may run on, at most two.

The recognisers and the judge were measured with two threads on two cores. On one core
(a Pi 3 given one by a busy desktop, a laptop under load, `bench latency --cores 1`)
two threads take turns on it and each wakes the other, so the count follows the cores
the process is allowed, not the cores the machine has (`os.cpu_count()` counts those)."""

from __future__ import annotations

import os

MOST_THREADS = 2  # more gave nothing measurable for these small models


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask; the machine's count where
    the platform has no mask)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity masks in os
        return os.cpu_count() or 1


def worker_threads() -> int:
    """Threads for one model's matrix work: one per usable core, at most MOST_THREADS."""
    return max(1, min(MOST_THREADS, usable_cores()))


def keep_to_cores(count: int) -> list[int]:
    """Run this process, every thread it has now and every thread it starts later, on
    the first `count` of its usable cores; the cores kept. Threads already running
    (numpy's, say) keep their own masks unless moved too, so each is moved."""
    cores = sorted(os.sched_getaffinity(0))[: max(1, count)]
    for task in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(task), cores)
        except (ProcessLookupError, PermissionError):  # a thread that ended meanwhile
            continue
    return cores
