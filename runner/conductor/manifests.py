"""The languages' manifests (runner/PROTOCOL.md#manifests), read by one loader: every */manifest.json under
a folder, each implementation resolved with its manifest's `defaults`, which it inherits:

- `argv_prefix`: put before each of its `server` and `client` argvs (the JVM and its flags, once);
- `quick_start_argv`: put after `argv_prefix` in a profile that times nothing worth publishing
  (`"quick_start": true`: smoke, certify), where a runtime may skip work that pays off only in long runs (the
  JVM's optimising compiler);
- `notes`: put after its own notes;
- any other key (`jit_threads`, `warmup_max_s`, ...): its value when the implementation does not state the key.

An implementation declared `unsupported` states only why and takes no defaults; one may decline some with
`"no_defaults": ["notes", ...]`. The resolved implementation has neither `defaults` nor `no_defaults`.
"""
import json
from pathlib import Path

PREFIXED = ("server", "client")


class ManifestError(ValueError):
    pass


def resolve_implementation(impl: dict, defaults: dict, quick_start: bool = False) -> dict:
    """One implementation with its manifest's defaults applied (quick_start: with its quick_start_argv)."""
    declined = set(impl.get("no_defaults", ()))
    out = {k: v for k, v in impl.items() if k != "no_defaults"}
    if impl.get("unsupported") is not None:
        return out
    for key, value in defaults.items():
        if key in declined or key == "quick_start_argv":
            continue
        if key == "argv_prefix":
            prefix = list(value) + (list(defaults.get("quick_start_argv", ())) if quick_start else [])
            for role in PREFIXED:
                if isinstance(out.get(role), list):
                    out[role] = prefix + out[role]
        elif key == "notes":
            out["notes"] = list(out.get("notes", [])) + list(value)
        elif key not in out:
            out[key] = value
    return out


def resolve(manifest: dict, quick_start: bool = False) -> dict:
    """A manifest with each implementation resolved and without its `defaults`."""
    defaults = manifest.get("defaults") or {}
    out = {k: v for k, v in manifest.items() if k != "defaults"}
    out["implementations"] = [resolve_implementation(i, defaults, quick_start)
                              for i in manifest.get("implementations", [])]
    return out


def paths(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*/manifest.json") if p.is_file())


def read(path: Path, quick_start: bool = False) -> dict:
    """One manifest, resolved; a bad one fails with its name."""
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise ManifestError(f"{path} is not a readable JSON manifest: {e}") from None
    if not (isinstance(manifest, dict) and manifest.get("language")
            and isinstance(manifest.get("implementations"), list)):
        raise ManifestError(f"{path} needs \"language\" and an \"implementations\" array (runner/PROTOCOL.md)")
    return resolve(manifest, quick_start)


def load(folder: Path, quick_start: bool = False, outside: tuple[Path, ...] = ()) -> list[dict]:
    """Every manifest under `folder`, resolved, in the order of their paths, then each manifest from outside the
    repository (`--manifest`), marked with its folder (`home`): its commands run from there."""
    found = paths(folder)
    if not found:
        raise ManifestError(f"no */manifest.json under {folder}")
    manifests = [read(path, quick_start) for path in found]
    for path in outside:
        path = Path(path).resolve()
        manifest = read(path, quick_start) | {"home": str(path.parent)}
        if manifest["language"] in {m["language"] for m in manifests}:
            raise ManifestError(f"{path}: the language '{manifest['language']}' is already declared; an outside "
                                "manifest names a language of its own")
        manifests.append(manifest)
    return manifests
