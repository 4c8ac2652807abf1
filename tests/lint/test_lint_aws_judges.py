"""The lint against CloudFormation's own judges, over every real AWS model with ``cfnResource``
(``../shared/conformance/aws-all/models.tar.xz``; skipped when absent), built in the default
mode (issue 9 "Done means"):

(a) ``cfn validate``'s loader (``rpdk.core.data_loaders.load_resource_spec``) accepts every
    schema with 0 errors, and every warning it logs has a matching located lint diagnostic;
(b) resource-schema-guard-rail (``../shared/tools/guardrail``, in its own venv in the temp
    folder; skipped with a message when it is not set up) reports no finding (NON_COMPLIANT
    or WARNING) that our lint does not report with the same check id;
(c) the registry's tagging checks pass (``tagUpdatable`` only with an update handler, a
    ``tagProperty`` that is a property, the tagging fields of a taggable resource).
"""

from __future__ import annotations

import json
import logging
import subprocess
import tarfile
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import REPO, guardrail_or_skip, shared_or_skip
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostic

#: A cfn-cli loader warning (its message's words) → the lint code that reports it.
LOADER_WARNINGS = (
    ("don't usually start with lowercase", "S6001"),
    ("Explicitly specify value for insertionOrder", "S6002"),
    ("Incorrect JSON schema keyword", "S6004"),
    ("Don't hardcode the aws partition", "S6005"),
    ("Could not validate regular expression", "S6006"),
    ("large constantly evolving enums", "S6007"),
    ("non-ASCII characters", "S6008"),
    ("LIST API inputs", "S6009"),
    ("readOnlyProperties cannot be specified", "S6010"),
    ("instead of using wildcards", "S6011"),
    ("mark additionalProperties as false", "S6012"),
    ("must be specified as either readOnly or createOnly", "S6013"),
    ("Explicitly specify value for tagging", "S6015"),
)
CFN_RESOURCE = b"aws.cloudformation#cfnResource"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], dict[str, list[Diagnostic]]]:
    """Every aws-all model with ``cfnResource``, built in the default mode: the schema files,
    and schema file → its lint diagnostics."""
    archive = shared_or_skip("conformance", "aws-all", "models.tar.xz")
    folder = tmp_path_factory.mktemp("aws-cfn")
    models: list[Path] = []
    with tarfile.open(archive) as tar:
        for member in tar:
            if not member.isfile() or not member.name.endswith(".json"):
                continue
            data = tar.extractfile(member).read()
            if CFN_RESOURCE in data:
                path = folder / "models" / Path(member.name).name
                path.parent.mkdir(exist_ok=True)
                path.write_bytes(data)
                models.append(path)
    if not models:
        pytest.skip(f"no model with cfnResource in {archive}")
    files: list[Path] = []
    lint: dict[str, list[Diagnostic]] = defaultdict(list)
    for path in sorted(models):
        out = folder / "out" / path.stem
        result = api.build([path], out, {}, extensions=[])
        assert result.ok, (path.name, [d.format_text() for d in result.diagnostics if d.is_error][:3])
        files += [out / name for name in sorted(result.schemas)]
        for d in result.diagnostics:
            if d.code.startswith("S6"):
                lint[str(out / d.message.split(":", 1)[0])].append(d)
    assert len(files) > 100
    return files, lint


def test_every_lint_finding_is_located_in_the_model(built):
    _, lint = built
    for found in lint.values():
        for d in found:
            assert d.span is not None and d.span.line > 0 and d.span.path.endswith(".json"), d.format_text()
            assert d.hint, d.format_text()


def test_cfn_validate_accepts_every_schema_and_each_warning_is_linted(built):
    pytest.importorskip("rpdk.core.data_loaders")
    from rpdk.core.data_loaders import load_resource_spec

    files, lint = built
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())

    logger = logging.getLogger("rpdk.core.data_loaders")
    handler, level = Collect(level=logging.WARNING), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    unmatched: list[str] = []
    warnings = 0
    try:
        for path in files:
            messages.clear()
            with path.open(encoding="utf-8") as f:
                load_resource_spec(f)  # raises SpecValidationError on an error
            for message in messages:
                warnings += 1
                code = next((c for words, c in LOADER_WARNINGS if words in message), None)
                ours = [d for d in lint.get(str(path), []) if d.code == code]
                if code in ("S6005", "S6006"):  # the very pattern
                    pattern = message.split(": ", 1)[1]
                    ours = [d for d in ours if pattern in d.message]
                if not ours:
                    unmatched.append(f"{path.name}: {message[:200]}")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert warnings > 0
    assert unmatched == []


def _guardrail() -> tuple[Path, Path]:
    return guardrail_or_skip()


def test_guard_rail_finds_nothing_that_lint_does_not_report(built):
    python, script = _guardrail()
    files, lint = built
    run = subprocess.run([str(python), str(script), "--json", *map(str, files)], capture_output=True, text=True,
                         timeout=300, check=False)
    report = json.loads(run.stdout)
    assert report["summary"]["schemas"] == len(files) and report["summary"]["errors"] == 0
    entries = report["files"] if isinstance(report["files"], list) else list(report["files"].values())
    unmatched = []
    for entry in entries:
        ours = lint.get(entry["file"], [])
        for finding in entry["findings"]:
            if not any(finding["check_id"] in d.message for d in ours):
                unmatched.append((Path(entry["file"]).name, finding["check_id"], finding["severity"]))
    # NON_COMPLIANT ones are the bar; the WARNING ones (GN001, ARN, COM, PER005) are
    # mirrored too
    assert unmatched == []


def test_the_example_passes_guard_rail_with_no_finding():
    python, script = _guardrail()
    schema = REPO / "examples" / "vault" / "expected" / "acme-vault-vault.json"
    run = subprocess.run([str(python), str(script), "--json", str(schema)], capture_output=True, text=True,
                         timeout=120, check=False)
    summary = json.loads(run.stdout)["summary"]
    assert summary == {**summary, "schemas": 1, "errors": 0, "NON_COMPLIANT": 0, "WARNING": 0}


def test_the_registry_tagging_checks_pass(built):
    files, _ = built
    for path in files:
        schema = json.loads(path.read_text(encoding="utf-8"))
        tagging = schema["tagging"]
        handlers = schema.get("handlers", {})
        if tagging["taggable"]:
            assert {"tagOnCreate", "tagUpdatable", "cloudFormationSystemTags", "tagProperty"} <= set(tagging)
            assert tagging["tagProperty"].split("/")[-1] in schema["properties"], path.name
            if tagging["tagUpdatable"]:
                # "Invalid tagUpdatable value since update handler is missing"
                assert "update" in handlers, path.name
        else:
            assert tagging == {"taggable": False}, path.name
