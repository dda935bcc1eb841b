"""The report's thresholds and the rules that flag a figure, as data: each rule returns the flags it
raises, each with the numbers that raised it (a flag absent is a flag not raised). The sections say what a
flag means and text.MARK how it is marked, so that any renderer reads the same flags."""
from dataclasses import dataclass
from enum import StrEnum

from conductor import network

# Repetitions whose means spread more than this (CV of the kept repetition means) did not measure one
# steady state: the figure is flagged rather than trusted.
UNSTABLE_REP_CV = 0.2
# CPU per call whose repetitions spread more than this is flagged.
UNSTABLE_CPU_REP_CV = 0.2
# Client + server CPU per call above this multiple of the mean round trip: impossible for a strict
# ping-pong unless threads run concurrently.
CPU_BOUND = 1.2
# A typical call (the p50) that spends more than this share of its round trip, and more than WAIT_MIN_US, on
# neither side's CPU waits for something (a delayed ACK that Nagle's algorithm holds the last segment for, a
# timer, a lock). The p50, not the mean, so that steal time hitting a few calls does not count; on a host
# whose steal hits most calls it still does, so the report points to each cell's steal. The fastest call
# tells neither apart: a Nagle stall lets some calls through (quick ACKs), as steal does.
WAIT_SHARE = 0.5
WAIT_MIN_US = 1000.0
# Passes disagree when the CI's half-width is over 5% of the median or the largest value is over 1.1x the
# smallest.
PASS_HALF_WIDTH = 0.05
PASS_MAX_MIN = 1.1
# A cell whose CPU probe ran this much slower than the run's median ran on a slow phase of the host.
SLOW_PROBE = 1.1
# Each language's raw baseline ping should come within this multiple of the machine's floor (the JVM's
# within its own).
FLOOR_TARGET = 1.3
FLOOR_TARGETS = {"java": 1.1}
# A JIT runtime's compiler threads that took more than this share of a side's CPU over the timed repetitions
# were still compiling while the calls were timed (the warm-up's own bound for "quiet": plan.JIT_QUIET).
JIT_SHARE = 0.05
# ... and at least this much of it: thread CPU comes in clock ticks (10 ms), so one tick over a short workload's
# repetitions is no evidence.
JIT_MIN_MS = 30.0


class Flag(StrEnum):
    UNSTABLE = "unstable"  # the repetitions' means spread over UNSTABLE_REP_CV
    BIMODAL = "bimodal"  # the round-trip times have two modes
    NOT_STEADY = "not steady"  # the warm-up did not reach a steady state
    DISAGREE = "disagree"  # the passes disagree
    CPU_UNSTABLE = "cpu unstable"  # the repetitions' CPU per call spreads over UNSTABLE_CPU_REP_CV
    CPU_OVER_RTT = "cpu over rtt"  # client + server CPU over CPU_BOUND times the mean round trip
    WAIT = "wait"  # the p50 call waits on neither side's CPU
    BELOW_FLOOR = "below floor"  # a p50 under every floor around its cell: a method error, never a target met
    JIT_BUSY = "jit busy"  # a JIT's compiler threads took over JIT_SHARE of a side's CPU while the calls were timed


def unstable(rec: dict) -> bool:
    """Whether one record's repetitions spread too far to have measured one steady state."""
    return (rec.get("rtt_us") or {}).get("rep_cv") is not None and rec["rtt_us"]["rep_cv"] > UNSTABLE_REP_CV


def disagree(fig) -> bool:
    """Whether the passes behind a figure (figures.Figure) disagree."""
    return Flag.DISAGREE in figure_flags(fig)


def figure_flags(fig) -> dict:
    """DISAGREE with the CI's half-width and max/min, when either is over its threshold."""
    if not fig or fig.n < 2 or not fig.median:
        return {}
    spread = max(fig.values) / min(fig.values) if fig.values and min(fig.values) > 0 else 1.0
    half_width = (fig.high - fig.low) / 2
    if half_width > PASS_HALF_WIDTH * abs(fig.median) or spread > PASS_MAX_MIN:
        return {Flag.DISAGREE: {"half_width": half_width, "median": fig.median, "max_over_min": spread}}
    return {}


