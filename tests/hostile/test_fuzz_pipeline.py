"""Property-based tests of the whole pipeline (hypothesis).

1. Mutated inputs: bytes taken from valid models, then cut, duplicated, overwritten (also
   with invalid UTF-8) — every outcome is a clean result or located diagnostics, never an
   exception, through load, validate and convert.
2. Generated models: random structures, lists and enums printed as IDL load to exactly the
   shapes that were generated (checked through the JSON AST writer).
"""

from __future__ import annotations

import json
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, SHARED
from smithy2cfn import api
from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load import load_texts
from smithy2cfn.model.json_ast import model_to_json_ast


def _seeds() -> list[bytes]:
    files = [REPO / "examples/vault/model/vault.smithy"]
    for folder in ("conformance/cfn/integ", "conformance/idl/valid/mixins", "conformance/idl/valid"):
        root = SHARED / folder
        if root.exists():
            files += sorted(root.glob("*.smithy"))[:8]
    return [f.read_bytes() for f in files]


SEEDS = _seeds()


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        j = draw(st.integers(i, min(len(data), i + 40)))
        op = draw(st.sampled_from(["cut", "dup", "byte", "truncate", "nest"]))
        if op == "cut":
            del data[i:j]
        elif op == "dup":
            data[i:i] = data[i:j]
        elif op == "byte":
            data[i] = draw(st.sampled_from([0x00, 0xFF, 0xC3, ord("{"), ord("}"), ord('"'), ord("@"), ord("\n")]))
        elif op == "truncate":
            del data[i:]
        else:
            data[i:i] = b"[" * 300 + b"9" * 400
    return bytes(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_models_give_results_or_located_diagnostics(tmp_path_factory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "model.smithy"
    path.write_bytes(data)
    result = api.build([path], None, {"organizationName": "Fuzz"})
    for d in result.diagnostics:
        assert d.code and d.message
        if d.code.startswith(("S1", "S2", "S3")):
            assert d.span is not None and d.span.path, d


# ---------------------------------------------------------------- generated models

NAMES = st.text(string.ascii_uppercase, min_size=1, max_size=1).flatmap(
    lambda first: st.text(string.ascii_letters + string.digits, max_size=8).map(lambda rest: first + rest))
MEMBER_NAMES = st.text(string.ascii_lowercase, min_size=1, max_size=1).flatmap(
    lambda first: st.text(string.ascii_letters + string.digits + "_", max_size=8).map(lambda rest: first + rest))
SIMPLE = st.sampled_from(["String", "Integer", "Long", "Boolean", "Timestamp", "Blob", "Double", "Document"])
DOCS = st.text(string.ascii_letters + string.digits + " .,'\"\\\u00e9", max_size=30)


@st.composite
def models(draw) -> tuple[str, dict]:
    names = draw(st.lists(NAMES, min_size=1, max_size=5, unique=True))
    expected: dict[str, dict] = {}
    lines = ['$version: "2"', "", "namespace fuzz.gen", ""]
    for name in names:
        kind = draw(st.sampled_from(["structure", "list", "enum"]))
        sid = f"fuzz.gen#{name}"
        doc = draw(st.none() | DOCS)
        traits = {}
        if doc is not None:
            lines.append(f"@documentation({json.dumps(doc)})")
            traits["smithy.api#documentation"] = doc
        if kind == "structure":
            members = draw(st.lists(st.tuples(MEMBER_NAMES, SIMPLE, st.booleans()), max_size=4,
                                    unique_by=lambda m: m[0]))
            body = {}
            lines.append(f"structure {name} {{")
            for mname, target, required in members:
                mtraits = {}
                if required:
                    lines.append("    @required")
                    mtraits["smithy.api#required"] = {}
                lines.append(f"    {mname}: {target}")
                body[mname] = {"target": f"smithy.api#{target}", **({"traits": mtraits} if mtraits else {})}
            lines.append("}")
            expected[sid] = {"type": "structure", "members": body}
        elif kind == "list":
            target = draw(SIMPLE)
            lines += [f"list {name} {{", f"    member: {target}", "}"]
            expected[sid] = {"type": "list", "member": {"target": f"smithy.api#{target}"}}
        else:
            values = draw(st.lists(st.text(string.ascii_uppercase, min_size=1, max_size=6), min_size=1,
                                   max_size=4, unique=True))
            lines.append(f"enum {name} {{")
            lines += [f"    {v}" for v in values]
            lines.append("}")
            expected[sid] = {"type": "enum", "members": {
                v: {"target": "smithy.api#Unit", "traits": {"smithy.api#enumValue": v}} for v in values}}
        if traits:
            expected[sid]["traits"] = traits
        lines.append("")
    return "\n".join(lines), expected


@settings(max_examples=150, deadline=None)
@given(models())
def test_generated_idl_loads_to_the_generated_shapes(case) -> None:
    text, expected = case
    diags = Diagnostics()
    model = load_texts([("gen.smithy", text)], diags)
    assert not diags.has_errors, [d.format_text() for d in diags] + [text]
    assert model_to_json_ast(model)["shapes"] == expected
