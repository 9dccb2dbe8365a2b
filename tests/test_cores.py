"""A host kept to fewer cores runs every thread there and sizes its models' threads to them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from voice.cores import MOST_THREADS, usable_cores, worker_threads

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KEPT_TO_ONE = """
import json, os, threading, time
from voice.cores import keep_to_cores, worker_threads
started = threading.Event(); stop = threading.Event()
def wait():
    started.set(); stop.wait()
early = threading.Thread(target=wait); early.start(); started.wait()   # a thread from before
kept = keep_to_cores(1)
masks = {task: sorted(os.sched_getaffinity(int(task))) for task in os.listdir("/proc/self/task")}
later = []
late = threading.Thread(target=lambda: later.append(sorted(os.sched_getaffinity(0)))); late.start(); late.join()
stop.set(); early.join()
print(json.dumps({"kept": kept, "masks": masks, "later": later[0], "threads": worker_threads()}))
"""


def run(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_threads_follow_the_cores_this_process_may_use():
    assert worker_threads() == min(MOST_THREADS, usable_cores())
    assert usable_cores() == len(os.sched_getaffinity(0))


def test_kept_to_one_core_every_thread_runs_there_and_models_get_one_thread():
    result = run(KEPT_TO_ONE)
    assert len(result["kept"]) == 1
    assert len(result["masks"]) >= 2  # the main thread and the one started before
    assert all(mask == result["kept"] for mask in result["masks"].values())
    assert result["later"] == result["kept"]
    assert result["threads"] == 1


@pytest.mark.model
def test_whisper_built_on_one_core_decodes_with_one_thread():
    result = run(
        "import json\n"
        "from voice.cores import keep_to_cores\n"
        "keep_to_cores(1)\n"
        "from voice.asr.whisper import WhisperRecognizer\n"
        "print(json.dumps({'threads': WhisperRecognizer()._threads}))\n"
    )
    assert result["threads"] == 1
