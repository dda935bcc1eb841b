"""Round-trip statistics from the clients' raw per-call samples, through HdrHistogram.

Every language's client reports raw nanoseconds, so every cell is summarised by the same code and the
same histogram library, whatever its language. Also: whether a distribution has two modes (a loopback on
a virtual machine can switch between about 20 and 80 µs per round trip), and the median of a figure
across passes with its confidence interval.
"""
import bisect
import itertools
import math
import statistics
from collections import Counter

from hdrh.histogram import HdrHistogram

LOWEST_NS = 1
HIGHEST_NS = 600 * 10**9  # ten minutes: no single call may take longer without being a timeout
SIGNIFICANT_DIGITS = 3

# Bimodality: a histogram of log(ns) in bins of 4% width, smoothed by a Gaussian of 1.5 bins.
BIMODAL_BIN = math.log(1.04)
BIMODAL_SMOOTH_BINS = 1.5
BIMODAL_MIN_SHARE = 0.10
BIMODAL_MIN_RATIO = 1.4
BIMODAL_MAX_VALLEY = 0.5
BIMODAL_MIN_SAMPLES = 50


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


def _quantum(values) -> int:
    """The clock's step, when every sample is a multiple of one (a microsecond clock gives 1000)."""
    q = 0
    for v in values:
        q = math.gcd(q, int(v))
        if q == 1:
            break
    return max(q, 1)


def bimodality(samples_ns: list[int]) -> dict | None:
    """Whether the samples have two modes: a histogram of log(ns) (bins 4% wide; a clock's step is spread
    evenly over its width, so a coarse clock makes no comb), smoothed by a Gaussian of 1.5 bins; two local
    maxima that each hold at least 10% of the samples (split at the lowest point between them), at least
    1.4x apart, with that lowest point under half the smaller peak. None if not, or if there are fewer than
    50 samples; else {"modes_us": [low, high], "shares": [low's, high's]}."""
    counts = Counter(int(v) for v in samples_ns if v > 0)
    n = sum(counts.values())
    if n < BIMODAL_MIN_SAMPLES:
        return None
    q = _quantum(counts)
    # the range: from the 0.5th to the 99.5th percentile, so a few outliers do not stretch the bins
    ordered = sorted(counts)
    lo_cut, hi_cut, seen = None, None, 0
    for v in ordered:
        seen += counts[v]
        if lo_cut is None and seen >= 0.005 * n:
            lo_cut = v
        if seen >= 0.995 * n:
            hi_cut = v + q
            break
    base = math.log(lo_cut)
    nbins = min(int((math.log(hi_cut) - base) / BIMODAL_BIN) + 2, 2000)
    if nbins < 4:
        return None
    hist = [0.0] * nbins
    for v, c in counts.items():
        a = (math.log(v) - base) / BIMODAL_BIN
        b = (math.log(v + q) - base) / BIMODAL_BIN if q > 1 else a
        if b - a < 1e-9:
            i = int(a)
            if 0 <= i < nbins:
                hist[i] += c
            continue
        for i in range(max(int(a), 0), min(int(b) + 1, nbins)):  # spread the step over the bins it covers
            overlap = min(b, i + 1) - max(a, i)
            if overlap > 0:
                hist[i] += c * overlap / (b - a)
    radius = int(4 * BIMODAL_SMOOTH_BINS)
    kernel = [math.exp(-0.5 * (k / BIMODAL_SMOOTH_BINS) ** 2) for k in range(-radius, radius + 1)]
    total_k = sum(kernel)
    smooth = [sum(hist[i + k - radius] * kernel[k] for k in range(len(kernel)) if 0 <= i + k - radius < nbins) / total_k
              for i in range(nbins)]
    peaks = [i for i in range(nbins)
             if smooth[i] > 0 and (i == 0 or smooth[i] > smooth[i - 1])
             and (i == nbins - 1 or smooth[i] >= smooth[i + 1])]
    in_range = sum(hist)
    best = None
    for x in range(len(peaks)):
        for y in range(x + 1, len(peaks)):
            i, j = peaks[x], peaks[y]
            if math.exp((j - i) * BIMODAL_BIN) < BIMODAL_MIN_RATIO:
                continue
            valley = min(range(i, j + 1), key=lambda k: smooth[k])
            smaller = min(smooth[i], smooth[j])
            if smooth[valley] >= BIMODAL_MAX_VALLEY * smaller:
                continue
            left = sum(hist[:valley]) + hist[valley] / 2
            shares = [left / in_range, 1 - left / in_range]
            if min(shares) < BIMODAL_MIN_SHARE:
                continue
            if best is None or smaller > best[0]:
                best = (smaller, i, j, shares)
    if best is None:
        return None
    _, i, j, shares = best

    def mode(k: int) -> float:
        return math.exp(base + (k + 0.5) * BIMODAL_BIN) / 1000.0
    return {"modes_us": [round_sig(mode(i), 3), round_sig(mode(j), 3)], "shares": [round(s, 3) for s in shares]}


# Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom.
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]


def t95(df: int) -> float:
    return _T95[df - 1] if 1 <= df <= len(_T95) else 1.96


def median_ci(values: list[float]) -> dict:
    """The median of a figure across passes (or runs), with a 95% confidence interval.

    With 2 to 5 values the interval is Student's t-interval (± t(0.975, n-1)·s/√n), on the log scale when
    every value is positive (times, ratios: the interval around their geometric mean stays positive), on the
    values otherwise: too few values for a distribution-free interval on the median. From 6 values on it is the
    distribution-free interval on the median from order statistics (binomial, at least 95% coverage).
    One value: low = high = the value. Returns {"median", "low", "high", "n", "method"}."""
    vals = sorted(float(v) for v in values if v is not None)
    n = len(vals)
    if n == 0:
        raise ValueError("no values")
    med = statistics.median(vals)
    if n == 1:
        return {"median": med, "low": med, "high": med, "n": 1, "method": "one value"}
    if n <= 5:
        if vals[0] > 0:
            # times and their ratios are positive and spread by factors: the interval on the log scale (around
            # the geometric mean) stays positive, where a t-interval on 3 values of ×2.3 gave [0.21–5] or less
            logs = [math.log(v) for v in vals]
            half = t95(n - 1) * statistics.stdev(logs) / math.sqrt(n)
            centre = statistics.fmean(logs)
            return {"median": med, "low": math.exp(centre - half), "high": math.exp(centre + half), "n": n,
                    "method": "t-interval on the log scale"}
        mean = statistics.fmean(vals)
        half = t95(n - 1) * statistics.stdev(vals) / math.sqrt(n)
        return {"median": med, "low": mean - half, "high": mean + half, "n": n, "method": "t-interval on the mean"}
    # the widest k with P(Binomial(n, 1/2) < k) <= 2.5%: [x_(k), x_(n-k+1)] covers the median with >= 95%
    k, cumulative = 0, 0.0
    while True:
        p = math.comb(n, k) / 2 ** n
        if cumulative + p > 0.025:
            break
        cumulative += p
        k += 1
    k = max(k, 1)
    return {"median": med, "low": vals[k - 1], "high": vals[n - k], "n": n, "method": "order statistics on the median"}


def values_at_percentiles(h: HdrHistogram, percentiles) -> dict[float, int]:
    """HdrHistogram's value at each percentile, as its get_value_at_percentile gives it, from one running
    sum over the counts (C loops: accumulate, bisect) where the library walks its 31,744 counts in Python
    once per percentile (6 ms for four; report.html asks for 720 sets)."""
    n = min(h.counts_len, h.encoder.payload.counts_len)
    running = list(itertools.accumulate(h.counts[:n]))
    values = {}
    for p in percentiles:
        index = bisect.bisect_left(running, h.get_target_count_at_percentile(p))
        if index >= n:
            values[p] = 0
            continue
        value = h.get_value_from_index(index)
        values[p] = h.get_highest_equivalent_value(value) if p else h.get_lowest_equivalent_value(value)
    return values


def summarize(repetitions: list[list[int]]) -> dict:
    """rtt_us: min, p50, p90, p99, p999, max, mean, stdev, cv, trimmed_mean, rep_cv (all µs); bimodal
    (None, or the two modes and their shares: see bimodality); histogram."""
    flat = [v for rep in repetitions for v in rep]
    if not flat:
        raise ValueError("no samples")
    h = histogram_of(flat)
    rep_means = [statistics.fmean(rep) for rep in repetitions if rep]
    trimmed = sorted(rep_means)[1:-1] if len(rep_means) >= 3 else rep_means
    mean = statistics.fmean(flat)
    stdev = statistics.pstdev(flat)
    us = 1e-3
    at = values_at_percentiles(h, (50, 90, 99, 99.9))
    return {
        "rtt_us": {
            "min": min(flat) * us,
            "p50": at[50] * us,
            "p90": at[90] * us,
            "p99": at[99] * us,
            "p999": at[99.9] * us,
            "max": max(flat) * us,
            "mean": mean * us,
            "stdev": stdev * us,
            "cv": stdev / mean if mean else None,
            "trimmed_mean": trimmed_mean(rep_means) * us,
            "rep_cv": cv(trimmed),
        },
        "bimodal": bimodality(flat),
        # HdrHistogram's compressed V2 encoding (already base64): any HdrHistogram library can decode and merge it.
        "histogram": h.encode().decode("ascii"),
    }


def round_sig(x: float | None, digits: int = 4) -> float | None:
    if x is None or x == 0 or not math.isfinite(x):
        return x
    return round(x, -int(math.floor(math.log10(abs(x)))) + digits - 1)
