"""The pieces a report is made of, whatever it is rendered to, as data: blocks (headings, paragraphs, tables,
lists and the numbered notes the text refers to) and what they hold. Inline text (Text) is a sequence of typed
runs: plain text (str), Code, Strong, Emphasis, a Link, a figure (Value), a record's Status, a flag's Mark and a
reference to a note (NoteRef); a table cell is any of those. Each renderer formats them its own way (text.plain,
markdown, html, tables' CSV and LaTeX); none reads another's output."""
from dataclasses import dataclass

from .flags import Flag


@dataclass(frozen=True)
class Styled:
    """Text in a style of its own, which each renderer marks its way (text.Plain.MARKUP)."""
    text: str


class Code(Styled):
    """A name as the code, a file or a command spells it."""


class Strong(Styled):
    pass


class Emphasis(Styled):
    pass


@dataclass(frozen=True)
class Link:
    text: "str | Code"
    target: str  # a file of the report, relative to the one that links to it


@dataclass(frozen=True)
class NoteRef:
    """A reference to the file's note number `number` (Notes.ref)."""
    number: int


@dataclass(frozen=True)
class Mark:
    """The mark of a flag a figure raises (text.MARK), with the note that says more where there is one."""
    flag: Flag
    note: NoteRef | None = None


@dataclass(frozen=True)
class Status:
    """A record's status (pass, fail, error, timeout, unsupported): read as its mark (text.STATUS_MARK); a cell
    that leads with one is coloured as the interop matrix colours it."""
    status: str


@dataclass(frozen=True)
class Value:
    """A figure: its value (None: missing), with the 95% interval [low, high] across passes where there are
    several, read to `digits` significant digits (text.num) or by a format spec (".2f", ".0%"), after a prefix
    ("×") and before a unit (" µs"), then the marks of the flags it raises."""
    value: float | None
    low: float | None = None
    high: float | None = None
    digits: int = 3
    spec: str | None = None
    prefix: str = ""
    unit: str = ""
    marks: tuple = ()


RUNS = (str, Code, Strong, Emphasis, Link, NoteRef, Mark, Status, Value)


class Text:
    """Inline text: a sequence of runs (RUNS), made of runs and other Texts, flattened; empty strings and None
    are dropped and adjacent strings joined, so that two Texts that read alike are equal."""
    __slots__ = ("runs",)

    def __init__(self, *parts):
        runs: list = []
        for part in parts:
            for run in part.runs if isinstance(part, Text) else (part,):
                if run is None or run == "":
                    continue
                if not isinstance(run, RUNS):
                    raise TypeError(f"not a run of text: {run!r}")
                if isinstance(run, str) and runs and isinstance(runs[-1], str):
                    runs[-1] += run
                else:
                    runs.append(run)
        object.__setattr__(self, "runs", tuple(runs))

    def __setattr__(self, name, value):
        raise AttributeError("Text is immutable")

    @classmethod
    def join(cls, sep, parts) -> "Text":
        """The parts with sep between each two, as str.join."""
        out: list = []
        for i, part in enumerate(parts):
            out += [sep, part] if i else [part]
        return cls(*out)

    def of(self, kind) -> list:
        """The runs of a type (Value, Mark, Code, ...), in order."""
        return [run for run in self.runs if isinstance(run, kind)]

    def __contains__(self, part) -> bool:
        """Whether part (a run or a Text) stands in this text: its runs in a row, its first and last plain runs
        as the end and the start of this text's (a plain run alone: within one of this text's)."""
        want, have = Text(part).runs, self.runs
        if len(want) == 1 and isinstance(want[0], str):
            return any(isinstance(run, str) and want[0] in run for run in have)

        def fits(i: int, j: int) -> bool:
            run, wanted = have[i + j], want[j]
            if isinstance(wanted, str) and isinstance(run, str) and 0 < j < len(want) - 1:
                return run == wanted
            if isinstance(wanted, str) and isinstance(run, str):
                return run.endswith(wanted) if j == 0 else run.startswith(wanted)
            return run == wanted
        return any(all(fits(i, j) for j in range(len(want))) for i in range(len(have) - len(want) + 1))

    def __add__(self, other):
        return Text(self, other)

    def __radd__(self, other):
        return Text(other, self)

    def __bool__(self) -> bool:
        return bool(self.runs)

    def __eq__(self, other) -> bool:
        return isinstance(other, Text) and self.runs == other.runs

    def __hash__(self) -> int:
        return hash(self.runs)

    def __repr__(self) -> str:
        return f"Text{self.runs!r}"


@dataclass(frozen=True)
class Heading:
    level: int
    text: "str | Text"


@dataclass(frozen=True)
class Paragraph:
    text: "str | Text"


@dataclass(frozen=True)
class Table:
    header: list
    rows: list  # lists of cells, each a run or a Text (a renderer escapes what its format needs)

    def row(self, first) -> list:
        """The row whose first cell is `first` (a str matches a cell of that plain text alone)."""
        return next(row for row in self.rows if Text(row[0]) == Text(first))

    def cell(self, first, column):
        """The cell of the row whose first cell is `first` under the header `column`, as Text."""
        return Text(self.row(first)[self.header.index(column)])


@dataclass(frozen=True)
class Bullets:
    items: list


@dataclass(frozen=True)
class Numbered:
    items: list


class Notes:
    """The report's notes, numbered in the order the text first refers to each."""

    def __init__(self):
        self.texts: list[Text] = []

    def ref(self, text) -> NoteRef:
        """The reference to the note with this text, added if new."""
        text = Text(text)
        if text not in self.texts:
            self.texts.append(text)
        return NoteRef(self.texts.index(text) + 1)
