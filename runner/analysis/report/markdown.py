"""The report's pieces (blocks) as Markdown; table() is also AGREEMENT.md's."""
from .blocks import Bullets, Heading, Numbered, Paragraph, Table


def table(header: list[str], rows: list[list]) -> list[str]:
    """A Markdown table and the blank line after it; a cell's pipes are escaped and its lines joined."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in row) + " |" for row in rows]
    return out + [""]


def lines(block) -> list[str]:
    """One block's lines, ending with a blank one."""
    if isinstance(block, Heading):
        return ["#" * block.level + " " + block.text, ""]
    if isinstance(block, Paragraph):
        return [block.text, ""]
    if isinstance(block, Table):
        return table(block.header, block.rows)
    if isinstance(block, Bullets):
        return [f"- {item}" for item in block.items] + [""]
    if isinstance(block, Numbered):
        return [f"{i}. {item}" for i, item in enumerate(block.items, 1)] + [""]
    raise TypeError(f"not a block: {block!r}")


def render(blocks: list) -> str:
    return "\n".join(line for block in blocks for line in lines(block)) + "\n"
