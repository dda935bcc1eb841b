"""xsd:float and xsd:double in their lexical form (XML Schema 1.0, 3.2.4/3.2.5): NaN, INF and -INF for
the non-finite values. Python writes 'nan' and 'inf', which other stacks' schema parsers refuse, and both
spyne and zeep write floats with str()/repr(): the adapters send them through `xsd_float` instead."""
from __future__ import annotations

import math


def xsd_float(value: float) -> str:
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "INF" if value > 0 else "-INF"
    return repr(value)  # the shortest text that reads back to the same double
