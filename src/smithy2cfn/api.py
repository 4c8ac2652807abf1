"""The library surface: load, validate, convert, build.

The command line (:mod:`smithy2cfn.cli`) is a thin layer over these functions::

    import smithy2cfn

    result = smithy2cfn.build(["model/"], out_dir="build/cfn",
                              settings={"service": "example.weather#Weather"})
    for d in result.diagnostics:
        print(d.format_text())
    result.schemas["example-weather-forecast.json"]   # the schema, as a dict

Every function collects problems as :class:`~smithy2cfn.diagnostics.Diagnostic` objects and
never raises on bad input.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smithy2cfn.diagnostics import Diagnostic, Diagnostics, Span
from smithy2cfn.load import load_model
from smithy2cfn.model import Model


@dataclass
class BuildResult:
    """What :func:`build` did.

    Attributes:
        schemas: output file name → resource schema (``dict``), empty when the build failed.
        written: paths written (empty in check mode or when the build failed).
        stale: in check mode, output files that are missing or differ from what the build makes.
        diagnostics: every problem found, sorted by location.
    """

    schemas: dict[str, dict] = field(default_factory=dict)
    written: list[Path] = field(default_factory=list)
    stale: list[Path] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no ERROR diagnostic was reported (and, in check mode, nothing is stale)."""
        return not any(d.is_error for d in self.diagnostics) and not self.stale


def load(paths: Iterable[str | os.PathLike], diags: Diagnostics | None = None) -> tuple[Model, Diagnostics]:
    """Load model files/directories (IDL 1.0/2.0, JSON AST) with the prelude into a Model.

    Returns ``(model, diagnostics)``; the model may be partial when there are errors.
    """
    diags = diags if diags is not None else Diagnostics()
    model = load_model([str(p) for p in paths], diags)
    return model, diags


def validate(model: Model, diags: Diagnostics) -> None:
    """Run the semantic model checks of :mod:`smithy2cfn.validate`, adding to ``diags``."""
    try:
        from smithy2cfn.validate import run_validators
    except ImportError:  # pragma: no cover - the validate stage is optional during bring-up
        return
    run_validators(model, diags)


def convert(model: Model, settings: Mapping[str, Any] | None, diags: Diagnostics,
            settings_source: str | None = None) -> dict[str, dict]:
    """Convert every ``cfnResource`` of the configured service into a resource schema.

    Args:
        model: a loaded model without errors.
        settings: the ``cloudformation`` plugin settings (``service``, ``organizationName``...).
        diags: receives conversion problems and the meta-schema check of every schema.
        settings_source: where the settings came from (a file path, or e.g.
            ``"<command line>"``); configuration diagnostics point there.

    Returns:
        Output file name → schema; ``{}`` when configuration or conversion failed.
    """
    from smithy2cfn.config import CfnConfig
    from smithy2cfn.emit import convert as emit_convert

    config = CfnConfig.from_dict(dict(settings or {}), diags)
    if settings_source is not None:
        config.source = Span(settings_source)
    if diags.has_errors:
        return {}
    return emit_convert(model, config, diags)


def render_schema(schema: Mapping[str, Any]) -> str:
    """The bytes-stable text of a schema file: 2-space JSON, key order kept, trailing newline.

    The text is strict JSON (RFC 8259). :func:`convert` reports every schema that could not
    be written (``S4105``, ``S4107``, ``S4108``) as an error, so a schema it returns without
    errors always renders.

    Raises:
        ValueError: ``schema`` holds ``NaN`` or an infinity (``allow_nan=False``), or an
            integer of more than 4,300 digits.
        TypeError: ``schema`` holds a value of no JSON type (a ``set``...).
        RecursionError: ``schema`` nests some 900 levels deep.
    """
    return json.dumps(schema, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    Raises:
        OSError: when the folder cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def build(
    paths: Iterable[str | os.PathLike],
    out_dir: str | os.PathLike | None,
    settings: Mapping[str, Any] | None = None,
    *,
    check: bool = False,
    settings_source: str | None = None,
) -> BuildResult:
    """Load, validate, convert and (unless the build fails) write the resource schemas.

    Args:
        paths: model files or directories.
        out_dir: folder for the schema files; ``None`` converts without writing.
        settings: ``cloudformation`` plugin settings (see README "Settings").
        check: compare with the files in ``out_dir`` instead of writing; differing or
            missing files are listed in ``BuildResult.stale``.
        settings_source: where ``settings`` came from, for diagnostics (see :func:`convert`).

    Returns:
        A :class:`BuildResult`. Nothing is written when any ERROR diagnostic is reported;
        each file is replaced atomically.
    """
    diags = Diagnostics()
    model, _ = load(paths, diags)
    result = BuildResult()
    if not diags.has_errors:
        validate(model, diags)
    if not diags.has_errors:
        schemas = convert(model, settings, diags, settings_source)
        if not diags.has_errors:
            result.schemas = schemas
    if result.schemas and out_dir is not None:
        out = Path(out_dir)
        rendered = {name: render_schema(s) for name, s in sorted(result.schemas.items())}
        if check:
            for name, text in rendered.items():
                p = out / name
                try:
                    same = p.read_text(encoding="utf-8") == text
                except OSError:
                    same = False
                if not same:
                    result.stale.append(p)
                    diags.error("S5010", f"{p} is out of date; run the build to regenerate it", Span(str(p)))
        else:
            try:
                for name, text in rendered.items():
                    write_atomically(out / name, text)
                    result.written.append(out / name)
            except OSError as e:
                diags.error("S5011", f"cannot write output: {e}", Span(str(out)))
    result.diagnostics = diags.sorted()
    return result
