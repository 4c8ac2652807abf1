"""smithy-contract-traits: the ``smithy.contracts#conditions`` trait (contract-traits.rst).

A shape (or member) may carry ``@conditions``: named JMESPath expressions that every value of
the shape must satisfy (``"start < end"``). Reference behaviour mirrored here:

* ``ConditionsTrait`` / ``Condition.fromNode`` (trait creation): a value that is not an object
  of objects, a condition without a string ``expression`` and ``documentation``, or an
  expression that does not parse is an ERROR ``Model`` ("Error creating trait ..."), and that
  shape's conditions are not used further;
* ``ConditionsTraitValidator``: each expression is type-checked
  (:mod:`smithy2cfn.languages.jmespath_lint`) over a sample value of the shape. An ERROR
  problem is ERROR ``ConditionsTrait``; a DANGER one DANGER
  ``ConditionsTrait.JmespathProblem.JmespathEventDanger.<name>``; a WARNING one WARNING
  ``ConditionsTrait.JmespathProblem.JmespathEventWarning.<name>``; and a result that is not
  statically a boolean is DANGER ``ConditionsTrait``;
* ``ConditionsTraitPlugin`` (node validation): wherever a trait value holds a value of a shape
  or member with ``@conditions``, each condition is evaluated over that value; one that gives
  ``false`` is ERROR ``TraitValue.<name>`` on the shape the trait is applied to.
"""

from __future__ import annotations

from collections.abc import Iterable

from smithy2cfn.checks import validator
from smithy2cfn.diagnostics import Code, Diagnostic, Severity
from smithy2cfn.languages.jmespath_lint import Expression, JmespathSyntaxError, lint, parse, sample_value
from smithy2cfn.model.nodes import node_type, shorten
from smithy2cfn.model.shapes import Model
from smithy2cfn.model.traits import CONDITIONS
from smithy2cfn.validation.support.events import at_trait, diag
from smithy2cfn.validation.support.shapes import trait_applied, user_nodes_having, user_nodes_with_traits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _conditions(traits: dict) -> tuple[dict[str, Expression], tuple[str, str] | None]:
    """The parsed conditions of one shape or member's traits, or ``({}, (why, hint))`` when the
    reference cannot build the trait (``ConditionsTrait.fromNode``, ``Condition.fromNode``:
    the value and each condition are objects, ``expression`` then ``documentation`` are
    strings, and the expression parses), with its message; it then has no trait at all."""
    if CONDITIONS not in traits:
        return {}, None
    value = traits[CONDITIONS]
    shape_hint = "write `@conditions(Name: {expression: \"...\", documentation: \"...\"})`"
    if not isinstance(value, dict):
        return {}, (f"Expected object, but found {node_type(value)}.", shape_hint)
    parsed: dict[str, Expression] = {}
    for name, condition in value.items():
        if not isinstance(condition, dict):
            return {}, (f"Expected object, but found {node_type(condition)}.", shape_hint)
        for key in ("expression", "documentation"):
            if key not in condition:
                return {}, (f"Missing expected member `{key}`.", f"give the condition `{name}` a `{key}`")
            if not isinstance(condition[key], str):
                return {}, (f"Expected `{key}` member to be a string, but found {node_type(condition[key])}.",
                            f"make the `{key}` of the condition `{name}` a string")
        text = condition["expression"]
        try:
            parsed[name] = parse(text)
        except JmespathSyntaxError as e:
            return {}, (f"Invalid condition JMESPath expression: `{text}`. {e}",
                        "see https://jmespath.org/specification.html")
    return parsed, None


@validator(Code("S3720", Severity.ERROR, "Model",
                "a `@conditions` value is not an object of conditions with a string `expression` and "
                "`documentation`, or an expression is not JMESPath (the trait is not created)"),
           Code("S3721", Severity.ERROR, "ConditionsTrait",
                "a `@conditions` expression calls an unknown function or passes it wrong arguments"),
           Code("S3722", Severity.DANGER, "ConditionsTrait",
                "a `@conditions` expression does not fit its shape (a missing field, a wrong type) or does not give"
                " a boolean"),
           Code("S3723", Severity.WARNING, "ConditionsTrait",
                "a `@conditions` expression compares values of a type the comparator does not order"),
           rule="reference ConditionsTrait (trait creation) and ConditionsTraitValidator "
                "(smithy-contract-traits); contract-traits.rst, conditions trait",
           packages=("smithy.contracts",))
