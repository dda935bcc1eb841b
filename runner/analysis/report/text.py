"""How figures, flags and statuses read in a report, whatever its format: numbers to three significant
digits, a median with its CI, and the marks of statuses and flags."""
from .flags import Flag, disagree

STATUS_MARK = {"pass": "✅", "fail": "❌", "error": "💥", "timeout": "⏱", "unsupported": "➖"}
MARK = {Flag.UNSTABLE: "⚠", Flag.BIMODAL: "⧉", Flag.NOT_STEADY: "⌛", Flag.DISAGREE: "≠",
        Flag.CPU_UNSTABLE: "⚠cpu", Flag.CPU_OVER_RTT: "⚠>rtt", Flag.WAIT: "⏸wait", Flag.BELOW_FLOOR: "⛔floor",
        Flag.JIT_BUSY: "⚙jit"}
NONE = "–"  # a figure that is missing


def num(x, digits: int = 3) -> str:
    """digits significant digits, or whole with thousands separators once that is more."""
    if x is None:
        return NONE
    if x == 0:
        return "0"
    if abs(x) >= 10 ** digits:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def median(fig, digits: int = 3, scale: float = 1.0, flag: bool = True) -> str:
    """A figure's median, with its CI in brackets when there are several passes, and ≠ when they disagree
    (flag)."""
    if fig is None:
        return NONE
    text = num(fig.median * scale, digits)
    if fig.n > 1:
        text += f" [{num(fig.low * scale, digits)}–{num(fig.high * scale, digits)}]"
        if flag and disagree(fig):
            text += " " + MARK[Flag.DISAGREE]
    return text


def modes(bimodal: dict) -> str:
    """The modes of a bimodal distribution (stats.bimodality) with their shares of the calls."""
    return " and ".join(f"{m:g} µs ({s:.0%})" for m, s in zip(bimodal["modes_us"], bimodal["shares"], strict=False))


def one_line(text: str) -> str:
    """Text on one line, for a table cell."""
    return " ".join(text.split())


def facts(value) -> str:
    """What a stack reported about itself (nested dicts and lists) as one line."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {facts(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "/".join(facts(v) for v in value)
    return str(value)
