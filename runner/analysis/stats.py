"""Round-trip statistics from the clients' raw per-call samples, through HdrHistogram.

Every language's client reports raw nanoseconds, so every cell is summarised by the same code and the
same histogram library, whatever its language.
"""
import math
import statistics

from hdrh.histogram import HdrHistogram

LOWEST_NS = 1
HIGHEST_NS = 600 * 10**9  # ten minutes: no single call may take longer without being a timeout
SIGNIFICANT_DIGITS = 3


def histogram_of(samples_ns: list[int]) -> HdrHistogram:
    h = HdrHistogram(LOWEST_NS, HIGHEST_NS, SIGNIFICANT_DIGITS)
    for v in samples_ns:
        h.record_value(min(max(int(v), LOWEST_NS), HIGHEST_NS))
    return h


def trimmed_mean(rep_means: list[float]) -> float:
    """Juric et al.: drop the fastest and the slowest repetition, average the rest."""
    if len(rep_means) < 3:
        return statistics.fmean(rep_means)
    kept = sorted(rep_means)[1:-1]
    return statistics.fmean(kept)


def cv(values: list[float]) -> float | None:
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    return statistics.stdev(values) / mean if mean else None


def summarize(repetitions: list[list[int]]) -> dict:
    """rtt_us: min, p50, p90, p99, p999, max, mean, stdev, cv, trimmed_mean, rep_cv (all µs)."""
    flat = [v for rep in repetitions for v in rep]
    if not flat:
        raise ValueError("no samples")
    h = histogram_of(flat)
    rep_means = [statistics.fmean(rep) for rep in repetitions if rep]
    trimmed = sorted(rep_means)[1:-1] if len(rep_means) >= 3 else rep_means
    mean = statistics.fmean(flat)
    stdev = statistics.pstdev(flat)
    us = 1e-3
    return {
        "rtt_us": {
            "min": min(flat) * us,
            "p50": h.get_value_at_percentile(50) * us,
            "p90": h.get_value_at_percentile(90) * us,
            "p99": h.get_value_at_percentile(99) * us,
            "p999": h.get_value_at_percentile(99.9) * us,
            "max": max(flat) * us,
            "mean": mean * us,
            "stdev": stdev * us,
            "cv": stdev / mean if mean else None,
            "trimmed_mean": trimmed_mean(rep_means) * us,
            "rep_cv": cv(trimmed),
        },
        # HdrHistogram's compressed V2 encoding (already base64): any HdrHistogram library can decode and merge it.
        "histogram": h.encode().decode("ascii"),
    }


def round_sig(x: float | None, digits: int = 4) -> float | None:
    if x is None or x == 0 or not math.isfinite(x):
        return x
    return round(x, -int(math.floor(math.log10(abs(x)))) + digits - 1)
