#!/usr/bin/env python3
"""Times momlint against its floor and writes the benchmark report (reports/benchmarks.md).

Called by scripts/benchmarks.sh after the ordo-one harness has run: it reads the harness's
Influx CSV export, times the floors and `momlint lint` as processes on the same files, in the
same run (interleaved, see `time_commands`), and writes the figures and the ratios
against the targets of issues 8 and 19. The floors, slowest first: `xmllint --noout` (libxml2
builds a DOM tree), `xmllint --stream --noout` (libxml2's streaming reader, the floor for
anything that reads the XML; the target is set against it) and `sax-floor` (libxml2's SAX2
parser with no callbacks, Benchmarks/SAXFloor). Timings are reported, never asserted.
"""
import argparse
import csv
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_FLOOR_RATIO = 1.5      # lint of the 10,000-entity model within 1.5x of xmllint --stream --noout
TARGET_GROWTH_RATIO = 11.0    # 10x the model, at most 11x the time
TARGET_SMALL_LINT_MS = 10.0   # momlint lint on a small model, start to exit (release build)

# The floors, as (key, heading, command before the file), slowest first; `stream` is the one the
# target is set against.
FLOORS = [
    ("dom", "`xmllint --noout`", ["xmllint", "--noout"]),
    ("stream", "`xmllint --stream --noout`", ["xmllint", "--stream", "--noout"]),
    ("sax", "`sax-floor`", None),  # the SAX2 pass with no callbacks; its path comes from --sax-floor
]
TARGET_FLOOR = "stream"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=["full", "smoke"], required=True)
    parser.add_argument("--momlint", required=True, help="the release momlint binary")
    parser.add_argument("--models", required=True, help="folder holding SyntheticN.xcdatamodeld")
    parser.add_argument("--sizes", required=True, help="entity counts, comma-separated")
    parser.add_argument("--seed", required=True)
    parser.add_argument("--influx", required=True, help="the harness's Influx CSV export")
    parser.add_argument("--sax-floor", required=True,
                        help="the built Benchmarks/SAXFloor/sax-floor.c: libxml2's SAX2 parse, no callbacks")
    parser.add_argument("--small-model", required=True, help="a small real model for start-to-exit")
    parser.add_argument("--load-before", required=True, help="`uptime` before the run")
    parser.add_argument("--output", required=True)
    return parser.parse_args()


# MARK: The harness's figures

def read_harness(path):
    """{(benchmark, metric): {percentile: raw value}}; raw values are ns, bytes or counts."""
    figures = {}
    with open(path, newline="", encoding="utf-8") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    for row in csv.DictReader(lines):
        key = (row["test"], row["metric"])
        figures.setdefault(key, {})[float(row["percentile"])] = float(row["value"])
        figures[key]["iterations"] = int(row["iterations"])
    return figures


def harness_value(figures, benchmark, metric, percentile=50.0):
    return figures.get((benchmark, metric), {}).get(percentile)


# MARK: Timing processes

TIMING_METHOD = "interleaved rounds: each command once per round, in a rotating order (posix_spawn, wait4)"


def time_commands(commands, runs, warmup):
    """For each command of `commands` (key → argv): the median, min and max wall seconds of a
    run start to exit, and the mean CPU seconds (user + system) of a run: momlint may use several
    cores, xmllint one.

    The commands run in rounds, each once per round, in an order that rotates from round to
    round, so a slow stretch of a shared machine falls on all of them alike. Timing every run
    of one command and then every run of the next charged such a stretch to whichever ran in
    it: one report run timed `xmllint --stream` 35% slower than usual beside a momlint timed at
    its fastest, and gave a ratio no quiet run would."""
    keys = list(commands)
    samples = {key: [] for key in keys}
    cpu = {key: 0.0 for key in keys}
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for round_index in range(warmup + max(runs, 1)):
            shift = round_index % len(keys)
            for key in keys[shift:] + keys[:shift]:
                wall, used = run_once(commands[key], devnull)
                if round_index >= warmup:
                    samples[key].append(wall)
                    cpu[key] += used
    finally:
        os.close(devnull)
    return {key: (statistics.median(times), min(times), max(times), cpu[key] / len(times))
            for key, times in samples.items()}


