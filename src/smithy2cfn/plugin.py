"""Smithy's ``run`` plugin: smithy2cfn as one plugin of a Java ``smithy-build.json``.

Smithy build's ``run`` plugin (reference class
``software.amazon.smithy.build.plugins.RunPlugin``; smithy-build.json guide, "run plugin")
runs a command with the projected model on standard input as a JSON AST (the prelude
included only when its ``sendPrelude`` setting is true) and these environment variables:

* ``SMITHY_PLUGIN_DIR``: the folder the plugin writes its artifacts to (also the command's
  working folder);
* ``SMITHY_ROOT_DIR``: the project's root (where ``smithy build`` runs);
* ``SMITHY_PROJECTION_NAME``, ``SMITHY_ARTIFACT_NAME``;
* ``SMITHY_INCLUDES_PRELUDE``: ``"true"`` when the model on stdin holds the prelude.

``smithy2cfn plugin`` (:func:`run_plugin`) reads that model, builds it as ``smithy2cfn
build`` does, and writes the schemas to ``SMITHY_PLUGIN_DIR``::

    "plugins": {
        "run::cloudformation": {
            "command": ["smithy2cfn", "plugin", "--org", "Acme", "--service", "acme.vault#VaultService"]
        }
    }
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from smithy2cfn.api import BuildResult, build, read_settings
from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes, funnel
from smithy2cfn.load.files import MAX_FILE_BYTES
from smithy2cfn.prelude import PRELUDE_NAMESPACE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S7000", Severity.ERROR, None,
         "`smithy2cfn plugin` run without `SMITHY_PLUGIN_DIR` (not by Smithy's run plugin)", usage=True),
)

#: What diagnostics call the model read from standard input (a JSON AST).
STDIN_NAME = "<stdin>.json"


def read_stdin(stream: IO[bytes], diags: Diagnostics, limit: int = MAX_FILE_BYTES) -> str | None:
    """The UTF-8 text of ``stream`` (at most ``limit`` bytes: by default the model files'
    limit, :data:`~smithy2cfn.load.files.MAX_FILE_BYTES`); ``None`` after ``S1004`` (too
    large) or ``S1002`` (not UTF-8), located at :data:`STDIN_NAME`."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        diags.error("S1004", f"the model on standard input is larger than {limit // (1024 * 1024)} MiB",
                    Span(STDIN_NAME), hint="send a smaller model, or build the model files with smithy2cfn build")
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        diags.error("S1002", f"the model on standard input is not valid UTF-8 (byte {e.start})", Span(STDIN_NAME))
        return None


def without_prelude(text: str) -> str:
    """A JSON AST text without the shapes of the ``smithy.api`` namespace (what the run
    plugin sends with ``sendPrelude: true``: our own prelude is loaded, and redefining it is
    an error); the text as it is when it is not a JSON object with a ``shapes`` object, or
    not strict JSON (the loader reports it). It is read as the loader reads it
    (:func:`~smithy2cfn.model.json_ast.parse_json_ast_text`: bounded depth, numbers beyond a
    double kept as written). Positions in diagnostics are then those of the rewritten text."""
    from smithy2cfn.model.json_ast import parse_json_ast_text, render_json_ast

    parsed, problem = parse_json_ast_text(text, STDIN_NAME)
    document = parsed.value
    shapes = document.get("shapes") if problem is None and isinstance(document, dict) else None
    if not isinstance(shapes, dict):
        return text
    document["shapes"] = {k: v for k, v in shapes.items() if not k.startswith(PRELUDE_NAMESPACE + "#")}
    return render_json_ast(document, sort_keys=False)


def run_plugin(
    stream: IO[bytes],
    env: Mapping[str, str],
    *,
    config: str | os.PathLike[str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    override_spans: Mapping[str, Span] | None = None,
    check: bool = False,
) -> BuildResult:
    """Build the JSON AST model on ``stream`` into ``env["SMITHY_PLUGIN_DIR"]``.

    Args:
        stream: standard input (bytes): the model as a Smithy JSON AST.
        env: the environment (``os.environ``): ``SMITHY_PLUGIN_DIR`` (required),
            ``SMITHY_ROOT_DIR`` (a relative ``config`` is found there),
            ``SMITHY_INCLUDES_PRELUDE``.
        config: a settings file or ``smithy-build.json`` giving the ``cloudformation``
            settings (its ``sources`` are not loaded: the model is on stdin).
        overrides: settings that win over the config's (the CLI's ``--service``, ``--org``...).
        override_spans: setting name → where it was given.
        check: compare with the plugin folder instead of writing.

    Returns:
        A :class:`~smithy2cfn.api.BuildResult`. ``S7000`` (exit 2) when
        ``SMITHY_PLUGIN_DIR`` is not set; the config's errors (``S5000``, ``S5001``);
        ``S1002``/``S1004`` for unreadable input; otherwise what :func:`smithy2cfn.api.build`
        reports. Never raises on bad input.
    """
    diags = Diagnostics()
    out = env.get("SMITHY_PLUGIN_DIR", "")
    if not out:
        diags.error("S7000", "SMITHY_PLUGIN_DIR is not set: 'smithy2cfn plugin' is run by Smithy's run plugin",
                    Span("<environment SMITHY_PLUGIN_DIR>"),
                    hint="add smithy2cfn to smithy-build.json as a run plugin (\"run::cloudformation\": "
                         "{\"command\": [\"smithy2cfn\", \"plugin\", ...]}), or use smithy2cfn build")
        return _finish(BuildResult(check=check), diags)
    path = None if config is None else Path(config)
    if path is not None and not path.is_absolute() and env.get("SMITHY_ROOT_DIR"):
        path = Path(env["SMITHY_ROOT_DIR"]) / path
    # the model is on stdin, not its sources; the settings of the projection Smithy runs
    settings, _ = read_settings(path, overrides, override_spans, diags, projection=env.get("SMITHY_PROJECTION_NAME"))
    text = None if diags.has_errors else read_stdin(stream, diags)
    if text is None:
        return _finish(BuildResult(out_dir=Path(out), check=check), diags)
    if env.get("SMITHY_INCLUDES_PRELUDE", "").lower() == "true":
        text = without_prelude(text)
    result = build((), out, settings, check=check, sources=[(STDIN_NAME, text)])
    result.diagnostics = funnel([*diags.items, *result.diagnostics])
    return result


def _finish(result: BuildResult, diags: Diagnostics) -> BuildResult:
    result.diagnostics = diags.sorted()
    return result
