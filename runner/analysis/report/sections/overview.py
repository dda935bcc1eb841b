"""The report's opening: what ran and how it ended (outcomes, failures, servers that did not exit cleanly),
then the environment and method, with how many figures each flag marks."""
from ... import setup
from .. import flags
from ..blocks import Bullets, Code, Heading, Paragraph, Strong, Table, Text
from ..flags import CPU_BOUND, UNSTABLE_REP_CV, WAIT_MIN_US, WAIT_SHARE
from .context import Context


def outcomes(ctx: Context) -> list:
    run, figures, v = ctx.run, ctx.figures, ctx.verdict
    counts: dict[str, int] = {}
    for r in figures.records:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    passes = f", {len(figures.passes)} passes" if figures.multi else ""
    out = [Heading(1, f"rpcmatrix report: run {run['run_id']}"),
           Paragraph(Text("Profile ", Code(run["profile"]["name"]), ", commit ", Code(run["git_commit"][:12]),
                          f"{' (with local changes)' if run.get('git_dirty') else ''}, {len(figures.cells)} cells"
                          f"{passes}. Cells are named ", Code("protocol/client→server"), "; in the matrices rows are "
                          "clients, columns servers.")),
           Paragraph("Outcomes (one per cell, workload and pass; the vectors count as one): "
                     + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ". "
                     + f"Unexpected failures: {len(v['unexpected'])}; expected (known) failures: {len(v['expected'])}; "
                     + f"stale known-failure entries: {len(v['stale'])}.")]
    missing = [c["name"] for c in figures.cells if figures.record(c["name"], "vectors") is None]
    if missing:
        out.append(Paragraph(Text(Strong("Not run"), f" (the run was interrupted): {', '.join(missing)}.")))
    exits = [r for r in figures.records if r.get("server_exit_note")]
    if exits:
        out += [Paragraph(Text(Strong("Servers that did not exit cleanly"), " (status after SIGTERM):")),
                Bullets([Text(Code(r["cell"]), f"{' pass ' + str(r.get('pass', 1)) if figures.multi else ''}: "
                              f"{r['server_exit_note']}")
                         for r in sorted(exits, key=lambda r: (r["cell"], r.get("pass", 1)))])]
    for title, items in (("Unexpected failures", v["unexpected"]), ("Known failures", v["expected"])):
        if items:
            out += [Heading(2, title),
                    Bullets([Text(Code(i["cell"]), f" {i['workload']}{' / ' + i['vector'] if i['vector'] else ''}: "
                                  f"{i['status']}: {i['reason']}") for i in items[:50]])]
    if v["stale"]:
        out += [Heading(2, "Stale known failures (these now pass: remove them)"),
                Bullets([Text(Code(e["cell"]), f": {e['reason']}") for e in v["stale"]])]
    return out


def _profile_counts(prof: dict) -> str:
    return "; ".join(f"{s}: {prof[s]['warmup']} warm-up, {prof[s]['repetitions']} repetitions of "
                     + (f"at least {prof[s]['calls']} calls and {prof[s]['min_ms']} ms each"
                        if prof[s].get("min_ms") else f"{prof[s]['calls']} calls each")
                     for s in ("small", "medium", "large") if s in prof)


