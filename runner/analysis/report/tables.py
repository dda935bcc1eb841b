"""Publication tables from the report's own blocks: the protocols side by side, a protocol's figures, or a
study beside the run, as Markdown, CSV (text.plain) or LaTeX (booktabs), each with a caption naming the run, its
commit, the machine and the runtimes' versions (`python -m analysis tables RUN --kind ...`)."""
import csv
import io
import re

from . import markdown
from .blocks import Code, Emphasis, Heading, Strong, Table, Text
from .sections.comparisons import side_by_side
from .sections.context import Context
from .sections.protocol import protocol
from .text import Plain, plain

KINDS = ("side-by-side", "protocol", "study")
FORMATS = ("md", "csv", "latex")


class TablesError(Exception):
    pass


def titled(blocks: list) -> list[tuple[str, Table]]:
    """Each table of the blocks with the nearest heading before it as its title."""
    out, title = [], ""
    for b in blocks:
        if isinstance(b, Heading):
            title = b.text
        elif isinstance(b, Table):
            out.append((title, b))
    return out


def chosen(ctx: Context, kind: str, name: str | None = None) -> list[tuple[str, Table]]:
    if kind == "side-by-side":
        found = [(f"p50 round trip, µs (× {ctx.figures.baseline}), {w}", t) for w, t in titled(side_by_side(ctx))]
    elif kind == "protocol":
        if name not in ctx.figures.protocols:
            raise TablesError(f"no protocol {name!r} in the run; it has: {', '.join(ctx.figures.protocols)}")
        found = [(Text(f"{name}: ", title), t) for title, t in titled(protocol(ctx, name))]
    elif kind == "study":
        # imported here: analysis.studies builds on this package
        from .. import studies
        try:
            study = studies.named(studies.load(), name or "")
        except Exception as e:  # an unknown study: the studies module's own message
            raise TablesError(str(e)) from e
        found = titled(studies.study_blocks(ctx, study, 2))
    else:
        raise TablesError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    if not found:
        raise TablesError(f"the run has no {kind} table" + (f" for {name}" if name else ""))
    return found


def provenance(ctx: Context) -> str:
    """The caption's tail: run, commit, machine and versions."""
    run = ctx.run
    versions = ", ".join(f"{k} {v}" for _, vs in sorted(ctx.env.get("versions", {}).items())
                         for k, v in list(vs.items())[:1])
    return (f"Run {run.get('run_id')} (profile {run['profile'].get('name')}, {len(ctx.figures.passes)} pass"
            f"{'es' if ctx.figures.multi else ''}), commit {run.get('git_commit', '?')[:12]}"
            f"{' with local changes' if run.get('git_dirty') else ''}, "
            f"{run.get('cpu_model')} ({run.get('cpus')} CPUs), "
            f"kernel {run.get('kernel')}; runtimes {versions} (every library's version in env.json).")


def caption(ctx: Context, title) -> str:
    """A table's caption: its title and the run's provenance, as plain text."""
    return f"{plain(title)}. {provenance(ctx)}"


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


class Latex(Plain):
    """Inline text as LaTeX: specials escaped, code as \\texttt, strong text as \\textbf, emphasis as \\emph, a link
    as its text (UTF-8 output assumed)."""
    MARKUP = {Code: (r"\texttt{", "}"), Strong: (r"\textbf{", "}"), Emphasis: (r"\emph{", "}")}

    def escape(self, text: str) -> str:
        return "".join(LATEX_SPECIAL.get(ch, ch) for ch in text)


latex_text = Latex()


def as_markdown(caption: str, table: Table) -> str:
    return markdown.inline(Strong(caption)) + "\n\n" + "\n".join(markdown.table(table.header, table.rows))


def as_csv(caption: str, table: Table) -> str:
    buf = io.StringIO()
    buf.write(f"# {caption}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([plain(h) for h in table.header])
    w.writerows([[plain(c) for c in row] for row in table.rows])
    return buf.getvalue()


def as_latex(caption: str, table: Table, label: str) -> str:
    cols = "l" + "r" * (len(table.header) - 1)
    lines = [r"\begin{table}[htbp]", r"  \centering", r"  \small", f"  \\caption{{{latex_text(caption)}}}",
             f"  \\label{{tab:{label}}}", f"  \\begin{{tabular}}{{{cols}}}", r"    \toprule",
             "    " + " & ".join(latex_text(h) for h in table.header) + r" \\", r"    \midrule"]
    lines += ["    " + " & ".join(latex_text(c) for c in row) + r" \\" for row in table.rows]
    lines += [r"    \bottomrule", r"  \end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def render(ctx: Context, kind: str, name: str | None, fmt: str) -> str:
    """The chosen tables in one format, each with its caption, separated by a blank line."""
    out = []
    for i, (title, table) in enumerate(chosen(ctx, kind, name), 1):
        text = caption(ctx, title)
        if fmt == "md":
            out.append(as_markdown(text, table))
        elif fmt == "csv":
            out.append(as_csv(text, table))
        elif fmt == "latex":
            label = re.sub(r"[^a-z0-9]+", "-", f"{ctx.run.get('run_id', 'run')}-{kind}-{name or ''}-{i}".lower())
            out.append(as_latex(text, table, label.strip("-")))
        else:
            raise TablesError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return "\n".join(out) + notes(ctx, fmt)


def notes(ctx: Context, fmt: str) -> str:
    """The notes the tables refer to ([n]), after them."""
    if not ctx.notes.texts:
        return ""
    if fmt == "md":
        return "\nNotes:\n\n" + "".join(f"{i}. {markdown.inline(t)}\n" for i, t in enumerate(ctx.notes.texts, 1))
    if fmt == "csv":
        return "\n" + "".join(f"# [{i}] {' '.join(plain(t).split())}\n" for i, t in enumerate(ctx.notes.texts, 1))
    return ("\n% notes the tables refer to\n\\begin{enumerate}\n"
            + "".join(f"  \\item[{i}.] {latex_text(t)}\n" for i, t in enumerate(ctx.notes.texts, 1))
            + "\\end{enumerate}\n")
