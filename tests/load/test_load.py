"""Focused tests of the loader (``smithy2cfn.load``) and the JSON AST writer.

Each test loads small in-memory models with :func:`load_texts` and checks the assembled
model, the diagnostics, or what ``model_to_json_ast`` writes (the reference serializer's
shape: mixins as references, traits added to inherited members as ``apply`` entries).
"""

from __future__ import annotations

from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.load import load_texts
from smithy2cfn.model.json_ast import model_to_json_ast

NS = "smithy.example"


def _load(*sources: tuple[str, str]):
    diags = Diagnostics()
    model = load_texts(list(sources), diags)
    return model, diags


def _v2(body: str, path: str = "main.smithy") -> tuple[str, str]:
    return path, f'$version: "2.0"\nnamespace {NS}\n{body}'


def _codes(diags: Diagnostics) -> list[str]:
    return sorted(d.code for d in diags if d.is_error)


def _shapes(model) -> dict:
    return model_to_json_ast(model)["shapes"]


# --------------------------------------------------------------------------- mixins


def test_member_inherited_from_two_mixins_gets_later_traits_as_introduced():
    model, diags = _load(_v2(
        "@mixin\nstructure A1 { @private a: String }\n"
        "@mixin\nstructure A2 { @required a: String }\n"
        "structure Valid with [A1, A2] { c: Integer }\n"))
    assert not diags.has_errors
    member = model.member(f"{NS}#Valid$a")
    assert set(member.traits) == {"smithy.api#private", "smithy.api#required"}
    shapes = _shapes(model)
    assert shapes[f"{NS}#Valid$a"] == {"type": "apply", "traits": {"smithy.api#required": {}}}
    assert shapes[f"{NS}#Valid"]["members"] == {"c": {"target": "smithy.api#Integer"}}


def test_local_member_overriding_two_mixins_keeps_only_its_own_traits():
    model, diags = _load(_v2(
        '@mixin\nstructure A1 { @tags(["a"]) a: String }\n'
        '@mixin\nstructure A2 { @required @tags(["b"]) a: String }\n'
        'structure Valid with [A1, A2] { @tags(["c"]) a: String }\n'))
    assert not diags.has_errors
    member = model.member(f"{NS}#Valid$a")
    assert member.traits["smithy.api#tags"] == ["c"]
    assert "smithy.api#required" in member.traits
    assert _shapes(model)[f"{NS}#Valid$a"] == {"type": "apply", "traits": {"smithy.api#tags": ["c"]}}


def test_operation_and_service_mixins_write_only_what_the_shape_introduces():
    model, diags = _load(_v2(
        "@error(\"client\")\nstructure MixinError {}\n@error(\"client\")\nstructure OwnError {}\n"
        "@mixin\noperation OpMixin { errors: [MixinError] }\n"
        "operation Op with [OpMixin] { errors: [OwnError] }\n"
        "@mixin\nservice SvcMixin { version: \"1\", operations: [Op] }\n"
        "service Svc with [SvcMixin] {}\n"))
    assert not diags.has_errors
    assert model.shapes[f"{NS}#Op"].errors == [f"{NS}#MixinError", f"{NS}#OwnError"]
    shapes = _shapes(model)
    assert shapes[f"{NS}#Op"] == {
        "type": "operation", "mixins": [{"target": f"{NS}#OpMixin"}],
        "input": {"target": "smithy.api#Unit"}, "output": {"target": "smithy.api#Unit"},
        "errors": [{"target": f"{NS}#OwnError"}]}
    assert shapes[f"{NS}#Svc"] == {"type": "service", "mixins": [{"target": f"{NS}#SvcMixin"}]}
    assert model.shapes[f"{NS}#Svc"].version == "1"


def test_mixin_cycle_is_reported():
    _, diags = _load(_v2("@mixin\nstructure A with [B] {}\n@mixin\nstructure B with [A] {}\n"))
    assert "S2020" in _codes(diags)


