"""Build the Teams app package: ``manifest.json`` (app id filled in) + ``color.png`` + ``outline.png``.

    python scripts/teams_package.py --app-id <Azure Bot App ID (GUID)> [--out dist/dasar-teams.zip]

The app id defaults to ``DASAR_TEAMS_APP_ID``.  Before writing the zip the manifest is validated:

* always: the checks Teams' upload makes that matter here (required fields, GUIDs, name/description
  lengths, accent colour, bot scopes, both icons present with the right size, the outline icon white on
  transparent);
* and against the Teams manifest JSON schema of the declared ``manifestVersion`` (``--schema FILE``, or
  ``teams/v<version>/MicrosoftTeams.schema.json`` under ``$DASAR_SCHEMA_DIR``, ``../shared/schemas`` next to
  the checkout, or ``infra/teams/schemas`` -- the vendored copy of Microsoft's MIT-licensed v1.17 schema,
  see ``infra/teams/schemas/README.md``).

Exit status 0 and the zip path on stdout, or 1 with every problem on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import struct
import sys
import zipfile
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TEAMS_DIR = ROOT / "infra" / "teams"
PLACEHOLDER = "{{TEAMS_APP_ID}}"
GUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
ICON_SIZES = {"color": 192, "outline": 32}
#: Fixed zip entry time, so equal inputs give a byte-identical package.
ZIP_TIME = (2024, 1, 1, 0, 0, 0)


def schema_dirs() -> list[Path]:
    """Where vendored public schemas are looked for (first existing wins)."""
    dirs = []
    if os.environ.get("DASAR_SCHEMA_DIR"):
        dirs.append(Path(os.environ["DASAR_SCHEMA_DIR"]))
    dirs.append(ROOT.parent / "shared" / "schemas")
    dirs.append(TEAMS_DIR / "schemas")  # the vendored copy (MIT, see its README.md)
    return dirs


def find_schema(relative: str) -> Path | None:
    for base in schema_dirs():
        path = base / relative
        if path.is_file():
            return path
    return None


# -- PNG reading (enough for our checks: 8-bit, non-interlaced) ----------------------------------------


def png_info(data: bytes) -> tuple[int, int, int, int]:
    """(width, height, bit depth, colour type) from the IHDR chunk. Raises ValueError if not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height, depth, ctype = struct.unpack(">IIBB", data[16:26])
    return width, height, depth, ctype


def png_rgba(data: bytes) -> list[tuple[int, int, int, int]]:
    """Pixels of an 8-bit RGBA or RGB non-interlaced PNG (all filter types)."""
    width, height, depth, ctype = png_info(data)
    if depth != 8 or ctype not in (2, 6) or data[28] != 0:
        raise ValueError("only 8-bit non-interlaced RGB/RGBA icons are checked")
    channels = 4 if ctype == 6 else 3
    idat = b""
    pos = 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    pixels: list[tuple[int, int, int, int]] = []
    for y in range(height):
        base = y * (stride + 1)
        ftype, line = raw[base], bytearray(raw[base + 1 : base + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = prev[i]
            ul = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + left) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + up) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif ftype == 4:
                p = left + up - ul
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else ul
                line[i] = (line[i] + pred) & 0xFF
        for x in range(width):
            px = line[x * channels : x * channels + channels]
            pixels.append((px[0], px[1], px[2], px[3] if channels == 4 else 255))
        prev = line
    return pixels


# -- validation -----------------------------------------------------------------------------------------


def check_icons(manifest: dict[str, Any], icons_dir: Path) -> list[str]:
    problems = []
    for kind, size in ICON_SIZES.items():
        name = (manifest.get("icons") or {}).get(kind)
        if not name:
            problems.append(f"icons.{kind} is missing")
            continue
        path = icons_dir / name
        if not path.is_file():
            problems.append(f"icon file {name} is missing (run python infra/teams/make_icons.py)")
            continue
        data = path.read_bytes()
        try:
            width, height, _, _ = png_info(data)
        except ValueError as exc:
            problems.append(f"{name}: {exc}")
            continue
        if (width, height) != (size, size):
            problems.append(f"{name} is {width}x{height}; Teams needs {size}x{size}")
        if kind == "outline":
            try:
                if any(a and (r, g, b) != (255, 255, 255) for r, g, b, a in png_rgba(data)):
                    problems.append(f"{name} must be white on a transparent background")
            except ValueError as exc:
                problems.append(f"{name}: {exc}")
    return problems


