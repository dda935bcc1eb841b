"""The studies on their networks (`python -m analysis studies RUN --beside RUN2 ...`): runs of one study's profile
over different networks (`--network`: loopback, lan100, lan10, wan, ...), each published figure beside every run's,
its ratio to the published figure, and how each run's figure moved from the first run's (the loopback one, as
given first). A study measured on a LAN or the Internet is met by the run on a network like its own: Juric's and
Rozman's 100 Mbit/s switched LAN (`lan100`), Allman's 10 Mbit/s Ethernet (`lan10`) and the Internet (`wan`).

Each run's figure is the one studies.py gives it (same cells, statistic, basis); a figure one run cannot measure
says why in its column."""
from pathlib import Path

from . import studies
from .report import markdown
from .report.blocks import Code, Heading, Paragraph, Table, Text, Value
from .report.figures import Figure
from .report.text import NONE

NETWORKS_REPORT = "NETWORKS.md"


class NetworksError(ValueError):
    pass


def network_of(ctx) -> str:
    """A run's network scenario as its env.json has it (runner/conductor/network.py), else loopback."""
    setup = ctx.run.get("setup") or {}
    scenario = (setup.get("network") or {}).get("scenario") or {}
    return scenario.get("name") or "loopback"


def measured(ctx, study: dict, spec: dict) -> tuple[Figure | None, object]:
    """The run's figure for the spec (studies.MEASURES), or None with why not."""
    if spec.get("not_producible"):
        return None, "not producible"
    try:
        return studies.median_of(studies.MEASURES[spec["quantity"]](ctx, study, spec).values), ""
    except studies.Missing as why:
        return None, Text("not measured: ", why.text)


def cell_text(spec: dict, fig: Figure | None, why) -> object:
    """One run's column: the figure, and its ratio to the published one."""
    if fig is None:
        return why
    text = studies.measured_text(spec, fig)
    if studies.is_claim(spec):
        return text
    return Text(text, " (", Value(fig.median / spec["published"], digits=2, prefix="×"), ")")


def moved(spec: dict, first: Figure | None, fig: Figure | None) -> object:
    """How a run's figure moved from the first run's: their ratio (a claim: whether it still holds)."""
    if first is None or fig is None or not first.median:
        return NONE
    if studies.is_claim(spec):
        return "holds" if studies.claim_holds(spec, fig) else "no longer holds"
    return Value(fig.median / first.median, digits=2, prefix="×")


def study_table(contexts: list, study: dict) -> list:
    names = [network_of(ctx) for ctx in contexts]
    header = ["figure (source)", "published", *(f"{n}: measured (÷ published)" for n in names),
              *(f"{n} ÷ {names[0]}" for n in names[1:])]
    rows = []
    for spec in study["figures"]:
        figures = [measured(ctx, study, spec) for ctx in contexts]
        rows.append([f"{spec['what']} ({spec['source']})", studies.published_text(spec),
                     *(cell_text(spec, fig, why) for fig, why in figures),
                     *(moved(spec, figures[0][0], fig) for fig, _ in figures[1:])])
    runs = Text.join(", ", [Text(Code(str(ctx.run.get("run_id", "?"))), f" ({n})") for ctx, n in zip(contexts, names,
                                                                                                    strict=True)])
    return [Heading(2, study["title"]), Paragraph(f"The study: {study['conditions']}"),
            Paragraph(Text("Runs: ", runs, ".")), Table(header, rows)]


def document(runs: list[Path], idl: Path, names: list[str] | None = None) -> list:
    """NETWORKS.md's blocks for runs of one study's profile, the first the one the others are set against: the
    named studies (a run of Juric's profile serves Rozman's too: the same workloads and stacks), else the
    profile's."""
    contexts = [studies.load_run(run) for run in runs]
    profiles = {ctx.run["profile"]["name"] for ctx in contexts}
    if len(profiles) != 1:
        raise NetworksError("--beside takes runs of the same profile: these are of " + ", ".join(sorted(profiles)))
    every = studies.load(idl)
    chosen = [studies.named(every, n) for n in names] if names else studies.of_profile(every, profiles.pop())
    if not chosen:
        raise NetworksError("--beside compares runs of a study's profile (juric, rozman, allman, gray, gredler)")
    out = [Heading(1, "The study on its networks"),
           Paragraph(Text("Each published figure beside each run's, on the study's own stack and basis as ",
                          Code("STUDY.md"), " has it, with the ratio to the published figure in brackets; the last "
                          "columns: how each run's figure moved from the first run's (a ratio of two stacks that "
                          "moves towards 1 on a slower network is the path's cost dwarfing the stacks').")),
           ]
    for study in chosen:
        out += study_table(contexts, study)
    return out


def text_for(runs: list[Path], idl: Path, names: list[str] | None = None) -> str:
    return markdown.render(document(runs, idl, names))