def test_mixin_cycle_is_reported_on_every_shape_on_it():
    # The reference (LoaderShapeMap.sort) reports each participant; D only uses the cycle.
    _, diags = _load(_v2("@mixin\nstructure A with [B] {}\n@mixin\nstructure B with [C] {}\n"
                         "@mixin\nstructure C with [A] {}\nstructure D with [A] {}\n"))
    on_cycle = sorted(d.shape_id for d in diags if d.code == "S2020")
    assert on_cycle == [f"{NS}#A", f"{NS}#B", f"{NS}#C"]
    a = next(d for d in diags if d.code == "S2020" and d.shape_id == f"{NS}#A")
    assert f"'{NS}#B', '{NS}#C'" in a.message and a.span is not None and a.span.line == 4


def test_mixins_are_built_first_and_the_model_keeps_definition_order():
    model, diags = _load(_v2("structure A with [M] { a: String }\n@mixin\nstructure M { m: Integer }\n"))
    assert not diags.has_errors
    assert [s for s in model.shapes if s.startswith(NS)] == [f"{NS}#A", f"{NS}#M"]
    assert list(model.shapes[f"{NS}#A"].members) == ["m", "a"]


# --------------------------------------------------------------------------- elision


def test_elided_member_takes_the_resource_target_first():
    model, diags = _load(_v2(
        "resource R { identifiers: { id: String } }\n"
        "structure S for R { $id }\n"))
    assert not diags.has_errors
    assert model.member(f"{NS}#S$id").target == "smithy.api#String"


def test_elided_member_conflicting_with_a_mixin_member_is_an_error():
    _, diags = _load(_v2(
        "resource R { identifiers: { id: String } }\n"
        "@mixin\nstructure M { id: Integer }\n"
        "structure Invalid for R with [M] { $id }\n"))
    assert _codes(diags) == ["S2022"]


def test_elided_member_without_source_is_reported():
    _, diags = _load(_v2("@mixin\nstructure M { a: String }\nstructure S with [M] { $b }\n"))
    assert _codes(diags) == ["S2024"]


# --------------------------------------------------------------------------- apply, references


def test_apply_across_files_and_forward_references():
    model, diags = _load(
        _v2("structure A { b: B }\napply B @documentation(\"from a\")\n", "a.smithy"),
        _v2("structure B { c: C }\nstring C\n", "b.smithy"))
    assert not diags.has_errors
    assert model.member(f"{NS}#A$b").target == f"{NS}#B"
    assert model.shapes[f"{NS}#B"].traits["smithy.api#documentation"] == "from a"


def test_apply_to_an_undefined_member_is_reported():
    _, diags = _load(_v2("structure A {}\napply A$nope @sensitive\n"))
    assert _codes(diags) == ["S2003"]


def test_unresolved_syntactic_shape_id_in_a_trait_value_is_reported():
    _, diags = _load(_v2("@documentation(NotAShape)\nstring A\n"))
    errors = [d for d in diags if d.is_error]
    assert [d.code for d in errors] == ["S2025"]
    assert errors[0].span.line == 3 and errors[0].event_id == "SyntacticShapeIdTarget"


def test_resolved_syntactic_shape_id_in_a_trait_value_is_fine():
    model, diags = _load(_v2("@documentation(B)\nstring A\nstring B\n"))
    assert not diags.has_errors
    assert model.shapes[f"{NS}#A"].traits["smithy.api#documentation"] == f"{NS}#B"


# --------------------------------------------------------------------------- 1.0 upgrade


def test_v1_upgrade_defaults_and_box():
    model, diags = _load(("v1.smithy", (
        'namespace smithy.example\n'
        'structure Foo {\n'
        '    a: PrimitiveInteger,\n'
        '    @box b: PrimitiveInteger,\n'
        '    c: Integer,\n'
        '    d: BoxedInteger,\n'
        '    @required e: MyLong,\n'
        '    f: StreamingBlob\n'
        '}\n'
        '@box\ninteger BoxedInteger\n'
        'long MyLong\n'
        '@streaming\nblob StreamingBlob\n')))
    assert not diags.has_errors
    foo = model.shapes[f"{NS}#Foo"]
    defaults = {n: m.traits.get("smithy.api#default", "-") for n, m in foo.members.items()}
    assert defaults == {"a": 0, "b": None, "c": "-", "d": "-", "e": 0, "f": ""}
    assert model.shapes[f"{NS}#MyLong"].traits["smithy.api#default"] == 0
    shapes = _shapes(model)
    assert shapes[f"{NS}#BoxedInteger"] == {"type": "integer"}   # box is not written
    assert shapes[f"{NS}#Foo"]["members"]["b"] == {"target": "smithy.api#PrimitiveInteger",
                                                   "traits": {"smithy.api#default": None}}


