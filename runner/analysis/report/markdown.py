"""The report's pieces (blocks) as Markdown: REPORT.md, report/*.md, and the other files the analysis writes
(AGREEMENT.md, COMPARE.md, CALIBRATION.md, STUDY.md, BATTERY.md)."""
from .blocks import Bullets, Code, Emphasis, Heading, Numbered, Paragraph, Strong, Table
from .text import Plain


class Markdown(Plain):
    """Inline text as Markdown: `code`, **strong**, *emphasis* and [links](target); text as it is."""
    MARKUP = {Code: ("`", "`"), Strong: ("**", "**"), Emphasis: ("*", "*")}

    def link(self, text: str, target: str) -> str:
        return f"[{text}]({target})"


inline = Markdown()


def table(header: list, rows: list[list]) -> list[str]:
    """A Markdown table and the blank line after it; a cell's pipes are escaped and its lines joined."""
    out = ["| " + " | ".join(inline(h) for h in header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(inline(c).replace("|", "\\|").replace("\n", " ") for c in row) + " |" for row in rows]
    return out + [""]


def lines(block) -> list[str]:
    """One block's lines, ending with a blank one."""
    if isinstance(block, Heading):
        return ["#" * block.level + " " + inline(block.text), ""]
    if isinstance(block, Paragraph):
        return [inline(block.text), ""]
    if isinstance(block, Table):
        return table(block.header, block.rows)
    if isinstance(block, Bullets):
        return [f"- {inline(item)}" for item in block.items] + [""]
    if isinstance(block, Numbered):
        return [f"{i}. {inline(item)}" for i, item in enumerate(block.items, 1)] + [""]
    raise TypeError(f"not a block: {block!r}")


def render(blocks: list) -> str:
    return "\n".join(line for block in blocks for line in lines(block)) + "\n"
