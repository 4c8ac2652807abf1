"""Conformance of the loader with the reference on the other loader folders of
``../shared/conformance/idl`` (besides ``valid``/``canonical``/``invalid``).

Each case loads some files with :func:`smithy2cfn.load.load_model` and checks the
reference's outcome, as its Java tests state it (``ModelAssemblerTest``,
``ModelInteropTransformerTest``/``ModelUpgraderTest``, ``IdlModelLoaderTest``,
``AstModelLoaderTest``, ``ApplyResourceBasedTargetsTest``,
``ValidSmithyModelLoaderRunnerTest``, ``LoaderVisitorTest``) or the case's own files say
(``upgraded.smithy``, ``result.json``, first-line comments):

* ``upgrade``: the loaded folder's JSON AST equals that of its ``upgraded.smithy``
  (``box-in-v2``: ``@box`` in a 2.0 file is an error on the member);
* ``upgrade-box``: the member's IDL 2.0 nullability given on the file's first line;
* ``mixins``, ``forwardrefs``, ``nested``, ``private-resource-elision``, top-level files:
  loads with no errors and gives the stated shapes/traits/metadata, or fails with a
  located error on the stated shape.

Left out (Java-only): jars, manifests, validators loaded from jars, Ion models,
``sourcecontext``, validator filtering/decorators, listeners.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import SHARED, record_result
from smithy2cfn.diagnostics import Diagnostics, Severity
from smithy2cfn.load import load_model, load_texts
from smithy2cfn.model.json_ast import model_to_json_ast

IDL = SHARED / "conformance" / "idl"


class Loaded:
    """One load: the model, its diagnostics and its JSON AST."""

    def __init__(self, paths: list[Path] | None = None, texts: list[tuple[str, str]] | None = None) -> None:
        self.diags = Diagnostics()
        if texts is not None:
            self.model = load_texts(texts, self.diags)
        else:
            self.model = load_model([str(p) for p in paths or []], self.diags)
        self.ast = model_to_json_ast(self.model)

    @property
    def errors(self) -> list:
        return [d for d in self.diags if d.is_error]

    def no_errors(self) -> None:
        assert not self.errors, "\n".join(d.format_text() for d in self.errors)

    def shape(self, shape_id: str):
        return self.model.shapes[shape_id]

    def member(self, member_id: str):
        member = self.model.member(member_id)
        assert member is not None, f"{member_id} is missing"
        return member

    def events_on(self, shape_id: str, min_severity: Severity = Severity.ERROR) -> list:
        return [d for d in self.diags if d.severity >= min_severity and d.shape_id
                and (d.shape_id == shape_id or d.shape_id.startswith(shape_id + "$"))]


def _p(*rel: str) -> list[Path]:
    return [IDL / r for r in rel]


def _files(folder: str, exclude: tuple[str, ...] = ()) -> list[Path]:
    root = IDL / folder
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".smithy", ".json")
                  and p.name not in exclude)


def _shapes_without(ast: dict, *namespaces: str) -> dict:
    return {k: v for k, v in ast["shapes"].items() if k.split("#")[0] not in namespaces}


def _located(diags: list) -> bool:
    return all(d.span is not None and d.span.line > 0 for d in diags)


# --------------------------------------------------------------------------- upgrade


def _upgrade_case(name: str) -> Callable[[], None]:
    def check() -> None:
        folder = f"upgrade/{name}"
        loaded = Loaded(_files(folder, exclude=("upgraded.smithy", "upgraded.json")))
        if name == "box-in-v2":
            # ModelInteropTransformerTest.emitsErrorWhenBoxTraitUsedInV2
            errors = loaded.events_on("smithy.example#Bad$boolean")
            assert errors and "@box" in errors[0].message and _located(errors), loaded.errors
            assert errors[0].span.line == 6
            return
        loaded.no_errors()
        expected = Loaded(_p(f"{folder}/upgraded.smithy"))
        assert loaded.ast == expected.ast
        if name == "does-not-introduce-conflict":
            foo = "smithy.example#Foo$"
            assert loaded.member(foo + "boxedMember").traits.get("smithy.api#default", "-") is None
            assert loaded.member(foo + "boxedMember").target == "smithy.api#PrimitiveInteger"
            assert "smithy.api#default" not in loaded.member(foo + "previouslyBoxedTarget").traits
            assert "smithy.api#default" not in loaded.member(foo + "explicitlyBoxedTarget").traits
        if name == "mixed-versions":
            number = loaded.member("smithy.example#Foo$number")
            assert number.target == "smithy.api#PrimitiveInteger"
            assert number.traits["smithy.api#default"] == 0
        if name == "all-1.0":
            assert loaded.member("smithy.example#BlobPayload$payload").traits["smithy.api#default"] == ""
            assert loaded.member("smithy.example#Integers$ranged").traits["smithy.api#default"] == 0
    return check


def _upgrade_cases() -> dict[str, Callable[[], None]]:
    root = IDL / "upgrade"
    return {d.name: _upgrade_case(d.name) for d in sorted(root.iterdir()) if d.is_dir()} if root.exists() else {}


# --------------------------------------------------------------------------- upgrade-box


def _v2_nullable(loaded: Loaded, member_id: str) -> bool:
    """IDL 2.0 nullability of a structure member as the reference's ``NullableIndex``
    (``CLIENT`` mode) judges it."""
    member = loaded.member(member_id)
    container = loaded.shape(member_id.split("$")[0])
    traits = member.traits
    if "smithy.api#clientOptional" in traits or "smithy.api#input" in container.traits:
        return True
    if "smithy.api#required" in traits:
        return False
    return traits.get("smithy.api#default") is None


def _upgrade_box_case(rel: str) -> Callable[[], None]:
    def check() -> None:
        path = IDL / "upgrade-box" / rel
        expected = json.loads(path.read_text().splitlines()[0].lstrip("/ ").strip())
        loaded = Loaded([path])
        loaded.no_errors()
        foo = loaded.shape("smithy.example#Foo")
        # The member is named like the file (booleanRequiredToNullablePrelude's is not).
        name = Path(rel).stem if Path(rel).stem in foo.members else next(iter(foo.members))
        # "v1-box" and "v1-client-zero-value" describe the reference's synthetic @box
        # traits for IDL 1.0 tools, which this compiler does not keep.
        assert _v2_nullable(loaded, f"smithy.example#Foo${name}") is expected["v2"]
    return check


def _upgrade_box_cases() -> dict[str, Callable[[], None]]:
    root = IDL / "upgrade-box"
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): _upgrade_box_case(str(p.relative_to(root)))
            for p in sorted(root.rglob("*.smithy"))}


# --------------------------------------------------------------------------- mixins


def _mixins_conflict_acceptable() -> None:
    loaded = Loaded(_p("mixins/mixin-conflict-acceptable-1.smithy", "mixins/mixin-conflict-acceptable-2.smithy"))
    loaded.no_errors()
    assert list(loaded.shape("smithy.example#A").members) == ["b", "a"]


def _mixins_conflict_error() -> None:
    loaded = Loaded(_p("mixins/mixin-conflict-acceptable-1.smithy", "mixins/mixin-conflict-error.smithy"))
    errors = loaded.events_on("smithy.example#A")
    assert errors and _located(errors), loaded.errors
    assert errors[0].span.path.endswith("mixin-conflict-error.smithy")


def _mixins_override_traits() -> None:
    loaded = Loaded(_p("mixins/mixins-can-override-traits.smithy"))
    loaded.no_errors()
    f = loaded.shape("smithy.example#F")
    assert list(f.members) == ["a", "b", "c", "d", "e", "f"]
    assert f.members["a"].traits["smithy.api#documentation"] == "I've changed"
    assert f.members["c"].traits["smithy.api#documentation"] == "I've changed"
    assert "smithy.api#internal" in f.members["c"].traits


def _mixins_multiple_inheritance() -> None:
    loaded = Loaded(_p("mixins/multiple-inheritance-with-introduction.smithy"))
    loaded.no_errors()
    member = loaded.member("com.example#FinalStructure$member")
    assert set(member.traits) == {"smithy.api#pattern", "smithy.api#required", "smithy.api#internal"}
    assert member.traits["smithy.api#pattern"] == "baz"


def _mixins_apply_to_mixed_member_three_times() -> None:
    text = (IDL / "mixins/apply-to-mixed-member.json").read_text()
    loaded = Loaded(texts=[(f"test{i}.json", text) for i in ("", "2", "3")])
    loaded.no_errors()
    assert loaded.member("com.example#Thing$description").traits["smithy.api#default"] == "test"


def _mixins_same_apply_twice() -> None:
    apply = (IDL / "mixins/member-apply-other-namespace.smithy").read_text()
    loaded = Loaded(texts=[("mixed-member.smithy", (IDL / "mixins/mixed-member.smithy").read_text()),
                           ("member-apply-1.smithy", apply), ("member-apply-2.smithy", apply)])
    loaded.no_errors()
    member = loaded.member("com.example#Thing$description")
    assert member.traits["smithy.api#default"] == "test"
    assert "smithy.api#required" in member.traits


def _mixins_json(name: str, check: Callable[[Loaded], None]) -> Callable[[], None]:
    def run() -> None:
        loaded = Loaded(_p(f"mixins/{name}"))
        loaded.no_errors()
        assert not [d for d in loaded.diags if d.severity >= Severity.WARNING], "no warnings expected"
        check(loaded)
    return run


def _mixin_cases() -> dict[str, Callable[[], None]]:
    ex = "smithy.example#"
    return {
        "mixin-conflict-acceptable": _mixins_conflict_acceptable,
        "mixin-conflict-error": _mixins_conflict_error,
        "mixins-can-override-traits": _mixins_override_traits,
        "multiple-inheritance-with-introduction": _mixins_multiple_inheritance,
        "apply-to-mixed-member (loaded three times)": _mixins_apply_to_mixed_member_three_times,
        "member-apply-other-namespace (applied twice)": _mixins_same_apply_twice,
        "collection-mixins.json": _mixins_json("collection-mixins.json", lambda m: (
            m.shape(ex + "MyList").members["member"].target == "smithy.api#String"
            and m.shape(ex + "MyMap").traits["smithy.api#length"] == {"min": 1, "max": 4}) or pytest.fail("bad")),
        "operation-mixins.json": _mixins_json("operation-mixins.json", lambda m: (
            m.shape("example.weather.operations#OperationWithMixin").errors == [
                "example.weather.errors#ThrottlingException", "example.weather.errors#ValidationException"])
            or pytest.fail("errors not inherited")),
        "resource-mixins.json": _mixins_json("resource-mixins.json", lambda m: (
            m.shape("example.weather.resources#ResourceWithMixin").operations == [
                "example.weather.resources#DummyOperation"]) or pytest.fail("operations")),
        "service-mixins.json": _mixins_json("service-mixins.json", lambda m: (
            m.shape(ex + "MyService").operations == [ex + "MyDummyOperation"]) or pytest.fail("operations")),
        "simple-shape-mixins.json": _mixins_json("simple-shape-mixins.json", lambda m: (
            m.shape(ex + "MyTestInt").traits["smithy.api#range"] == {"min": 1}
            and m.shape(ex + "MyTestString").traits["smithy.api#length"] == {"min": 2, "max": 4}
            and "smithy.api#mixin" not in m.shape(ex + "MyTestInt").traits) or pytest.fail("traits")),
        "structure-mixins.json": _mixins_json("structure-mixins.json", lambda m: (
            list(m.shape(ex + "Baz").members) == ["bar", "foo"]) or pytest.fail("members")),
        "union-mixins.json": _mixins_json("union-mixins.json", lambda m: (
            list(m.shape(ex + "MyUnion").members) == ["bar", "baz"]) or pytest.fail("members")),
    }


# --------------------------------------------------------------------------- forwardrefs


def _forwardrefs_resource() -> None:
    loaded = Loaded(_p("forwardrefs/resource/resource.smithy", "forwardrefs/resource/operation.smithy"))
    loaded.no_errors()
    assert loaded.ast == Loaded(_p("forwardrefs/resource/result.json")).ast


def _forwardrefs_use(name: str) -> Callable[[], None]:
    def check() -> None:
        shared = IDL / "valid" / "__shared.json"
        loaded = Loaded([IDL / f"forwardrefs/use/{name}.smithy", shared])
        loaded.no_errors()
        expected = Loaded([IDL / "forwardrefs/use/result.json", shared])
        expected.no_errors()
        assert loaded.ast == expected.ast
        assert "smithy.api#deprecated" in loaded.member("foo.example#Widget$id").traits
    return check


def _forwardref_cases() -> dict[str, Callable[[], None]]:
    return {"resource": _forwardrefs_resource, "use/use.smithy": _forwardrefs_use("use"),
            "use/no-use.smithy": _forwardrefs_use("no-use")}


# --------------------------------------------------------------------------- nested


_MAIN_TYPES = {"String": "string", "Byte": "byte", "Integer": "integer", "Long": "long", "Float": "float",
               "BigDecimal": "bigDecimal", "BigInteger": "bigInteger", "Blob": "blob", "Boolean": "boolean",
               "Timestamp": "timestamp", "List": "list", "Map": "map", "Structure": "structure",
               "TaggedUnion": "union", "Resource": "resource", "Operation": "operation", "Service": "service",
               "String2": "string", "String3": "string"}


def _nested_with_main() -> None:
    # ModelAssemblerTest.importsFilesWithAllShapes
    loaded = Loaded([IDL / "main.json", IDL / "nested"])
    loaded.no_errors()
    for name, kind in _MAIN_TYPES.items():
        assert loaded.shape(f"example.namespace#{name}").type == kind, name
    string = loaded.shape("example.namespace#String")
    assert "smithy.api#sensitive" in string.traits and "smithy.api#documentation" in string.traits
    meta = loaded.model.metadata
    assert meta["foo"] == "baz" and meta["bar"] == "qux" and meta["lorem"] == "ipsum"
    assert sorted(meta["list"]) == ["a", "b", "c"]


def _nested_merges(paths: list[str]) -> Callable[[], None]:
    def check() -> None:
        # ModelAssemblerTest.mergesMultipleModels / mergesDirectories
        loaded = Loaded(_p(*paths))
        loaded.no_errors()
        traits = loaded.shape("example.namespace#String").traits
        assert "smithy.api#documentation" in traits and traits["smithy.api#mediaType"] == "application/json"
    return check


def _nested_cases() -> dict[str, Callable[[], None]]:
    return {"main.json + nested": _nested_with_main,
            "merges-1.json + nested/merges-2.json + nested/merges-3.json":
                _nested_merges(["merges-1.json", "nested/merges-2.json", "nested/merges-3.json"]),
            "merges-1.json + nested": _nested_merges(["merges-1.json", "nested"])}


# --------------------------------------------------------------------------- private-resource-elision


def _private_cross_namespace() -> None:
    loaded = Loaded(_p("private-resource-elision/private-resource.smithy",
                       "private-resource-elision/cross-namespace-structure.smithy"))
    events = [d for d in loaded.events_on("smithy.example#InvalidElidedStructure", Severity.DANGER)
              if "smithy.private#PrivateResource" in d.message]
    assert events and _located(events), list(loaded.diags)
    assert events[0].severity == Severity.DANGER and events[0].event_id == "PrivateAccess"


def _private_ok(*paths: str) -> Callable[[], None]:
    def check() -> None:
        loaded = Loaded(_p(*paths))
        loaded.no_errors()
        assert not [d for d in loaded.diags if d.event_id == "PrivateAccess" or "private" in d.message.lower()]
        struct = next(s for s in loaded.model.shapes.values() if s.id.endswith("ElidedStructure"))
        assert struct.members["id"].target == "smithy.api#String"
    return check


def _private_cases() -> dict[str, Callable[[], None]]:
    d = "private-resource-elision/"
    return {"cross-namespace-structure": _private_cross_namespace,
            "same-namespace-structure": _private_ok(d + "same-namespace-structure.smithy"),
            "cross-namespace-public": _private_ok(d + "public-resource.smithy", d + "cross-namespace-public.smithy")}


# --------------------------------------------------------------------------- top-level files


def _metadata_conflicts() -> None:
    # ModelAssemblerTest.detectsMetadataConflicts: one error, about key "foo"; lists merge.
    loaded = Loaded(_p("metadata-conflicts.json", "metadata-conflicts-2.json"))
    assert len(loaded.errors) == 1 and "'foo'" in loaded.errors[0].message, loaded.errors
    assert _located(loaded.errors)
    assert sorted(loaded.model.metadata["list"]) == ["a", "b", "c", "d"]


def _metadata_equal_and_arrays() -> None:
    # ModelAssemblerTest.allowsDuplicateEquivalentMetadata / mergesConflictingMetadataArrays
    loaded = Loaded(texts=[("1.smithy", "metadata foo = 10\nmetadata bar = [\"a\"]\n"),
                           ("2.smithy", "metadata foo = 10\nmetadata bar = [\"a\"]\n")])
    loaded.no_errors()
    assert loaded.model.metadata == {"foo": 10, "bar": ["a", "a"]}


def _dedupe_models() -> None:
    # ModelAssemblerTest.dedupesExactSameTraitsAndMetadataFromSameLocation
    path = IDL / "dedupe-models.smithy"
    once = Loaded([path])
    twice = Loaded(texts=[(str(path), path.read_text())] * 2)
    twice_cli = Loaded([path, path])
    for loaded in (once, twice, twice_cli):
        loaded.no_errors()
        assert loaded.model.metadata["abc"] == [1]
        assert loaded.shape("smithy.example#MyString").traits["smithy.api#tags"] == ["a", "b"]
    assert once.ast == twice.ast == twice_cli.ast


def _conflicting_shapes_equal_but_traits() -> None:
    # ModelAssemblerTest.allowsConflictingShapesThatAreEqual
    loaded = Loaded(texts=[
        ("1.smithy", "namespace foo.baz\n@deprecated\nstructure Foo {\n    foo: String,}\n"),
        ("2.smithy", "namespace foo.baz\nstructure Foo {\n    @internal\n    foo: String,\n}\n")])
    loaded.no_errors()
    assert "smithy.api#deprecated" in loaded.shape("foo.baz#Foo").traits
    assert "smithy.api#internal" in loaded.member("foo.baz#Foo$foo").traits


def _conflicting_aggregates() -> None:
    # ModelAssemblerTest.detectsConflictingDuplicateAggregates / providesDiffWhenConflictsAreFound
    for texts in ([("1.smithy", "namespace foo.baz\nstructure Foo {\n    foo: String,}\n"),
                   ("2.smithy", "namespace foo.baz\nstructure Foo {}\n")],
                  [("1.smithy", '$version: "2"\nnamespace foo.baz\ninteger Foo\n'),
                   ("2.smithy", '$version: "2"\nnamespace foo.baz\n@default(0)\nlong Foo\n')]):
        loaded = Loaded(texts=texts)
        errors = loaded.events_on("foo.baz#Foo")
        assert errors and _located(errors) and errors[0].span.path == "2.smithy", loaded.errors


def _apply_use() -> None:
    # IdlModelLoaderTest.defersApplyTargetAndTrait
    loaded = Loaded(_p("apply-use-1.smithy", "apply-use-2.smithy", "apply-use-3.smithy"))
    loaded.no_errors()
    traits = loaded.shape("smithy.example#Foo").traits
    assert traits["smithy.example#bar"] == "hi" and traits["smithy.example.b#baz"] == "hi"
    assert "smithy.api#deprecated" in traits and "smithy.api#sensitive" in traits


def _first_second_namespace() -> None:
    # IdlModelLoaderTest.canLoadAndAliasShapesAndTraits
    loaded = Loaded(_p("first-namespace.smithy", "second-namespace.smithy"))
    loaded.no_errors()
    struct = loaded.shape("smithy.example2#MyStruct")
    assert {t for t in struct.traits if t.startswith("smithy.example1#")} == {
        "smithy.example1#trait1", "smithy.example1#trait2", "smithy.example1#trait3"}
    assert struct.members["foo"].target == "smithy.example1#Foo"


def _forward_refs_ordered() -> None:
    loaded = Loaded(_p("forward-references-are-ordered.smithy"))
    loaded.no_errors()
    assert loaded.shape("smithy.example#Example").errors == [f"smithy.example#Error{i}" for i in range(1, 7)]


def _document_node_versions() -> None:
    # ModelAssemblerTest.upgrades1_0_documentNodesToo / patches2_0_documentNodesToo
    up = Loaded(_p("needs-upgrade-document-node.json"))
    down = Loaded(_p("needs-downgrade-document-node.json"))
    for loaded in (up, down):
        loaded.no_errors()
        ex = "smithy.example#"
        assert "smithy.api#default" not in loaded.shape(ex + "BoxDouble").traits
        assert loaded.shape(ex + "PrimitiveDouble").traits["smithy.api#default"] == 0
        assert loaded.member(ex + "Struct$foo").traits["smithy.api#default"] == 0
        assert "smithy.api#default" not in loaded.member(ex + "Struct$bar").traits
        assert loaded.member(ex + "Struct$boxed").traits["smithy.api#default"] is None
    assert up.ast == down.ast
    text = (IDL / "needs-upgrade-document-node.json").read_text()
    assert Loaded(texts=[("foo.json", text), ("foo.json", text)]).ast == up.ast


def _synthetic_boxing() -> None:
    # ModelAssemblerTest.syntheticBoxingResultsInSameModelBetween1and2
    one = Loaded(_p("synthetic-boxing-1.smithy"))
    two = Loaded(_p("synthetic-boxing-2.smithy"))
    for loaded in (one, two):
        loaded.no_errors()
        assert "smithy.api#default" not in loaded.shape("smithy.example#Long").traits
        assert loaded.shape("smithy.example#PrimitiveLong").traits["smithy.api#default"] == 0
    assert one.ast == two.ast


def _synthetic_boxing_mixins() -> None:
    loaded = Loaded(_p("synthetic-boxing-mixins.smithy"))
    loaded.no_errors()
    for struct in ("MixinStruct", "MixedStruct"):
        assert loaded.member(f"smithy.example#{struct}$bar").traits["smithy.api#default"] is None


def _invalid_v1_still_upgraded() -> None:
    # ModelAssemblerTest.versionTransformsAreAlwaysApplied (we report the unknown trait as
    # a warning; the unresolved target is the error)
    loaded = Loaded(_p("invalid-1.0-model-upgraded.smithy"))
    assert loaded.events_on("smithy.example#Foo$bux") and _located(loaded.errors)
    assert [d for d in loaded.diags if d.shape_id == "smithy.example#Foo$boo"]
    assert loaded.shape("smithy.example#MyInteger").traits["smithy.api#default"] == 0
    assert loaded.member("smithy.example#Foo$baz").traits["smithy.api#default"] == 0
    assert loaded.member("smithy.example#Foo$bam").traits["smithy.api#default"] is None


def _range_upgrade() -> None:
    # ModelInteropTransformerTest.doesNotFailWhenUpgradingWhenZeroValueIncompatibleWithRangeTrait
    loaded = Loaded(_p("range-upgrade-1.0.smithy"))
    loaded.no_errors()
    shape = loaded.shape("smithy.example#MyLong1")
    assert shape.traits["smithy.api#range"] == {"min": 1, "max": 100}
    assert shape.traits["smithy.api#default"] == 0


def _ast_empty_apply() -> None:
    loaded = Loaded(_p("ast-empty-apply-1.json", "ast-empty-apply-2.json"))
    loaded.no_errors()
    assert loaded.shape("smithy.example#Foo").type == "string"


def _null_coerce() -> None:
    # LoaderVisitorTest.coercesNullTraitValues
    loaded = Loaded(_p("null-coerce-traits.json"))
    loaded.no_errors()
    traits = loaded.shape("ns.foo#Foo").traits
    assert traits["smithy.api#deprecated"] == {}
    assert traits["smithy.api#tags"] == [] and traits["smithy.api#references"] == []


def _invalid_shape_types() -> None:
    # ModelAssemblerTest.detectsInvalidShapeTypes: one error, the other shape still loads
    loaded = Loaded(_p("invalid-shape-types.json"))
    assert len(loaded.errors) == 1 and "foobaz" in loaded.errors[0].message and _located(loaded.errors)
    assert loaded.errors[0].shape_id == "example.namespace#Invalid"
    assert loaded.shape("example.namespace#String").type == "string"


def _untyped_shape_entries(name: str, shape_id: str) -> Callable[[], None]:
    def check() -> None:
        # Pre-1.0 "traits at the top of the shape" entries: the reference's JSON AST
        # loader needs a "type" on every shape entry.
        loaded = Loaded(_p(name))
        assert loaded.errors and _located(loaded.errors) and shape_id in loaded.errors[0].message
    return check


def _errors_json() -> None:
    from click.testing import CliRunner

    from smithy2cfn.cli import main

    loaded = Loaded(_p("errors.json"))
    loaded.no_errors()   # loads; the bad @error values are the validator's
    result = CliRunner().invoke(main, ["validate", str(IDL / "errors.json"), "--format", "json"],
                                catch_exceptions=False)
    assert result.exit_code == 1
    shapes = {json.loads(x).get("shapeId") for x in result.stderr.splitlines() if x.startswith("{")}
    assert {"example.namespace#Invalid1", "example.namespace#Invalid2"} <= shapes


def _mixin_and_apply_twice() -> None:
    # ModelAssemblerTest.handlesSameModelWhenBuiltAndImported
    path = IDL / "mixin-and-apply-model.smithy"
    for loaded in (Loaded([path]), Loaded(texts=[(str(path), path.read_text()), ("copy.smithy", path.read_text())])):
        loaded.no_errors()
        assert "smithy.api#required" in loaded.member("smithy.example#MachineData$machineId").traits
        assert loaded.shape("smithy.example#CreateMachine").output == "smithy.example#CreateMachineResponse"


def _multiline_comments() -> None:
    loaded = Loaded(_p("multiline-comments.smithy"))
    loaded.no_errors()
    assert loaded.member("smithy.example#MyStruct$myMember").traits["smithy.api#documentation"] == (
        "This is the first line.\nThis is the second line.")


def _default_subsequent_trait() -> None:
    # IdlModelLoaderTest.defaultValueSugaringDoesNotEatSubsequentDocumentation
    loaded = Loaded(_p("default-subsequent-trait.smithy"))
    loaded.no_errors()
    bar = loaded.member("smithy.example#TestShape$bar")
    baz = loaded.member("smithy.example#TestShape$baz")
    assert bar.traits["smithy.api#documentation"] == "bar" and len(bar.traits) == 3
    assert baz.traits["smithy.api#documentation"] == "baz" and len(baz.traits) == 2
    assert loaded.shape("smithy.example#MyString").traits == {}


def _synthetic_enum_reapply() -> None:
    # ModelAssemblerTest.doesNotReParsesSyntheticTraits
    path = IDL / "does-not-reparses-synthetic-traits.smithy"
    loaded = Loaded(texts=[(str(path), path.read_text()),
                           ("foo.smithy", "namespace smithy.example\napply Foo @sensitive\n")])
    loaded.no_errors()
    assert "smithy.api#sensitive" in loaded.shape("smithy.example#Foo").traits


def _top_level_cases() -> dict[str, Callable[[], None]]:
    return {
        "metadata-conflicts.json + metadata-conflicts-2.json": _metadata_conflicts,
        "equal metadata and metadata arrays": _metadata_equal_and_arrays,
        "dedupe-models.smithy": _dedupe_models,
        "equal shapes with different traits": _conflicting_shapes_equal_but_traits,
        "conflicting shapes": _conflicting_aggregates,
        "apply-use-1/2/3.smithy": _apply_use,
        "first-namespace + second-namespace": _first_second_namespace,
        "forward-references-are-ordered.smithy": _forward_refs_ordered,
        "needs-upgrade/downgrade-document-node.json": _document_node_versions,
        "synthetic-boxing-1/2.smithy": _synthetic_boxing,
        "synthetic-boxing-mixins.smithy": _synthetic_boxing_mixins,
        "invalid-1.0-model-upgraded.smithy": _invalid_v1_still_upgraded,
        "range-upgrade-1.0.smithy": _range_upgrade,
        "ast-empty-apply-1/2.json": _ast_empty_apply,
        "null-coerce-traits.json": _null_coerce,
        "invalid-shape-types.json": _invalid_shape_types,
        "other-top-level.json": _untyped_shape_entries("other-top-level.json", "example.namespace#String"),
        "string-member-external-traits.json": _untyped_shape_entries("string-member-external-traits.json",
                                                                     "ns.foo#List$member"),
        "errors.json": _errors_json,
        "mixin-and-apply-model.smithy": _mixin_and_apply_twice,
        "multiline-comments.smithy": _multiline_comments,
        "default-subsequent-trait.smithy": _default_subsequent_trait,
        "does-not-reparses-synthetic-traits.smithy": _synthetic_enum_reapply,
    }


# --------------------------------------------------------------------------- the test


_SUITES: dict[str, Callable[[], dict[str, Callable[[], None]]]] = {
    "upgrade": _upgrade_cases,
    "upgrade-box": _upgrade_box_cases,
    "mixins": _mixin_cases,
    "forwardrefs": _forwardref_cases,
    "nested": _nested_cases,
    "private-resource-elision": _private_cases,
    "top-level files": _top_level_cases,
}


def _params() -> list:
    if not IDL.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(
            reason=f"{IDL} not found (the ../shared folder is absent)"), id="absent")]
    out = []
    for suite, cases in _SUITES.items():
        for name, check in cases().items():
            out.append(pytest.param(suite, check, id=f"{suite}:{name}"))
    return out


@pytest.mark.parametrize(("suite", "check"), _params())
def test_loader_folder_case(suite: str, check: Callable[[], None], request):
    case = request.node.callspec.id.split(":", 1)[1]
    ok = False
    try:
        check()
        ok = True
    finally:
        record_result(f"idl loader folders: {suite}", case, ok)