def test_v1_set_is_written_as_a_unique_list():
    model, diags = _load(("v1.smithy", "namespace smithy.example\nset S { member: String }\n"))
    assert not diags.has_errors
    assert model.shapes[f"{NS}#S"].type == "set"
    assert _shapes(model)[f"{NS}#S"] == {"type": "list", "member": {"target": "smithy.api#String"},
                                        "traits": {"smithy.api#uniqueItems": {}}}


# --------------------------------------------------------------------------- IDL details


def test_doc_comments_after_the_walrus_document_the_inline_shape():
    model, diags = _load(_v2(
        "operation Op {\n    input :=\n        /// In docs\n        {}\n    output := {}\n}\n"))
    assert not diags.has_errors
    assert model.shapes[f"{NS}#OpInput"].traits["smithy.api#documentation"] == "In docs"
    assert "smithy.api#documentation" not in model.shapes[f"{NS}#OpOutput"].traits


def test_line_break_errors_are_reported_where_the_break_is():
    _, diags = _load(("bad.smithy", '$version: "2.0"\nnamespace smithy.example\nstructure\nFoo {}\n'))
    errors = [d for d in diags if d.is_error]
    assert errors and (errors[0].span.line, errors[0].span.column) == (3, 10)


def test_unclosed_string_is_reported_at_the_end_of_the_file():
    _, diags = _load(("bad.smithy", '$version: "2.0"\nnamespace smithy.example\n@documentation("x\nstring A\n'))
    errors = [d for d in diags if d.is_error]
    assert errors and errors[0].span.line == 5
    assert "line 3" in errors[0].message


def test_traits_before_the_namespace_are_reported_at_the_first_trait():
    _, diags = _load(("bad.smithy", '$version: "2.0"\n@deprecated\n@since("1")\nmetadata foo = "bar"\n'))
    errors = [d for d in diags if d.code == "S1001"]
    assert errors and (errors[0].span.line, errors[0].span.column) == (2, 1)


# --------------------------------------------------------------------------- versions, duplicates


def test_box_in_a_v2_file_is_an_error_where_it_is_applied():
    _, diags = _load(_v2("structure A {\n    @box\n    a: Integer\n}\ninteger B\napply B @box\n"))
    errors = [d for d in diags if d.code == "S2026"]
    assert sorted((d.shape_id, d.span.line) for d in errors) == [(f"{NS}#A$a", 4), (f"{NS}#B", 8)]
    _, diags = _load(("m.json", '{"smithy": "2.0", "shapes": {"a#B": {"type": "integer", '
                                '"traits": {"smithy.api#box": {}}}}}'))
    assert _codes(diags) == ["S2026"]
    _, diags = _load(("v1.smithy", "namespace a\n@box\ninteger B\n"))
    assert not diags.has_errors


def test_structure_for_a_private_resource_of_another_namespace_is_a_failing_danger():
    res = ("r.smithy", '$version: "2.0"\nnamespace p\n@private\nresource R { identifiers: { id: String } }\n')
    _, diags = _load(res, _v2("structure S for p#R { $id }\n"))
    events = [d for d in diags if d.code == "S2027"]
    assert len(events) == 1 and events[0].event_id == "PrivateAccess" and diags.has_errors  # a danger fails, as in the reference
    assert events[0].span.line == 3
    _, diags = _load(("r.smithy", res[1] + "structure S for R { $id }\n"))
    assert not [d for d in diags if d.code == "S2027"]