def rtt_flags(recs: list[dict]) -> dict:
    """UNSTABLE, BIMODAL and NOT_STEADY from the passing records of a (cell, workload), one per pass."""
    flags = {}
    spread = [(r.get("pass", 1), r["rtt_us"]["rep_cv"]) for r in recs if unstable(r)]
    if spread:
        flags[Flag.UNSTABLE] = {"rep_cv": spread}
    modes = [(r.get("pass", 1), r["bimodal"]) for r in recs if r.get("bimodal")]
    if modes:
        flags[Flag.BIMODAL] = {"modes": modes}
    not_steady = [r.get("pass", 1) for r in recs if warmed_steady(r) is False]
    if not_steady:
        flags[Flag.NOT_STEADY] = {"passes": not_steady}
    busy = jit_busy(recs)
    if busy:
        flags[Flag.JIT_BUSY] = {"sides": busy}
    return flags


def warmed_steady(rec: dict) -> bool | None:
    """Whether the workload's last warm-up before its timing reached a steady state: the cell's re-warm, pinned as
    the timing is, when it re-warmed processes the warm phase had warmed; else its full warm-up round. The warm
    phase's round runs three cells on two CPUs, where batch medians agree or not with the neighbours' load."""
    warmed = rec.get("warmup_steady") or {}
    return (warmed.get("rewarm") or warmed).get("steady")


def jit_busy(recs: list[dict]) -> list[tuple]:
    """(pass, side, share of the side's CPU, how its warm-up ended) of each side whose JIT compiler threads took
    over JIT_SHARE of its CPU, and at least JIT_MIN_MS, over the timed repetitions."""
    out = []
    for r in recs:
        for side in ("client", "server"):
            share, ms = ((r.get("jit_cpu") or {}).get(f"{side}_{k}") for k in ("share", "ms"))
            if share is not None and share > JIT_SHARE and (ms or 0) >= JIT_MIN_MS:
                out.append((r.get("pass", 1), side, share, ((r.get("warm_phase") or {}).get(side) or {}).get("ended")))
    return out


def cpu_flags(recs: list[dict], cpu_total, rtt_mean, rtt_p50) -> dict:
    """CPU_UNSTABLE, CPU_OVER_RTT and WAIT of a (cell, workload), from its passing records and its figures
    (figures.Figure, µs per call) of client + server CPU, the mean and the p50 round trip."""
    flags = {}
    spread = [cv for r in recs for k in ("client_rep_cv", "server_rep_cv")
              if (cv := (r.get("cpu_us_per_call") or {}).get(k) or 0) > UNSTABLE_CPU_REP_CV]
    if spread:
        flags[Flag.CPU_UNSTABLE] = {"rep_cv": spread}
    if cpu_total and rtt_mean and rtt_mean.median and cpu_total.median > CPU_BOUND * rtt_mean.median:
        flags[Flag.CPU_OVER_RTT] = {"cpu_us": cpu_total.median, "rtt_mean_us": rtt_mean.median}
    idle = rtt_p50.median - cpu_total.median if cpu_total and rtt_p50 and rtt_p50.median else 0.0
    if idle > WAIT_MIN_US and idle > WAIT_SHARE * rtt_p50.median:
        flags[Flag.WAIT] = {"idle_us": idle, "rtt_p50_us": rtt_p50.median}
    return flags


def floor_target(language: str) -> float:
    """How many times the floor a language's raw baseline ping may take."""
    return FLOOR_TARGETS.get(language, FLOOR_TARGET)


def meets_floor_target(multiple: float, language: str) -> bool:
    return multiple <= floor_target(language)


def slow_probes(probes: dict, median: float | None) -> list[tuple]:
    """(probe, key) of the probes over SLOW_PROBE times the median, slowest first."""
    return sorted(((v, k) for k, v in probes.items() if median and v > SLOW_PROBE * median),
                  key=lambda x: (-x[0], x[1]))