def run_once(command, devnull):
    """Wall seconds of one run of `command`, start to exit, and the CPU seconds the kernel
    charged it (its own `wait4` accounting: no other child is counted)."""
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    started = time.perf_counter()
    pid = os.posix_spawnp(command[0], command, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"error: {' '.join(command)} exited with {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def instruction_count(command):
    """Instructions one run of `command` executes (all threads), counted by valgrind's
    callgrind: the same for the same binary and input whatever else the machine is doing, so
    growth with model size shows the algorithm without the noise of a shared machine. None
    when valgrind is missing."""
    if not shutil.which("valgrind"):
        return None
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        # An optional figure: say why it is missing rather than lose the whole report.
        print(f"warning: no instruction count for {' '.join(command)}; valgrind said:\n{result.stderr[-1500:]}",
              file=sys.stderr)
        return None
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1].strip())
    return None


def without_debug_info(binary, folder):
    """A copy of `binary` without its debug sections: valgrind 3.19 gives up on the DWARF 5 of a
    Swift release build, and the instructions executed are the same without it."""
    if not shutil.which("strip"):
        return binary
    copy = os.path.join(folder, os.path.basename(binary))
    shutil.copy2(binary, copy)
    subprocess.run(["strip", "--strip-debug", copy], check=True)
    return copy