def check_conditions(model: Model) -> Iterable[Diagnostic]:
    """Each condition expression parses and gives a boolean over a sample value of its shape.

    Spec: contract-traits.rst §"conditions trait"; reference ``ConditionsTrait`` (parsing) and
    ``ConditionsTraitValidator``. Codes ``S3720`` (ERROR ``Model``: does not parse),
    ``S3721`` (ERROR ``ConditionsTrait``: a function error), ``S3722`` (DANGER
    ``ConditionsTrait...``: a missing field or wrong type, or a result that is not a boolean),
    ``S3723`` (WARNING, a comparator the type does not order).
    """
    for node, traits in user_nodes_having(model, CONDITIONS):
        conditions, problem = _conditions(traits)
        if problem is not None:
            why, hint = problem
            yield at_trait(model, diag(model, "S3720", None, node, f"Error creating trait `{CONDITIONS}`: {why}",
                                       hint=hint), CONDITIONS)
        if not conditions:
            continue
        if "$" in node:
            member = model.member(node)
            sample = sample_value(model, member.target) if member is not None else None
        else:
            sample = sample_value(model, node)
        for name, expression in conditions.items():
            result = lint(expression, sample)
            for problem in result.problems:
                message = (f"Condition `{name}`: Problem found in JMESPath expression for condition {name}: "
                           f"{problem}")
                if problem.severity == "ERROR":
                    yield at_trait(model, diag(model, "S3721", None, node, message), CONDITIONS)
                elif problem.severity == "DANGER":
                    yield at_trait(model, diag(model, "S3722", None, node, message,
                                               f"ConditionsTrait.JmespathProblem.JmespathEventDanger.{name}"),
                                   CONDITIONS)
                else:
                    yield at_trait(model, diag(model, "S3723", None, node, message,
                                               f"ConditionsTrait.JmespathProblem.JmespathEventWarning.{name}"),
                                   CONDITIONS)
            if result.return_type != "boolean":
                yield diag(model, "S3722", None, node,
                           f"Condition {name} expression must return a boolean type, but this expression was "
                           f"statically determined to return a `{result.return_type}` type.",
                           hint="a condition is a test: compare, or use a function that gives a boolean")


def _holds(expression: Expression, value: Any) -> bool:
    """False only when the condition evaluates to ``false`` over ``value`` (an evaluation
    error, or a result that is not a boolean, is not judged here)."""
    import jmespath.exceptions  # (only for a model with conditions: see jmespath_lint._parser_class)
    import jmespath.visitor

    try:
        result = jmespath.visitor.TreeInterpreter().visit(expression.tree, value)
    except (jmespath.exceptions.JMESPathError, TypeError, ValueError, RecursionError):
        return True
    return result is not False


@validator(Code("S3724", Severity.ERROR, "TraitValue",
                "a trait value breaks a `@conditions` condition of its shape (`TraitValue.<condition>`)"),
           rule="reference ConditionsTraitPlugin (smithy-contract-traits), run by the node validation of "
                "trait values; contract-traits.rst, Contract trait enforcement",
           packages=("smithy.contracts",))
def check_condition_values(model: Model) -> Iterable[Diagnostic]:
    """Trait values satisfy the conditions of the shapes they hold values of.

    Spec: contract-traits.rst §"conditions trait" ("values of the shape MUST satisfy each
    condition"); reference ``ConditionsTraitPlugin``, run by the node validation of trait
    values. Code ``S3724`` (ERROR ``TraitValue.<condition name>``), on the shape or member the
    trait is applied to.
    """
    cache: dict[str, dict[str, Expression]] = {}

    def conditions_of(node_id: str) -> dict[str, Expression]:
        found = cache.get(node_id)
        if found is None:
            obj = model.member(node_id) if "$" in node_id else model.shapes.get(node_id)
            found = _conditions(obj.traits)[0] if obj is not None else {}
            cache[node_id] = found
        return found

    if not trait_applied(model, CONDITIONS):
        return
    for node, traits in user_nodes_with_traits(model):
        for trait_id, value in traits.items():
            if trait_id not in model.shapes:
                continue
            # (value, shape ID, member ID or None, path) — walked iteratively
            stack: list[tuple[Any, str, str | None, str]] = [(value, trait_id, None, "")]
            while stack:
                v, shape_id, member_id, path = stack.pop()
                shape = model.shapes.get(shape_id)
                if v is None or shape is None:
                    continue
                for owner in ((member_id,) if member_id else ()) + (shape_id,):
                    for name, expression in conditions_of(owner).items():
                        if not _holds(expression, v):
                            text = (f"Error validating trait `{trait_id}`{shorten(path)}: Value provided for "
                                    f"`{owner}` must match the {name} condition expression")
                            yield at_trait(model, diag(model, "S3724", None, node, text, f"TraitValue.{name}"),
                                           trait_id)
                if shape.type in ("structure", "union") and isinstance(v, dict):
                    for key, item in v.items():
                        member = shape.members.get(key)
                        if member is not None:
                            stack.append((item, member.target, member.id, f"{path}.{key}"))
                elif shape.type in ("list", "set") and isinstance(v, list):
                    member = shape.members.get("member")
                    if member is not None:
                        stack.extend((item, member.target, member.id, f"{path}.{i}")
                                     for i, item in reversed(list(enumerate(v))))
                elif shape.type == "map" and isinstance(v, dict):
                    key_member, value_member = shape.members.get("key"), shape.members.get("value")
                    for key, item in v.items():
                        if value_member is not None:
                            stack.append((item, value_member.target, value_member.id, f"{path}.{key}"))
                        if key_member is not None:
                            stack.append((key, key_member.target, key_member.id, f"{path}.{key}"))


__all__ = ["check_condition_values", "check_conditions"]
