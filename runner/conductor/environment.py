"""What shapes the numbers of a run: machine, kernel, runtimes, libraries, settings. Into env.json."""
import hashlib
import json
import os
import platform
import subprocess
from pathlib import Path


def _first(path: str, key: str, sep: str = ":") -> str:
    """The value of the first 'key<sep>value' line of a file such as /proc/cpuinfo."""
    try:
        for line in Path(path).read_text().splitlines():
            name, found, value = line.partition(sep)
            if found and name.strip() == key:
                return value.strip().strip('"')
    except OSError:
        pass
    return ""


def _run(argv: list[str], cwd: Path) -> str:
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60)
        return done.stdout.strip() if done.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def language_versions(manifests: list[dict], root: Path) -> dict:
    """Each language's `versions` command's answer, run from the repository (an outside manifest's from its
    folder)."""
    versions = {}
    for m in manifests:
        argv = m.get("versions")
        out = _run(argv, Path(m.get("home") or root)) if argv else ""
        try:
            versions[m["language"]] = json.loads(out) if out else {}
        except json.JSONDecodeError:
            versions[m["language"]] = {"unparsed": out[:500]}
    return versions


def tuning_audits(manifests_dir: Path, outside: tuple[Path, ...] = ()) -> list[dict]:
    """Every language's tuning.json entries (runner/PROTOCOL.md#manifests), for the report: beside each manifest
    of the repository, and beside each manifest from outside it."""
    out = []
    for path in [*sorted(manifests_dir.glob("*/tuning.json")), *(Path(p).parent / "tuning.json" for p in outside)]:
        try:
            out += json.loads(path.read_text(encoding="utf-8")).get("implementations", [])
        except (OSError, ValueError):
            continue
    return out


def code_state(root: Path) -> dict:
    """The commit checked out, whether tracked files differ from it, and a digest of that difference: a
    run that is resumed must find the same code."""
    commit = _run(["git", "rev-parse", "HEAD"], root)
    dirty = bool(_run(["git", "status", "--porcelain", "--untracked-files=no"], root))
    diff = _run(["git", "diff", "HEAD", "--no-ext-diff", "--binary"], root) if dirty else ""
    return {"git_commit": commit or "unknown", "git_dirty": dirty,
            "git_diff_sha256": hashlib.sha256(diff.encode()).hexdigest() if dirty else None}


def host() -> dict:
    """What identifies this boot of this machine, for a run resumed after an interruption."""
    return {"kernel": platform.release(), "cpu_model": _first("/proc/cpuinfo", "model name"),
            "boot_id": _read("/proc/sys/kernel/random/boot_id") or "not exposed"}


def machine(root: Path) -> dict:
    governor = Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    return {
        "cpu_model": _first("/proc/cpuinfo", "model name"),
        "cpus": os.cpu_count(),
        "memory": _first("/proc/meminfo", "MemTotal"),
        "kernel": platform.release(),
        "os": _first("/etc/os-release", "PRETTY_NAME", "=") or platform.platform(),
        "cpu_governor": governor.read_text().strip() if governor.exists() else "not exposed",
        **code_state(root),
        "boot_id": host()["boot_id"],
        "jq": _run(["jq", "--version"], root),
        "bash": _run(["bash", "-c", "echo $BASH_VERSION"], root),
        "runner_python": platform.python_version(),
    }


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


# Kernel settings that shape loopback round trips and are cheap to read.
NET_SETTINGS = {
    "tcp_congestion_control": "/proc/sys/net/ipv4/tcp_congestion_control",
    "tcp_autocorking": "/proc/sys/net/ipv4/tcp_autocorking",
    "tcp_slow_start_after_idle": "/proc/sys/net/ipv4/tcp_slow_start_after_idle",
    "tcp_timestamps": "/proc/sys/net/ipv4/tcp_timestamps",
    "tcp_sack": "/proc/sys/net/ipv4/tcp_sack",
    "tcp_fastopen": "/proc/sys/net/ipv4/tcp_fastopen",
    "tcp_rmem": "/proc/sys/net/ipv4/tcp_rmem",
    "tcp_wmem": "/proc/sys/net/ipv4/tcp_wmem",
    "tcp_tw_reuse": "/proc/sys/net/ipv4/tcp_tw_reuse",
    "tcp_fin_timeout": "/proc/sys/net/ipv4/tcp_fin_timeout",
    "ip_local_port_range": "/proc/sys/net/ipv4/ip_local_port_range",
    "busy_poll": "/proc/sys/net/core/busy_poll",
    "busy_read": "/proc/sys/net/core/busy_read",
    "somaxconn": "/proc/sys/net/core/somaxconn",
    "lo_mtu": "/sys/class/net/lo/mtu",
}


