"""The pieces a report is made of, whatever it is rendered to: headings, paragraphs, tables and lists of
text, and the numbered notes the text refers to. Text may carry Markdown's inline `code` and **strong**."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Table:
    header: list
    rows: list  # lists of cells, each any text (a renderer escapes what its format needs)


@dataclass(frozen=True)
class Bullets:
    items: list


@dataclass(frozen=True)
class Numbered:
    items: list


class Notes:
    """The report's notes, numbered in the order the text first refers to each."""

    def __init__(self):
        self.texts: list[str] = []

    def ref(self, text: str) -> str:
        """The reference to the note with this text ("[n]"), added if new."""
        if text not in self.texts:
            self.texts.append(text)
        return f"[{self.texts.index(text) + 1}]"