def environment(ctx: Context) -> list:
    run, figures = ctx.run, ctx.figures
    rows = [["CPU", f"{run['cpu_model']} ({run['cpus']} CPUs, governor {run['cpu_governor']})"],
            ["Memory", run["memory"]], ["OS, kernel", f"{run['os']}, {run['kernel']}"],
            ["Hosts", setup.hosts(run)], ["CPU pinning", setup.pin(run)], ["Processes", setup.processes(run)],
            ["Bytes on the wire", setup.wire(run)], ["Network", setup.network(run, ctx.delay_line)],
            ["CPU time", setup.cpu(run)],
            ["Memory", run["memory_source"]], ["Round-trip time", run["rtt_source"]]]
    net = run.get("network") or {}
    if net:
        rows.append(["Kernel TCP / loopback", ", ".join(f"{k} {v}" for k, v in net.items() if v is not None)])
    steal = run.get("steal") or {}
    if steal:
        rows.append(["Steal time", ("reported by the kernel" if steal.get("available") else "not reported")
                     + ("; a hypervisor is present" if steal.get("hypervisor") else "")])
    for lang, versions in sorted(ctx.env["versions"].items()):
        rows.append([f"{lang} versions", ", ".join(f"{k} {v}" for k, v in versions.items())])
    prof = run["profile"]
    rows.append(["Calls per workload", _profile_counts(prof)])
    for i, r in enumerate(run.get("resumed") or [], 1):
        same = "the same boot" if r.get("boot_id") == run.get("boot_id") else "another boot"
        rows.append([f"Resumed ({i})", f"at {r['time']} after {r['cells_finished']} of {r['cells_total']} cells, on "
                     f"{same} ({r.get('cpu_model')}, kernel {r.get('kernel')}): a cell cut short ran again "
                     "from its start, and new processes served the cells after it"])
    for left in run.get("left_out") or []:
        what = Text(Code(left["protocol"]), Text(" ", Code(left["implementation"])) if left.get("implementation")
                    else "")
        rows.append([Text("Left out: ", what), f"opt-in, not in profile {prof.get('name')}: {left['reason']}"])
    if run.get("vectors_left_out"):
        rows.append(["Vectors left out", Text(f"the {len(run['vectors_left_out'])} large ones (", Code("size: large"),
                                              f": {', '.join(run['vectors_left_out'])}), not sent in profile "
                                              f"{prof.get('name')}; ", Code("just certify"),
                                              " and the study profiles send them")])
    steady = prof.get("steady") or {}
    rows.append(["Warm-up", "every workload of a cell warmed in turn, in batches, until the batch medians agree "
                            f"within {steady.get('tolerance', 0):.0%} (at most {steady.get('max_ms', 0)} ms each), "
                            "before the first is measured (JIT compilers settle); processes that made such a round "
                            f"re-warmed once pinned, in short batches (at most {steady.get('rewarm_ms', 0)} ms "
                            "each; ⌛ marks a workload whose last warm-up did not agree); in the warm phase, the "
                            "rounds of processes without a JIT to wait for and those after a cell's first at most "
                            f"{steady.get('phase_max_ms', 0)} ms each; then each workload's own warm-up calls"
                            + (f" (at most {prof['warmup_max_ms']} ms of them, at the last batch's median)"
                               if prof.get("warmup_max_ms") else "")])
    passes = (f", the cells in a new random order each (seed {prof.get('seed')}); figures are medians across "
              "passes with a 95% confidence interval (t-interval on the log scale for up to 5 passes, order statistics "
              "beyond)")
    rows.append(["Passes", f"{len(figures.passes)}" + (passes if figures.multi else "")])
    return [Heading(2, "Environment and method"), Table(["", ""], rows)] + method(ctx)


def method(ctx: Context) -> list:
    """How to read the figures, and how many of them each flag marks."""
    n = flags.counts(ctx.figures)
    out = [Paragraph(Text("Every process's argv (JVM and runtime flags included), library and settings are in ",
                          Code("cells.jsonl"), ", the runtimes' versions in ", Code("env.json"), ". RTT statistics: "
                          "p50/p90/p99 from HdrHistogram; ", Code("cv"), " is the coefficient of variation of all "
                          "calls; the trimmed mean (Juric et al.) drops the fastest and slowest repetition. "
                          "Differences under about 5% are noise: do not rank on them.")),
           _headed("Stability", f"{n.unstable} of {n.timed} timed workloads are marked ⚠: the means of their "
                   f"repetitions spread by more than {UNSTABLE_REP_CV:.0%} (coefficient of variation), so they did "
                   "not measure one steady state. On a shared or virtual machine, loopback latency can switch "
                   "between modes (for example about 20 µs and about 80 µs for the same pair of processes, whatever "
                   "the stack) as the host schedules the CPUs; such distributions are marked ⧉; compare ⚠ and ⧉ "
                   "figures only after a re-run agrees."),
           _headed("CPU bound", f"{n.cpu_over_rtt} of {n.with_cpu} timed workloads with CPU figures break the "
                   f"bound of a strict ping-pong: their client + server CPU time per call exceeds {CPU_BOUND}× the "
                   "mean round trip, which is impossible unless threads of the stacks run concurrently (I/O threads, "
                   "garbage collectors, JIT compilers); they are marked ⚠>rtt."),
           _headed("Waits", f"{n.wait} of {n.with_cpu} timed workloads spend more than {WAIT_SHARE:.0%} of "
                   f"their p50 round trip, and more than {WAIT_MIN_US:g} µs per call, on neither side's CPU: their "
                   "calls wait for something other than work (a delayed ACK for which Nagle's algorithm holds a last "
                   "small segment, a timer, a lock) or for a virtual CPU the hypervisor did not run; they are marked "
                   "⏸wait, with a note giving the cell's steal time and CPU probe, to read before blaming the "
                   "stack.")]
    if ctx.figures.multi:
        out.append(_headed("Passes", f"the p50 of {n.disagree} of {n.timed} timed workloads disagrees across "
                           "passes (≠)."))
    return out


def _headed(head: str, text: str) -> Paragraph:
    """A paragraph that starts with its subject in bold: **Waits**: ..."""
    return Paragraph(Text(Strong(head), ": ", text))
