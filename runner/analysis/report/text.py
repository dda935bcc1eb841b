"""How figures, flags and statuses read in a report, whatever its format: numbers to three significant
digits, a median with its CI, and the marks of statuses and flags. value() makes a figure of the report's data
(blocks.Value); Plain renders inline text and cells as plain text, and each format's renderer derives from it."""
from .blocks import Code, Emphasis, Link, Mark, NoteRef, Status, Strong, Styled, Text, Value
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


def value(fig, digits: int = 3, scale: float = 1.0, flag: bool = True, **how) -> Value:
    """A figure (figures.Figure) as the report shows it: its median, with its CI when there are several passes,
    and ≠ when they disagree (flag); `how`: Value's spec, prefix and unit."""
    if fig is None:
        return Value(None, digits=digits, **how)
    several = fig.n > 1
    return Value(fig.median * scale, fig.low * scale if several else None, fig.high * scale if several else None,
                 digits, marks=(Mark(Flag.DISAGREE),) if several and flag and disagree(fig) else (), **how)


def times(multiple: float | None, spec: str = ".2f") -> Value:
    """A multiple: ×1.23."""
    return Value(multiple, spec=spec, prefix="×")


def met(ok: bool) -> Text:
    """Whether a target is met: ✅ met, or ❌ not met."""
    return Text(Status("pass"), " met") if ok else Text(Status("fail"), " not met")


def number(x, digits: int = 3, spec: str | None = None) -> str:
    return NONE if x is None else format(x, spec) if spec else num(x, digits)


def words(run) -> str:
    """How a figure, a status, a mark or a note reference reads, in any format."""
    if isinstance(run, Value):
        if run.value is None:
            return NONE
        text = run.prefix + number(run.value, run.digits, run.spec)
        if run.low is not None and run.high is not None:
            text += f" [{number(run.low, run.digits, run.spec)}–{number(run.high, run.digits, run.spec)}]"
        return text + run.unit + "".join(" " + words(m) for m in run.marks)
    if isinstance(run, Status):
        return STATUS_MARK.get(run.status, run.status)
    if isinstance(run, Mark):
        return MARK[run.flag] + (words(run.note) if run.note else "")
    if isinstance(run, NoteRef):
        return f"[{run.number}]"
    raise TypeError(f"not a run of text: {run!r}")


def median(fig, digits: int = 3, scale: float = 1.0, flag: bool = True) -> str:
    """A figure's median as plain text (value())."""
    return words(value(fig, digits, scale, flag))


class Plain:
    """Inline text (blocks.Text, or any of its runs) as plain text: the marks of code, strong and emphasised text
    and a link's target dropped. A format's renderer derives from it: how it escapes text, what it puts around
    code, strong and emphasised text (MARKUP) and how it links."""
    MARKUP = {Code: ("", ""), Strong: ("", ""), Emphasis: ("", "")}

    def escape(self, text: str) -> str:
        return text

    def link(self, text: str, target: str) -> str:
        """A link, its text already rendered."""
        return text

    def __call__(self, x) -> str:
        if isinstance(x, str):
            return self.escape(x)
        if isinstance(x, Text):
            return "".join(self(run) for run in x.runs)
        if isinstance(x, Styled):
            before, after = self.MARKUP[type(x)]
            return before + self.escape(x.text) + after
        if isinstance(x, Link):
            return self.link(self(x.text), x.target)
        return self.escape(words(x))


plain = Plain()


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
