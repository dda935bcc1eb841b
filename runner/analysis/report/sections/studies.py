"""For a run of a study's profile (`juric`, `allman`, ...): the figures that study published beside the run's,
as analysis/studies.py sets them, so that the report a run publishes carries them."""
from .context import Context


def against_the_study(ctx: Context) -> list:
    # imported here: analysis.studies builds on this package, which would otherwise import it half made
    from ...studies import report_section
    return report_section(ctx)
