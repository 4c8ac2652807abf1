"""The selector language on its own (:mod:`smithy2cfn.languages.selector`): what a selector
matches on a small model, recursive neighbors, syntax errors, and every selector of the prelude
parsing. How the validators use it is tested under tests/validation; its batched and filtering
evaluation in test_selector_batch.py and test_selector_filters.py.
"""

from __future__ import annotations

import re

import pytest

from smithy2cfn.diagnostics import Diagnostics
from smithy2cfn.languages.selector import SelectorEngine, SelectorError, parse_selector
from smithy2cfn.load import load_texts


def idl(body: str) -> str:
    return '$version: "2.0"\n\nnamespace smithy.example\n\n' + body


def _model(body: str):
    diags = Diagnostics()
    model = load_texts([("sel.smithy", idl(body))], diags)
    assert not diags.has_errors
    return model


SELECTOR_MODEL = """
@documentation("Top")
service Svc {
    version: "2020-01-01"
    operations: [GetThing]
    resources: [Thing]
}

resource Thing {
    identifiers: { thingId: ThingId }
    read: ReadThing
}

string ThingId

@readonly
operation ReadThing {
    input := { @required thingId: ThingId }
    output := { name: String, tags: TagList, count: Integer }
}

@readonly
@http(method: "GET", uri: "/x")
operation GetThing {
    input := { @required @length(min: 1) name: String }
}

list TagList { member: String }
map TagMap { key: String, value: Document }

@error("client")
structure Oops { message: String }

enum Color { RED, GREEN }
"""


@pytest.mark.parametrize(
    "selector,expected",
    [
        ("operation", {"smithy.example#ReadThing", "smithy.example#GetThing"}),
        ("structure > member [trait|required]",
         {"smithy.example#ReadThingInput$thingId", "smithy.example#GetThingInput$name"}),
        ("list > member > string", {"smithy.api#String"}),
        ("string :not(enum) [id|namespace = smithy.example]", {"smithy.example#ThingId"}),
        ("string [id|namespace = 'smithy.example']", {"smithy.example#ThingId", "smithy.example#Color"}),
        ("[trait|error = client]", {"smithy.example#Oops"}),
        ("[trait|http|method = get i]", {"smithy.example#GetThing"}),
        ("[trait|length|min > 0]", {"smithy.example#GetThingInput$name"}),
        ("resource -[read]-> operation -[output]-> structure > member :test(> list)",
         {"smithy.example#ReadThingOutput$tags"}),
        ("service ~> resource", {"smithy.example#Thing"}),
        (":is(map, list) [id|name ^= Tag]", {"smithy.example#TagList", "smithy.example#TagMap"}),
        ("~> member :test(> document)", {"smithy.example#TagMap$value"}),
        ("[service|version ^= '2020-']", {"smithy.example#Svc"}),
        # :topdown follows `operation` and `resource` relationships only (selectors.rst
        # §"topdown", reference TopDownSelector): not the lifecycle `read: ReadThing`.
        (":topdown([trait|documentation])",
         {"smithy.example#Svc", "smithy.example#Thing", "smithy.example#GetThing"}),
        # The reference's deprecated synthetic relationships.
        ("resource -[instanceOperation]-> operation", {"smithy.example#ReadThing"}),
        ("operation <-[instanceOperation]- resource", set()),
        ("resource -[bound]-> service", {"smithy.example#Svc"}),
        ("resource <-[bound]- service", {"smithy.example#Svc"}),
        # No member -> target edge from an enum member, no edge to an absent (Unit) output.
        ("enum > member > *", set()),
        ("operation [id|name = GetThing] -[output]-> *", set()),
        ("string :test(< member < list)", {"smithy.api#String"}),
        ("structure <-[output]- operation", {"smithy.example#ReadThing"}),
        ("[@trait|length: @{min} = 1]", {"smithy.example#GetThingInput$name"}),
        ("enum > member [id|member = RED]", {"smithy.example#Color$RED"}),
        (":unknownFunction(*)", set()),
    ],
)
def test_selector_matches(selector, expected):
    model = _model(SELECTOR_MODEL)
    engine = SelectorEngine(model)
    got = {n for n in engine.select(parse_selector(selector))
           if n.startswith("smithy.example#") or n in expected}
    assert got == expected


def test_recursive_neighbors_exclude_the_start():
    """``~>`` yields what each start reaches, never the start itself, even through a cycle
    (reference RecursiveNeighborSelector); a start reached from another start is yielded."""
    model = _model("structure A { a: A }\nstructure B { b: C }\nstructure C { c: B }\n")
    engine = SelectorEngine(model)

    def run(text):
        return {n for n in engine.select(parse_selector(text)) if n.startswith("smithy.example#")}

    assert run("structure [id|name = A] ~> structure") == set()
    assert run("structure [id|name = A] ~> member") == {"smithy.example#A$a"}
    assert run("structure [id|name = B] ~> structure") == {"smithy.example#C"}
    assert run("structure :is([id|name = B], [id|name = C]) ~> structure") == {"smithy.example#B", "smithy.example#C"}
    assert run("structure :test(~> structure [id|name = A])") == set()


@pytest.mark.parametrize("text", ["", "[trait|", "string ]", "-[input", "notAType", "[id = 'x]", ":test(string"])
def test_selector_parse_errors(text):
    with pytest.raises(SelectorError):
        parse_selector(text)


def test_every_prelude_selector_parses():
    from smithy2cfn.prelude import prelude_files

    found = 0
    for _name, text in prelude_files():
        for m in re.finditer(r'selector:\s*("""(.*?)"""|"((?:[^"\\]|\\.)*)")', text, re.S):
            sel = m.group(2) if m.group(2) is not None else m.group(3)
            found += 1
            parse_selector(sel)
    assert found > 40
