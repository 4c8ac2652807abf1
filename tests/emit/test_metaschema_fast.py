"""The compiled meta-schema (issue 10): ``smithy2cfn.emit.metaschema_compiled`` is current,
and it never accepts a schema that ``jsonschema`` (which reports the errors) would reject.

``check_schema`` trusts the compiled validator's "valid" and sends everything else through
``jsonschema``; so it must be sound (accepts ⇒ no jsonschema error), and it should accept
what we write (else there is no speed-up)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, SHARED, json_paths
from smithy2cfn.emit import metaschema
from smithy2cfn.emit.metaschema import _validator, check_schema, fast_accepts


def _jsonschema_accepts(schema) -> bool:
    return not any(True for _ in _validator().iter_errors(schema))


def _schemas() -> list[dict]:
    files = sorted((REPO / "examples").rglob("expected/*.json"))
    if (SHARED / "conformance" / "cfn").exists():
        files += sorted((SHARED / "conformance" / "cfn").rglob("*.cfn.json"))
        files += sorted((SHARED / "conformance" / "aws").rglob("*.json"))
    out = []
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "typeName" in doc and "properties" in doc:
            out.append(doc)
    return out


SCHEMAS = _schemas()


def test_compiled_module_is_current():
    pytest.importorskip("fastjsonschema", reason="fastjsonschema (test extra) regenerates the compiled meta-schema")
    source = (REPO / "src" / "smithy2cfn" / "emit" / "metaschema_compiled.py").read_text(encoding="utf-8")
    assert source == metaschema.compiled_validator_source(), "run: python -m smithy2cfn.emit.metaschema"


def test_compiled_validator_is_used():
    assert metaschema._compiled() is not None  # the key matches the meta-schema files


def test_valid_schemas_take_the_fast_path():
    assert len(SCHEMAS) >= 1
    for schema in SCHEMAS:
        assert _jsonschema_accepts(schema) == fast_accepts(schema), schema["typeName"]


#: Changes that make a schema invalid (or not), at a path chosen by hypothesis.
BAD_VALUES = [None, 1, -1, 1.5, True, "", "x", "has space", "Org::Svc::Res", "^(unclosed", "/bad~2pointer",
              [], ["a"], [1], {}, {"type": "nope"}, {"$ref": 3}, {"unknownKeyword": 1}]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fast_path_never_accepts_what_jsonschema_rejects(data):
    schema = copy.deepcopy(data.draw(st.sampled_from(SCHEMAS)))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in json_paths(schema) if p]
        path = data.draw(st.sampled_from(paths))
        parent = schema
        for part in path[:-1]:
            parent = parent[part]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = copy.deepcopy(data.draw(st.sampled_from(BAD_VALUES)))  # never shared
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["extra", "pattern", "format", "$comment", "insertionOrder"]))] = \
                copy.deepcopy(data.draw(st.sampled_from(BAD_VALUES)))
    if fast_accepts(schema):
        assert _jsonschema_accepts(schema)
    # and check_schema reports exactly what jsonschema finds either way
    assert (check_schema(schema, "x.json") == []) == _jsonschema_accepts(schema)
