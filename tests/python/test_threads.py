"""Threads: several probe one handle at once, and a probe releases the GIL."""

import os
import shutil
import subprocess
import sys
import threading
import time

import dtb
from conftest import sample_positions


def _answers(tb, fens, variant):
    return [(tb.probe_dtw(f, variant=variant), tb.best_move(f, variant=variant), tb.line(f, variant=variant),
             tb.moves(f, variant=variant)) for f in fens]


def test_threads_probing_one_handle_get_what_one_thread_gets(tables):
    with dtb.open_tablebase(tables, cache_bytes=1 << 16) as tb:  # a small cache: blocks come and go
        work = [(v, sample_positions(tb, v, seed=s)) for v in ("russian", "international") for s in (1, 2)]
        expected = [_answers(tb, fens, v) for v, fens in work]
        results = [None] * 8
        errors = []
        start = threading.Barrier(len(results))

        def run(i):
            try:
                variant, fens = work[i % len(work)]
                start.wait()
                results[i] = [_answers(tb, fens, variant) for _ in range(3)]
            except Exception as e:  # reported below, with the thread
                errors.append((i, e))

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(results))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        for i, got in enumerate(results):
            assert got == [expected[i % len(work)]] * 3


def test_a_probe_waiting_for_a_table_file_lets_other_threads_run(tables, tmp_path):
    # The table the probe needs is a named pipe: opening it blocks inside the
    # C call until a writer comes. If the probe held the GIL, this thread
    # could run no Python until then; a helper process comes as the writer
    # after 20 s in any case, so that a failure is a failure, not a hang.
    d = tmp_path / "t"
    d.mkdir()
    for f in tables.iterdir():
        if f.name.startswith("russian-") and f.suffix in (".wdl", ".dtw") and f.name != "russian-KKvK.wdl":
            shutil.copy(f, d / f.name)
    fifo = d / "russian-KKvK.wdl"
    os.mkfifo(fifo)
    rescue = subprocess.Popen([sys.executable, "-c", "import os, sys, time; time.sleep(20); "
                               "os.close(os.open(sys.argv[1], os.O_WRONLY))", str(fifo)])
    outcome = {}

    def probe():
        try:
            outcome["value"] = tb.probe_wdl("W:WKa1,Kc3:BKh8")
        except dtb.Error as e:
            outcome["error"] = e
        outcome["done"] = time.monotonic()

    try:
        with dtb.open_tablebase(d) as tb:
            t = threading.Thread(target=probe)
            t.start()
            # Be the writer once the probe waits in open(): a non-blocking
            # open for writing succeeds only while a reader is there. That
            # this loop runs at all then is the point. The probe goes on
            # and finds no regular file.
            opened_while_it_waited = False
            deadline = time.monotonic() + 10
            while not opened_while_it_waited and time.monotonic() < deadline and "done" not in outcome:
                try:
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                    opened_while_it_waited = True
                except OSError:  # no reader yet
                    time.sleep(0.01)
            t.join()
    finally:
        rescue.kill()
        rescue.wait()
    assert opened_while_it_waited, "the probe held the GIL while it waited for the table file"
    assert isinstance(outcome.get("error"), dtb.TableIOError)
    assert "russian-KKvK.wdl" in str(outcome["error"])


def test_perft_lets_other_threads_run():
    span = {}

    def count():
        span["start"] = time.monotonic()
        span["nodes"] = dtb.perft("russian", 10)
        span["end"] = time.monotonic()

    ticks = []
    t = threading.Thread(target=count)
    t.start()
    while t.is_alive():
        ticks.append(time.monotonic())
    t.join()
    assert span["nodes"] == 22444032  # tests/rules/perft_series.hpp, "initial, drop"
    inside = [x for x in ticks if span["start"] < x < span["end"]]
    # Holding the GIL, perft would have stopped this loop for its whole run.
    assert len(inside) > 1000, f"{len(inside)} loop turns during {span['end'] - span['start']:.3f} s of perft"
