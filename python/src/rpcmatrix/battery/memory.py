"""The server's resident memory: VmRSS from /proc/<pid>/status, summed over its process group (the runner
starts each server as the leader of a group of its own)."""
from __future__ import annotations

from pathlib import Path


def group_rss_kb(pgid: int) -> int | None:
    total, found = 0, False
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) != pgid and int(stat.parent.name) != pgid:
            continue
        try:
            for line in (stat.parent / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
                    found = True
        except OSError:
            continue
    return total if found else None