def floor_of(rec: dict, floors: dict[int, float], following: dict[str, float] | None = None,
             fastest: bool = False) -> float | None:
    """The floor a record is held against: the lowest of those taken around it, before its server group
    (floor_us), right after its cell (floor_after_us) and before the next group of its pass (`following`, by
    the first one's folder; the last group has none), else the one taken at the start of its pass. Each is
    its p50, or with `fastest` the p50 of its fastest repetition (give `following` of those then). The path's
    own latency moves within a pass on a virtual machine (one default run's group floors ranged 26.7-43.0 µs
    p50), within a cell (a cell's echoString 27.0 µs p50 in its first repetition, 19.2 µs in the next four,
    after a floor of 24.2 µs) and within a floor (five repetitions of 20.4-24.5 µs), so a cell is a method
    error only when it beats the floor on every side of it, at its quickest."""
    floor_us = rec.get("floor_us") or {}
    if floor_us.get("p50") is None:
        return floors.get(rec.get("pass", 1))

    def figure(f: dict) -> float | None:
        return f.get("fastest_repetition_p50", f.get("p50")) if fastest else f.get("p50")
    around = [figure(floor_us), (following or {}).get(floor_us.get("folder")), figure(rec.get("floor_after_us") or {})]
    return min(f for f in around if f is not None)


def path_slack_us(delay_line: dict | None) -> float:
    """How far the delay line's typical crossing moved over the run (conductor/network.delay_line's figures): per
    direction the 5th to 95th percentile of its seconds' p50 excess over the asked delay (network.crossing_spread),
    summed, as every round trip crosses both. Through the delay line (a user-space program on the shared CPUs) the
    path's own time moves more than the veth pair's: one `just bench --network lan` had its floors between 278 and
    308 µs p50. 0 where no delay line ran: the veth pair, or netem (the kernel's own timer, not measured)."""
    spreads = [network.crossing_spread(direction) for direction in (delay_line or {}).values()]
    return sum(high - low for low, high in filter(None, spreads))


def below_floor(recs: list[dict], floors: dict[int, float], following: dict[str, float] | None = None,
                slack_us: float = 0.0) -> dict:
    """BELOW_FLOOR with (pass, p50, floor) of each passing record whose p50 is under the fastest repetition of
    every floor around it (floor_of, fastest; `following`: the next groups' fastest repetitions), less
    `slack_us` (path_slack_us: through a delay line): every call makes at least the floor's round trip over the
    same path, so such a figure says the floor did not take the fastest path the cells took, or the host changed
    between them."""
    under = []
    for r in recs:
        floor, p50 = floor_of(r, floors, following, fastest=True), (r.get("rtt_us") or {}).get("p50")
        if floor is not None and p50 is not None and p50 < floor - slack_us:
            under.append((r.get("pass", 1), p50, floor))
    return {Flag.BELOW_FLOOR: {"passes": under, "slack_us": slack_us}} if under else {}


# -- the flags of a run's figures (figures.Figures) ------------------------------------------------------------

def workload_rtt_flags(figures, cell: str, workload: str) -> dict:
    raised = rtt_flags(figures.passing(cell, workload))
    if figures.on_the_wire(cell):
        raised.update(below_floor(figures.passing(cell, workload), figures.floor_by_pass(),
                                  figures.following_floors(fastest=True), figures.path_slack_us))
    return raised


def workload_cpu_flags(figures, cell: str, workload: str) -> dict:
    return cpu_flags(figures.passing(cell, workload), figures.cpu_total(cell, workload),
                     figures.fig(cell, workload, "rtt_us.mean"), figures.fig(cell, workload, "rtt_us.p50"))


@dataclass(frozen=True)
class Counts:
    """How many timed (cell, workload)s of a run raise each flag."""
    timed: int
    with_cpu: int  # timed with CPU figures: the CPU flags count among these
    unstable: int
    disagree: int  # of the p50 across passes
    cpu_over_rtt: int
    wait: int
    below_floor: int  # method errors: p50 under every floor around its cell


def counts(figures) -> Counts:
    timed = figures.timed_keys()
    with_cpu = [k for k in timed if any(r.get("cpu_us_per_call") for r in figures.passing(*k))]
    cpu = [workload_cpu_flags(figures, *k) for k in with_cpu]
    return Counts(timed=len(timed), with_cpu=len(with_cpu),
                  unstable=sum(1 for k in timed if any(unstable(r) for r in figures.passing(*k))),
                  disagree=sum(1 for k in timed if disagree(figures.fig(*k, "rtt_us.p50"))),
                  cpu_over_rtt=sum(1 for f in cpu if Flag.CPU_OVER_RTT in f),
                  wait=sum(1 for f in cpu if Flag.WAIT in f),
                  below_floor=sum(1 for k in timed if Flag.BELOW_FLOOR in workload_rtt_flags(figures, *k)))