def peak_rss_bytes(command):
    """The largest resident set of one run of `command`, from the kernel's own accounting."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"error: {' '.join(command)} failed")
    return usage.ru_maxrss * 1024  # kilobytes on Linux


# MARK: Machine

def machine_lines(load_before):
    memory = "unknown"
    try:
        with open("/proc/meminfo", encoding="utf-8") as meminfo:
            kilobytes = int(meminfo.readline().split()[1])
            memory = f"{kilobytes / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    xmllint = subprocess.run(["xmllint", "--version"], capture_output=True, text=True).stderr.splitlines()
    load_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    return [
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- cores (`nproc`): {os.cpu_count()} ({cpu})",
        f"- memory: {memory}",
        f"- Swift: {swift[0] if swift else 'unknown'}",
        f"- xmllint: {xmllint[0] if xmllint else 'unknown'}",
        f"- timing of processes: {TIMING_METHOD}",
        f"- load before: `{load_before.strip()}`",
        f"- load after: `{load_after}`",
    ]


# MARK: Formatting

def ms(seconds):
    return "–" if seconds is None else f"{seconds * 1000:,.2f} ms"


def mib(value):
    return "–" if value is None else f"{value / 1024 / 1024:,.1f} MiB"


def count(value):
    return "–" if value is None else f"{value / 1e6:,.1f} M"


def verdict(met):
    return "met" if met else "**missed**"


def main():
    args = parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    smoke = args.mode == "smoke"
    figures = read_harness(args.influx)

    def bundle(size):
        return os.path.join(args.models, f"Synthetic{size}.xcdatamodeld")

    def contents(size):
        return os.path.join(bundle(size), f"Synthetic{size}.xcdatamodel", "contents")

    rows = []
    scratch = tempfile.mkdtemp(prefix="momlint-report-")
    counted_momlint = args.momlint if smoke else without_debug_info(args.momlint, scratch)
    def floor_command(key, size):
        command = next(command for floor_key, _, command in FLOORS if floor_key == key)
        return (command or [args.sax_floor]) + [contents(size)]

    for size in sizes:
        runs = 2 if smoke else (20 if size >= 10_000 else 30)
        warmup = 0 if smoke else 1
        timed = time_commands({**{key: floor_command(key, size) for key, _, _ in FLOORS},
                               "momlint": [args.momlint, "lint", bundle(size)]}, runs, warmup)
        floors = {key: timed[key] for key, _, _ in FLOORS}
        process = timed["momlint"]
        # Counting instructions runs each command some 50 times slower: full runs only.
        floors_instructions = {key: None if smoke else instruction_count(floor_command(key, size))
                               for key, _, _ in FLOORS}
        lint_instructions = None if smoke else instruction_count([counted_momlint, "lint", bundle(size)])
        rows.append({
            "size": size,
            "bytes": os.path.getsize(contents(size)),
            "load": nanoseconds(harness_value(figures, f"Load {size}", "Time(wallclock)")),
            "lint": nanoseconds(harness_value(figures, f"Lint {size}", "Time(wallclock)")),
            "lint_best": nanoseconds(harness_value(figures, f"Lint {size}", "Time(wallclock)", 0.0)),
            "iterations": figures.get((f"Lint {size}", "Time(wallclock)"), {}).get("iterations"),
            "floors": floors,
            "floor": floors[TARGET_FLOOR],
            "process": process,
            "floors_instructions": floors_instructions,
            "floor_instructions": floors_instructions[TARGET_FLOOR],
            "lint_instructions": lint_instructions,
        })
    small_runs = 2 if smoke else 100
    small = time_commands({"synthetic": [args.momlint, "lint", bundle(sizes[0])],
                           "real": [args.momlint, "lint", args.small_model]}, small_runs, 0 if smoke else 3)
    small_synthetic, small_real = small["synthetic"], small["real"]
    largest = sizes[-1]
    largest_rss = peak_rss_bytes([args.momlint, "lint", bundle(largest)])
    harness_peak = harness_value(figures, f"Lint {largest}", "Memory(residentpeak)", 100.0)

    out = []
    title = "Benchmarks" if not smoke else "Benchmarks (smoke run: one iteration, tiny sizes; figures mean nothing)"
    out += [f"# {title}", "",
            "Written by `scripts/benchmarks.sh`; do not edit by hand. Regenerate with "
            "`scripts/benchmarks.sh` on a quiet machine (`--smoke` for CI only proves the benchmarks build and run).",
            "",
            f"Synthetic models from `momlint generate-model --entities N --seed {args.seed}` (well-made, "
            "every attribute type, relationships with inverses, inheritance, constraints, fetch indexes, "
            "a CloudKit configuration). In-process figures are the ordo-one `benchmark` harness's medians "
            "(`Benchmarks/`, release build; the clock stops before the loaded model is freed, since "
            "`momlint lint` leaves that to the kernel at exit); process figures are medians of whole runs, "
            "start to exit.",
            "", "## Machine", ""]
    out += machine_lines(args.load_before)
    out += ["", "## Figures", "",
            "Process figures are medians of whole runs, start to exit, of each command on the same file in the "
            "same run: the three floors (libxml2 building a DOM tree; libxml2's streaming reader; libxml2's "
            "SAX2 parser with no callbacks, `Benchmarks/SAXFloor/sax-floor.c`, with momlint's parser options) "
            "and `momlint lint`, timed in interleaved rounds (each command once per round, in a rotating "
            "order) so that a slow stretch of a shared machine falls on all of them alike.", "",
            "| entities | `contents` size | load (in process) | load + all rules (in process) | harness iterations "
            "| " + " | ".join(f"{heading} (process)" for _, heading, _ in FLOORS) + " | `momlint lint` (process) |",
            "| ---: | ---: | ---: | ---: | ---: | " + "---: | " * len(FLOORS) + "---: |"]
    for row in rows:
        out.append(f"| {row['size']:,} | {row['bytes'] / 1024:,.0f} KiB | {ms(row['load'])} | {ms(row['lint'])} "
                   f"| {row['iterations'] or '–'} | "
                   + " | ".join(ms(row["floors"][key][0]) for key, _, _ in FLOORS)
                   + f" | {ms(row['process'][0])} |")

    out += ["", "## Against the floors", "",
            "`momlint lint`'s whole run as a multiple of each floor's whole run on the same file. The "
            "target is set against the streaming floor, `xmllint --stream --noout`: anything that reads "
            "the XML pays at least that. The in-process column compares the harness's load + all rules with "
            "the streaming floor's whole run (which includes xmllint's own start-up).", "",
            "| entities | " + " | ".join(f"÷ {heading}" for _, heading, _ in FLOORS)
            + " | in process ÷ `xmllint --stream --noout` |",
            "| ---: | " + "---: | " * len(FLOORS) + "---: |"]
    for row in rows:
        out.append(f"| {row['size']:,} | "
                   + " | ".join(ratio(row['process'][0], row["floors"][key][0]) for key, _, _ in FLOORS)
                   + f" | {ratio(row['lint'], row['floor'][0])} |")

    out += ["", "CPU time (user + system, mean of the same runs): momlint checks a large model's rules on "
            "every core (`LintEngine`, 200 entities or more), the floors use one, so this is the ratio "
            "a single-core machine would see.", "",
            "| entities | " + " | ".join(f"{heading} CPU" for _, heading, _ in FLOORS)
            + " | `momlint lint` CPU | ÷ streaming floor |",
            "| ---: | " + "---: | " * len(FLOORS) + "---: | ---: |"]
    for row in rows:
        out.append(f"| {row['size']:,} | "
                   + " | ".join(ms(row["floors"][key][3]) for key, _, _ in FLOORS)
                   + f" | {ms(row['process'][3])} | {ratio(row['process'][3], row['floor'][3])} |")

    out += ["", "## Growth", "",
            "Time for a model 10x larger, as a multiple of the smaller one's (target: at most 11x). "
            "The file-size column is the yardstick: a linear tool grows like the file.", "",
            "| from → to | file size | load (in process) | load + all rules (in process) | `momlint lint` (process) "
            "| `xmllint --stream --noout` |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    growth = []
    for smaller, larger in zip(rows, rows[1:]):
        in_process = divide(larger["lint"], smaller["lint"])
        growth.append((smaller["size"], larger["size"], in_process))
        out.append(f"| {smaller['size']:,} → {larger['size']:,} | {times(divide(larger['bytes'], smaller['bytes']))} "
                   f"| {times(divide(larger['load'], smaller['load']))} | {times(in_process)} | "
                   f"{times(divide(larger['process'][0], smaller['process'][0]))} | "
                   f"{times(divide(larger['floor'][0], smaller['floor'][0]))} |")

    out += ["", "Instructions executed (valgrind's callgrind, whole processes, every thread): unlike time, "
            "the count does not depend on the machine's caches or on other work, so it shows whether "
            "the work itself grows linearly. A 10x larger model running more than 10x the time but "
            "about 10x the instructions is paying for memory (caches, page faults), not for an algorithm.", "",
            "| entities | " + " | ".join(heading for _, heading, _ in FLOORS)
            + " | `momlint lint` | ÷ `xmllint --stream --noout` | growth of `momlint lint` |",
            "| ---: | " + "---: | " * len(FLOORS) + "---: | ---: | ---: |"]
    previous = None
    for row in rows:
        out.append(f"| {row['size']:,} | "
                   + " | ".join(count(row["floors_instructions"][key]) for key, _, _ in FLOORS)
                   + f" | {count(row['lint_instructions'])} | "
                   f"{ratio(row['lint_instructions'], row['floor_instructions'])} | "
                   f"{times(divide(row['lint_instructions'], previous['lint_instructions'])) if previous else '–'} |")
        previous = row

    out += ["", "## Start to exit on a small model", "",
            "| model | `momlint lint`, median (min–max) |", "| --- | ---: |",
            f"| `{os.path.basename(bundle(sizes[0]))}` ({sizes[0]} entities) | "
            f"{ms(small_synthetic[0])} ({ms(small_synthetic[1])}–{ms(small_synthetic[2])}) |",
            f"| `{args.small_model}` | {ms(small_real[0])} ({ms(small_real[1])}–{ms(small_real[2])}) |"]

    out += ["", f"## Memory ({largest:,} entities)", "",
            f"- `momlint lint` peak resident set (kernel's `ru_maxrss`): {mib(largest_rss)}",
            f"- harness, load + all rules: peak resident {mib(harness_peak)} (the whole benchmark process; "
            "allocations are not counted: the harness's malloc interposer can crash a process whose "
            "threads exit while it counts, see `MomlintBenchmarks.swift`)",
            ]

    conformance = [(name[len('Conformance '):], value) for (name, metric), value in sorted(figures.items())
                   if name.startswith("Conformance ") and metric == "Time(wallclock)"]
    out += ["", "## Conformance suite, end to end", "",
            "Every scenario loaded and run against a fresh store, per adapter (`ConformanceBenchmarks.adapters`).", "",
            "| adapter | median | iterations |", "| --- | ---: | ---: |"]
    for adapter, value in conformance:
        out.append(f"| {adapter} | {ms(nanoseconds(value.get(50.0)))} | {value.get('iterations', '–')} |")

    out += cascade_lines(figures)
    out += migration_lines(figures)
    out += diff_lines(figures, sizes)
    out += hash_lines(figures, sizes)
    out += swiftdata_lines(figures)

    largest_row = rows[-1]
    floor_ratio = divide(largest_row["process"][0], largest_row["floor"][0])
    floor_ratio_in_process = divide(largest_row["lint"], largest_row["floor"][0])
    # On a shared machine the fastest run is the least disturbed one: show it beside the median.
    floor_ratio_best = divide(largest_row["process"][1], largest_row["floor"][1])
    growth_best = [divide(larger["lint_best"], smaller["lint_best"]) for smaller, larger in zip(rows, rows[1:])]
    worst_growth_best = max((g for g in growth_best if g is not None), default=None)
    worst = max((step for step in growth if step[2] is not None), key=lambda step: step[2], default=None)
    worst_growth = worst[2] if worst else None
    instruction_growth = [divide(larger["lint_instructions"], smaller["lint_instructions"])
                          for smaller, larger in zip(rows, rows[1:])]
    worst_instruction_growth = max((g for g in instruction_growth if g is not None), default=None)
    out += ["", "## Targets", "",
            "Verdicts use medians; the fastest runs (least disturbed by other work on the machine) are shown "
            "beside them.", "",
            "| target | measured | |", "| --- | ---: | --- |",
            f"| {largest:,}-entity lint at most {TARGET_FLOOR_RATIO:g}x the streaming floor "
            f"(`xmllint --stream --noout`), whole process, same run | "
            f"{times(floor_ratio)} (process; fastest runs {times(floor_ratio_best)}), "
            f"{times(floor_ratio_in_process)} (in process); "
            f"{times(divide(largest_row['process'][0], largest_row['floors']['sax'][0]))} of `sax-floor`, "
            f"{times(divide(largest_row['process'][0], largest_row['floors']['dom'][0]))} of `xmllint --noout` | "
            f"{verdict(floor_ratio is not None and floor_ratio <= TARGET_FLOOR_RATIO)} |",
            f"| 10x the model, at most {TARGET_GROWTH_RATIO:g}x the time (worst step, in process) | {times(worst_growth)}"
            f"{f' at {worst[0]:,} → {worst[1]:,}' if worst else ''}; fastest runs: {times(worst_growth_best)}; "
            f"instructions (`momlint lint`, worst step): {times(worst_instruction_growth)} | "
            f"{verdict(worst_growth is not None and worst_growth <= TARGET_GROWTH_RATIO)} |",
            f"| small model start to exit at most {TARGET_SMALL_LINT_MS:g} ms (`momlint lint`, release build, Swift libraries linked statically on Linux) | "
            f"{ms(small_synthetic[0])} (synthetic), {ms(small_real[0])} (`{os.path.basename(args.small_model)}`) | "
            f"{verdict(max(small_synthetic[0], small_real[0]) * 1000 <= TARGET_SMALL_LINT_MS)} |",
            f"| peak memory for the {largest:,}-entity model, reported | {mib(largest_rss)} | reported |",
            ""]
    with open(args.output, "w", encoding="utf-8") as report:
        report.write("\n".join(out))
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"wrote {args.output}")


# MARK: The SQLite store's cascades

# The plain-SQL baselines, in the table's order; names as in CascadeDeletion.
CASCADE_BASELINES = ["foreignKeyCascade", "recursiveSQL"]
# SQLite's foreign-key actions are triggers, at most 1,000 deep (SQLITE_MAX_TRIGGER_DEPTH):
# the harness leaves out `ON DELETE CASCADE` on a longer chain (CascadeBenchmarks.swift).
LONGEST_FOREIGN_KEY_CASCADE_CHAIN = 1_000


def cascade_lines(figures):
    """The harness's `Cascade SHAPE SIZE DELETION` benchmarks as one row per data set, with
    the store's median time as a ratio to each plain-SQL baseline."""
    data_sets = {}
    for (name, metric), values in figures.items():
        parts = name.split(" ")
        if parts[0] != "Cascade" or len(parts) != 4 or metric != "Time(wallclock)":
            continue
        _, shape, size, deletion = parts
        data_sets.setdefault((shape, int(size)), {})[deletion] = values
    if not data_sets:
        return []

    def described(shape, size):
        return f"a root cascading to {size:,} children" if shape == "fan-out" else f"a chain of {size:,} nodes"

    def cell(values):
        if values is None:
            return "–"
        return f"{ms(nanoseconds(values.get(50.0)))} ({values.get('iterations', '–')})"

    lines = ["", "## SQLite store: cascade deletion against plain SQL", "",
             "The root of each data set deleted through `SQLiteObjectStore` (`delete(root)` then `save()`, "
             "delete rules run in memory, one transaction) and by plain SQL on plain tables holding the same "
             "objects: `ON DELETE CASCADE` foreign keys, and a recursive `DELETE … WHERE id IN (WITH RECURSIVE …)`. "
             "Each iteration builds its data set in a new file, untimed, times the deletion alone, and checks "
             "the file is empty afterwards (`Sources/SQLiteCascadeBenchmark`). Medians, with the number of "
             "iterations in brackets; a ratio above 1 means the store is slower.", "",
             "| data set | store | `ON DELETE CASCADE` | store ÷ cascade | recursive SQL | store ÷ recursive SQL |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    too_deep = False
    for (shape, size), by_deletion in sorted(data_sets.items(), key=lambda item: (item[0][0] != "fan-out", item[0][1])):
        store = by_deletion.get("store", {}).get(50.0)
        cells = [cell(by_deletion.get("store"))]
        for deletion in CASCADE_BASELINES:
            values = by_deletion.get(deletion)
            if values is None and deletion == "foreignKeyCascade" and shape == "chain" \
                    and size > LONGEST_FOREIGN_KEY_CASCADE_CHAIN:
                too_deep = True
                cells += ["cannot¹", "–"]
                continue
            cells += [cell(values), ratio(store, values and values.get(50.0))]
        lines.append(f"| {described(shape, size)} | " + " | ".join(cells) + " |")
    if too_deep:
        lines += ["", f"¹ SQLite runs foreign-key actions as triggers, whose recursion stops at "
                  f"SQLITE_MAX_TRIGGER_DEPTH (1,000 by default; https://www.sqlite.org/limits.html): "
                  f"`ON DELETE CASCADE` fails on a chain longer than {LONGEST_FOREIGN_KEY_CASCADE_CHAIN:,} nodes "
                  "(\"too many levels of trigger recursion\"), so the recursive `DELETE` is the plain-SQL "
                  "baseline there."]
    return lines


# MARK: The SQLite store's migrations

# Issue 17's target: the store's in-place migration within 2x of the same statements by hand.
TARGET_MIGRATION_RATIO = 2.0
MIGRATION_CHANGES = {
    "add-columns": "an optional attribute and one with a default added (`ALTER TABLE … ADD COLUMN`, `UPDATE`)",
    "rebuild-table": "an attribute renamed and one removed (table rebuilt: create, copy, drop, rename, index)",
}


def migration_lines(figures):
    """The harness's `Migration ROWS CHANGE METHOD` benchmarks as one row per change, with the
    store's median time as a ratio to the hand-written SQL."""
    changes = {}
    for (name, metric), values in figures.items():
        parts = name.split(" ")
        if parts[0] != "Migration" or len(parts) != 4 or metric != "Time(wallclock)":
            continue
        _, rows, change, method = parts
        changes.setdefault((int(rows), change), {})[method] = values
    if not changes:
        return []

    def cell(values):
        if values is None:
            return "–"
        return f"{ms(nanoseconds(values.get(50.0)))} ({values.get('iterations', '–')})"

    lines = ["", "## SQLite store: in-place migration against plain SQL", "",
             "A store of notes saved with one model version, migrated in place to the next through "
             "`SQLiteObjectStore.migrateStore` (recognise the file, infer the mapping, plan and run the statements, "
             "rewrite `Z_PRIMARYKEY` and `Z_METADATA`, one transaction) and by the same `ALTER TABLE`/copy "
             "statements written by hand in one transaction. Each iteration builds its store in a new file, "
             "untimed, times the migration alone, and checks every note was migrated "
             "(`Sources/SQLiteCascadeBenchmark/MigrationFixture.swift`). Medians, with the number of iterations "
             f"in brackets; target: the store within {TARGET_MIGRATION_RATIO:g}x of plain SQL.", "",
             "| notes | change | store | plain SQL | store ÷ plain SQL | |",
             "| ---: | --- | ---: | ---: | ---: | --- |"]
    for (rows, change), by_method in sorted(changes.items()):
        store = by_method.get("store", {}).get(50.0)
        plain = by_method.get("plainSQL", {}).get(50.0)
        quotient = divide(store, plain)
        lines.append(f"| {rows:,} | {MIGRATION_CHANGES.get(change, change)} | {cell(by_method.get('store'))} | "
                     f"{cell(by_method.get('plainSQL'))} | {times(quotient)} | "
                     f"{'–' if quotient is None else verdict(quotient <= TARGET_MIGRATION_RATIO)} |")
    return lines


# MARK: Version diffs and SwiftData

# Issue 22's target: diffing two N-entity versions takes at most twice the time of loading both.
TARGET_DIFF_RATIO = 2.0
# Issue 18's target: reading 1,000 @Model classes within 2x of swift-syntax's own parse.
TARGET_SWIFTDATA_RATIO = 2.0


def diff_lines(figures, sizes):
    """`Diff N` (the schema diff of two N-entity versions, loaded in setup) against `Load N`
    (one version): loading both is twice `Load N`."""
    rows = []
    for size in sizes:
        diff = harness_value(figures, f"Diff {size}", "Time(wallclock)")
        load = harness_value(figures, f"Load {size}", "Time(wallclock)")
        if diff is None or load is None:
            continue
        quotient = divide(diff, 2 * load)
        rows.append(f"| {size:,} | {ms(nanoseconds(diff))} | {ms(nanoseconds(2 * load))} | {times(quotient)} | "
                    f"{'–' if quotient is None else verdict(quotient <= TARGET_DIFF_RATIO)} |")
    if not rows:
        return []
    return ["", "## Version diff", "",
            "The schema diff of two versions of an N-entity model (the second version renames, adds, removes and "
            "changes entities and properties; both are loaded in setup, untimed), the work `momlint diff` and the "
            "migration rules do beyond loading, against loading both versions (twice `Load N`, in process). Medians; "
            f"target: the diff within {TARGET_DIFF_RATIO:g}x of loading both.", "",
            "| entities | diff | loading both | diff ÷ loading both | |",
            "| ---: | ---: | ---: | ---: | --- |"] + rows


# Issue 35's target: computing every version hash of an N-entity model costs at most 20% of loading it.
TARGET_HASH_RATIO = 0.2


def hash_lines(figures, sizes):
    """`Hash N` (every version hash of an N-entity model, loaded in setup) against `Load N`."""
    rows = []
    for size in sizes:
        hashing = harness_value(figures, f"Hash {size}", "Time(wallclock)")
        load = harness_value(figures, f"Load {size}", "Time(wallclock)")
        if hashing is None or load is None:
            continue
        quotient = divide(hashing, load)
        rows.append(f"| {size:,} | {ms(nanoseconds(hashing))} | {ms(nanoseconds(load))} | {times(quotient)} | "
                    f"{'–' if quotient is None else verdict(quotient <= TARGET_HASH_RATIO)} |")
    if not rows:
        return []
    return ["", "## Version hashes", "",
            "Core Data's version hashes of an N-entity model (`VersionHasher.hashes(of:)`: every attribute, "
            "relationship and entity hash and the model's digest; the model is loaded in setup, untimed), against "
            "loading it (`Load N`). Only export, versions, diff, the migration rules and the stores compute them; "
            f"a one-version lint never does. Medians; target: hashing within {TARGET_HASH_RATIO:.0%} of loading.", "",
            "| entities | hashing | loading | hashing ÷ loading | |",
            "| ---: | ---: | ---: | ---: | --- |"] + rows


def swiftdata_lines(figures):
    # (read, parse, check) per kind: the reader of one schema, and of 20 versioned schemas.
    found = {"plain": {}, "versions": {}}
    for (name, metric) in figures:
        if metric != "Time(wallclock)" or not name.startswith("SwiftData "):
            continue
        kind = "versions" if " versions" in name else "plain"
        for step in ("read", "parse", "check"):
            if name.startswith(f"SwiftData {step} "):
                found[kind][step] = (name, harness_value(figures, name, metric))
    out = []
    plain = found["plain"]
    if "read" in plain and "parse" in plain:
        quotient = divide(plain["read"][1], plain["parse"][1])
        out += ["", "## SwiftData models", "",
                "`SwiftDataReader` building the model of 1,000 synthetic `@Model` classes in 20 files (parse, walk, "
                "entities, inverses), against swift-syntax's `Parser.parse` of the same files alone, the floor any "
                f"swift-syntax front end pays (`SwiftDataBenchmarks`). Medians; target: within {TARGET_SWIFTDATA_RATIO:g}x.", "",
                "| benchmark | median |", "| --- | ---: |",
                f"| {plain['parse'][0]} | {ms(nanoseconds(plain['parse'][1]))} |",
                f"| {plain['read'][0]} | {ms(nanoseconds(plain['read'][1]))} |",
                f"| read ÷ parse | {times(quotient)} {'' if quotient is None else verdict(quotient <= TARGET_SWIFTDATA_RATIO)} |"]
    versions = found["versions"]
    if "read" in versions and "parse" in versions:
        quotient = divide(versions["read"][1], versions["parse"][1])
        out += ["", "## SwiftData versioned schemas", "",
                "`SwiftDataVersionsReader` reading 1,000 synthetic `@Model` classes across 20 `VersionedSchema`s and "
                "a plan of 19 stages (parse, walk, each version compiled to its Core Data model and hashed), against "
                "`Parser.parse` of the same files alone (`SwiftDataVersionsBenchmarks`); check adds the SwiftData "
                f"migration rules. Medians; target: read within {TARGET_SWIFTDATA_RATIO:g}x of parse.", "",
                "| benchmark | median |", "| --- | ---: |",
                f"| {versions['parse'][0]} | {ms(nanoseconds(versions['parse'][1]))} |",
                f"| {versions['read'][0]} | {ms(nanoseconds(versions['read'][1]))} |"]
        if "check" in versions:
            out += [f"| {versions['check'][0]} | {ms(nanoseconds(versions['check'][1]))} |"]
        out += [f"| read ÷ parse | {times(quotient)} {'' if quotient is None else verdict(quotient <= TARGET_SWIFTDATA_RATIO)} |"]
    return out


def nanoseconds(value):
    return None if value is None else value / 1e9


def divide(numerator, denominator):
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def ratio(numerator, denominator):
    return times(divide(numerator, denominator))


def times(value):
    return "–" if value is None else f"{value:.2f}x"


if __name__ == "__main__":
    sys.exit(main())