def check_required(manifest: dict[str, Any]) -> list[str]:
    """The upload checks that matter for this app (used with or without the schema)."""
    problems = []
    for key in (
        "manifestVersion",
        "version",
        "id",
        "developer",
        "name",
        "description",
        "icons",
        "accentColor",
    ):
        if key not in manifest:
            problems.append(f"{key} is required")
    for where, value in [("id", manifest.get("id"))] + [
        (f"bots[{i}].botId", b.get("botId")) for i, b in enumerate(manifest.get("bots") or [])
    ]:
        if not isinstance(value, str) or not GUID.match(value):
            problems.append(f"{where} must be a GUID (the Azure Bot App ID), got {value!r}")
    name = manifest.get("name") or {}
    if not name.get("short") or len(name["short"]) > 30:
        problems.append("name.short is required and at most 30 characters")
    if len(name.get("full") or "") > 100:
        problems.append("name.full is at most 100 characters")
    desc = manifest.get("description") or {}
    if not desc.get("short") or len(desc["short"]) > 80:
        problems.append("description.short is required and at most 80 characters")
    if not desc.get("full") or len(desc["full"]) > 4000:
        problems.append("description.full is required and at most 4000 characters")
    dev = manifest.get("developer") or {}
    for key in ("name", "websiteUrl", "privacyUrl", "termsOfUseUrl"):
        if not dev.get(key):
            problems.append(f"developer.{key} is required")
        elif key != "name" and not str(dev[key]).startswith("https://"):
            problems.append(f"developer.{key} must be an https URL")
    if not re.match(r"^#[0-9a-fA-F]{6}$", str(manifest.get("accentColor", ""))):
        problems.append("accentColor must be #RRGGBB")
    for bot in manifest.get("bots") or []:
        if not set(bot.get("scopes") or []) <= {"personal", "team", "groupChat", "groupchat", "copilot"}:
            problems.append(f"unknown bot scopes {bot.get('scopes')}")
    if PLACEHOLDER in json.dumps(manifest):
        problems.append(f"{PLACEHOLDER} was not replaced")
    return problems


def check_schema(manifest: dict[str, Any], schema_path: Path) -> list[str]:
    import jsonschema

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator_cls = jsonschema.validators.validator_for(schema)
    validator = validator_cls(schema, format_checker=validator_cls.FORMAT_CHECKER)
    return [
        f"schema: {'/'.join(str(p) for p in err.absolute_path) or '(root)'}: {err.message}"
        for err in sorted(validator.iter_errors(manifest), key=lambda e: list(map(str, e.absolute_path)))
    ]


def load_manifest(app_id: str, version: str | None = None) -> dict[str, Any]:
    text = (TEAMS_DIR / "manifest.json").read_text(encoding="utf-8").replace(PLACEHOLDER, app_id)
    manifest: dict[str, Any] = json.loads(text)
    if version:
        manifest["version"] = version
    return manifest


def validate(manifest: dict[str, Any], icons_dir: Path = TEAMS_DIR, schema: Path | None = None) -> list[str]:
    """Every problem found (empty list = valid). ``schema`` None -> looked up (see module docstring)."""
    problems = check_required(manifest) + check_icons(manifest, icons_dir)
    if schema is None:
        schema = find_schema(f"teams/v{manifest.get('manifestVersion')}/MicrosoftTeams.schema.json")
    if schema is not None:
        problems += check_schema(manifest, schema)
    return problems


def build_package(
    app_id: str, out: Path, *, version: str | None = None, schema: Path | None = None
) -> tuple[Path, bool]:
    """Validate and write the zip; returns ``(path, validated_against_schema)``.

    Raises:
        ValueError: the manifest or icons are invalid (message lists every problem).
    """
    manifest = load_manifest(app_id, version)
    schema = schema or find_schema(f"teams/v{manifest.get('manifestVersion')}/MicrosoftTeams.schema.json")
    problems = validate(manifest, TEAMS_DIR, schema)
    if problems:
        raise ValueError("invalid Teams app package:\n- " + "\n- ".join(problems))
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        entries = [("manifest.json", (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode())]
        entries += [
            (manifest["icons"][k], (TEAMS_DIR / manifest["icons"][k]).read_bytes()) for k in ICON_SIZES
        ]
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return out, schema is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the dasar Teams app package (zip).")
    parser.add_argument("--app-id", default=os.environ.get("DASAR_TEAMS_APP_ID", ""), help="Azure Bot App ID")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "dasar-teams.zip")
    parser.add_argument("--version", default=None, help="app version (semver) to write into the manifest")
    parser.add_argument("--schema", type=Path, default=None, help="Teams manifest JSON schema file")
    args = parser.parse_args(argv)
    if not args.app_id:
        print(
            "error: pass --app-id or set DASAR_TEAMS_APP_ID (the Azure Bot App ID, a GUID)", file=sys.stderr
        )
        return 1
    try:
        path, with_schema = build_package(args.app_id, args.out, version=args.version, schema=args.schema)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    how = "manifest schema" if with_schema else "built-in checks only (no manifest schema copy found)"
    print(f"{path} (validated: {how})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