def network() -> dict:
    """The kernel's TCP and loopback settings (None where not readable, e.g. in a container)."""
    return {name: (" ".join(value.split()) if value is not None else None)
            for name, value in ((n, _read(p)) for n, p in NET_SETTINGS.items())}


def steal() -> dict:
    """Whether the kernel reports steal time (the 8th value of /proc/stat's cpu line) and how much so far:
    on a virtual machine it is the time the hypervisor gave our CPUs to others."""
    line = (_read("/proc/stat") or "").splitlines()[:1]
    fields = line[0].split() if line else []
    flags = _first("/proc/cpuinfo", "flags")
    out = {"available": len(fields) >= 9, "hypervisor": "hypervisor" in flags.split(),
           "virtualization": _read("/sys/class/dmi/id/sys_vendor") or "not exposed"}
    if out["available"]:
        out["since_boot_ticks"] = int(fields[8])
        out["ticks_per_s"] = os.sysconf("SC_CLK_TCK")
    return out


def _int(value: str | None) -> int | None:
    return int(value) if value not in (None, "") and value.isdigit() else None


def setup_of(facts: dict[str, str], lanes: int, keep_processes: bool) -> dict:
    """What the shell set up for the run (plan/setup.tsv: its namespaces, cgroups and pinning), as data; the
    report says it in words (analysis/setup.py)."""
    netns = facts.get("netns") == "on"
    return {
        "network": {"netns": netns, "reason": facts.get("netns_reason") or None,
                    **({"server_netns": facts.get("server_netns"), "client_netns": facts.get("client_netns"),
                        "server_ip": facts.get("server_ip"), "client_ip": facts.get("client_ip"),
                        "client_tcp_tw_reuse": 1, "offloads_default": facts.get("offloads") or None,
                        "early_retrans": _int(facts.get("early_retrans"))} if netns else {}),
                    # nftables: where each direction is received; nftables-host: on the clients' host (--server-host)
                    "segments": facts.get("segments") or None},
        "cgroup": {"kind": facts.get("cgroup") or None},
        "pinning": {"mode": facts.get("pin") or None, "reason": facts.get("pin_reason") or None,
                    "server_cpu": _int(facts.get("server_cpu")), "client_cpu": _int(facts.get("client_cpu")),
                    "lanes": lanes},
        "processes": {"kept": keep_processes},
    }


def read_setup(run: Path) -> dict[str, str]:
    """plan/setup.tsv, as the shell wrote it: one `name<TAB>value` a line."""
    path = run / "plan" / "setup.tsv"
    out = {}
    for line in (path.read_text().splitlines() if path.exists() else []):
        name, _, value = line.partition("\t")
        out[name] = value
    return out


def write_env(run: Path, manifests_dir: Path, profile: dict, setup: dict, outside: tuple[Path, ...] = ()) -> dict:
    root = manifests_dir
    manifests = [json.loads(p.read_text()) for p in sorted(manifests_dir.glob("*/manifest.json"))]
    manifests += [json.loads(Path(p).read_text()) | {"home": str(Path(p).parent)} for p in outside]
    env = {
        "run": {
            "run_id": run.name,
            "profile": profile,
            **machine(root),
            "setup": setup,
            "network": network(),
            "steal": steal(),
            "memory_source": "VmHWM (peak) and VmRSS from /proc/<pid>/status, summed over each process group",
            "rtt_source": "each client's monotonic clock around each call; "
                          "summarised with HdrHistogram (3 significant digits)",
        },
        "versions": language_versions(manifests, root),
        "tuning": tuning_audits(manifests_dir, outside),
    }
    (run / "env.json").write_text(json.dumps(env, indent=1, ensure_ascii=False))
    return env