def test_equal_definitions_merge_their_traits_and_different_ones_conflict():
    model, diags = _load(_v2('@tags(["a"])\nstructure A { a: String }\n', "a.smithy"),
                         _v2('@tags(["b"])\n@deprecated\nstructure A { @internal a: String }\n', "b.smithy"))
    assert not diags.has_errors
    a = model.shapes[f"{NS}#A"]
    assert a.traits["smithy.api#tags"] == ["a", "b"] and "smithy.api#deprecated" in a.traits
    assert "smithy.api#internal" in a.members["a"].traits
    _, diags = _load(_v2("structure A { a: String }\n", "a.smithy"), _v2("structure A { a: Integer }\n", "b.smithy"))
    assert _codes(diags) == ["S2002"]
    _, diags = _load(_v2('@documentation("x")\nstring A\n', "a.smithy"),
                     _v2('@documentation("y")\nstring A\n', "b.smithy"))
    errors = [d for d in diags if d.is_error]
    assert [d.code for d in errors] == ["S2013"] and errors[0].span.path == "b.smithy"


def test_the_same_source_twice_is_loaded_once_and_null_trait_values_coerce():
    src = ("a.smithy", 'metadata m = [1]\nnamespace a\n@tags(["x"])\nstring S\n')
    model, diags = _load(src, src)
    assert not diags.has_errors and model.metadata["m"] == [1]
    model, diags = _load(("n.json", '{"smithy": "2.0", "shapes": {"a#S": {"type": "string", "traits": '
                                    '{"smithy.api#tags": null, "smithy.api#deprecated": null}}}}'))
    assert not diags.has_errors
    assert model.shapes["a#S"].traits == {"smithy.api#tags": [], "smithy.api#deprecated": {}}


def test_metadata_conflicts_are_located_at_the_key():
    _, diags = _load(("a.smithy", 'metadata foo = "a"\n'), ("b.json", '{"smithy": "2.0",\n "metadata": {\n  "foo": "b"}}'))
    errors = [d for d in diags if d.is_error]
    assert [d.code for d in errors] == ["S2005"]
    assert (errors[0].span.path, errors[0].span.line, errors[0].span.column) == ("b.json", 3, 3)
    assert "a.smithy:1:" in errors[0].message


def test_mixin_order_is_graphlibs_static_order():
    """The assembler's topological order of mixins is graphlib's ``static_order`` (the
    order shapes are built in, and so of their diagnostics), cycles raising as there."""
    import graphlib
    import random

    import pytest

    from smithy2cfn.load.loader import _Assembler

    rng = random.Random(17)
    acyclic = 0
    for _ in range(400):
        names = [f"n#S{i}" for i in range(rng.randint(1, 12))]
        rank = {n: i for i, n in enumerate(rng.sample(names, len(names)))}
        cyclic = rng.random() < 0.2
        graph = {n: [m for m in rng.sample(names, rng.choice((0, 0, 1, 2, 3)) if len(names) > 3 else 0)
                     if cyclic or rank[m] < rank[n]]
                 for n in rng.sample(names, len(names))}
        try:
            expected = list(graphlib.TopologicalSorter(graph).static_order())
        except graphlib.CycleError:
            with pytest.raises(graphlib.CycleError):
                _Assembler._topological(graph)
            continue
        acyclic += 1
        assert _Assembler._topological(graph) == expected
    assert acyclic > 250


def test_a_built_in_trait_said_to_accept_every_value_is_never_refused():
    """``coerce`` skips the creation check of a built-in trait whose every value it accepts
    (``_creation_check`` gives ``()``: ``enumValue``, a document): no value of any JSON type is
    refused for any built-in trait so marked, and a trait whose value's type is checked
    (``documentation``) is not marked."""
    from smithy2cfn.load import loader
    from smithy2cfn.model.traits import TRAIT

    model, _ = _load(_v2(""))
    samples = [{}, [], "x", 1, 1.5, True, {"a": [1, {"b": None}]}, ["x", 2], ""]
    marked = [sid for sid, shape in model.shapes.items()
              if sid.startswith("smithy.api#") and TRAIT in shape.traits
              and loader._creation_check(sid, shape.type) == ()]
    assert "smithy.api#enumValue" in marked and "smithy.api#documentation" not in marked
    for sid in marked:
        for value in samples:
            assert loader._creation_problem(sid, model.shapes[sid].type, value) is None, (sid, value)
    assert loader._creation_problem("smithy.api#documentation", "string", 1) is not None
