"""smithy2cfn's own prelude and built-in trait packages, as Smithy IDL 2.0 files.

Every model loads these files before the user's (Smithy 2.0 "The Smithy model" §"Prelude":
"All Smithy models automatically include a prelude"):

* ``smithy.api.smithy`` -- the prelude proper: the simple shapes (``String``, ``Integer``...),
  the ``Primitive*`` shapes that carry ``@default``, ``smithy.api#Unit`` (the only shape that
  may carry ``@unitType``), and every trait of the core specification. Only this namespace
  is searched when a relative shape ID does not resolve in its own namespace (Smithy IDL
  §"Relative shape ID resolution"), and only for shapes not marked ``@private``.
* ``aws.api``, ``aws.apigateway``, ``aws.auth``, ``aws.cloudformation``,
  ``aws.customizations``, ``aws.endpoints``, ``aws.iam``, ``aws.protocols`` -- the AWS trait
  packages (AWS integrations in the specification); ``aws.test`` -- the vendor parameter
  shapes of AWS smoke tests (``AwsVendorParams``, ``S3VendorParams``).
* ``smithy.contracts``, ``smithy.mqtt``, ``smithy.openapi``, ``smithy.protocols``,
  ``smithy.rules``, ``smithy.test``, ``smithy.waiters`` -- the other trait packages of the
  reference's distribution (contracts, MQTT bindings, OpenAPI extensions, RPC v2 protocols,
  endpoint rules, smoke and protocol compliance tests, waiters).

The shape IDs, shape types, members, selectors, trait validators and trait properties match
the reference's definitions (smithy-lang/smithy at 0f7323128b0606a1b94b1ac482c94d3800a22708)
exactly, because user models depend on them; the files are written for this project and
document each shape in one line with the specification section it comes from.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

# Load order: the core prelude first (the other packages apply its traits), then the AWS
# packages, then the other public packages, each group in name order. Every ``.smithy`` file of this package must be
# listed here; tests/load/test_prelude.py checks that.
PRELUDE_FILE_NAMES: tuple[str, ...] = (
    "smithy.api.smithy",
    "aws.api.smithy",
    "aws.apigateway.smithy",
    "aws.auth.smithy",
    "aws.cloudformation.smithy",
    "aws.customizations.smithy",
    "aws.endpoints.smithy",
    "aws.iam.smithy",
    "aws.protocols.smithy",
    "aws.test.smithy",
    "smithy.contracts.smithy",
    "smithy.mqtt.smithy",
    "smithy.openapi.smithy",
    "smithy.protocols.smithy",
    "smithy.rules.smithy",
    "smithy.test.smithy",
    "smithy.waiters.smithy",
)

#: The namespace of the prelude proper (the target of relative shape ID fallback). The one
#: definition: every stage imports it from here.
PRELUDE_NAMESPACE = "smithy.api"


def idiomatic(trait_id: str) -> str:
    """The reference's ``Trait.getIdiomaticTraitName``: a trait of the prelude by its name
    (``smithy.api#httpHeader`` → ``httpHeader``), any other by its full ID, as the
    reference's messages name them."""
    namespace, sep, rest = trait_id.partition("#")
    return rest.split("$", 1)[0] if sep and namespace == PRELUDE_NAMESPACE else trait_id


def package_namespace(path: str) -> str:
    """The namespace of the package in file ``path`` (``"<prelude>/aws.api.smithy"`` or
    ``"aws.api.smithy"`` → ``"aws.api"``): each file holds one namespace, named after it."""
    name = path.rsplit("/", 1)[-1]
    return name[: -len(".smithy")] if name.endswith(".smithy") else name


@cache
def _read_all() -> tuple[tuple[str, str], ...]:
    # The files beside this module (the package is installed as files, never run from a zip:
    # importlib.resources would cost every start-up some 5 ms of imports for nothing).
    root = Path(__file__).parent
    return tuple((name, (root / name).read_text(encoding="utf-8")) for name in PRELUDE_FILE_NAMES)


def prelude_files() -> list[tuple[str, str]]:
    """Return the built-in Smithy IDL files as ``(name, text)`` pairs, in load order.

    ``name`` is the file name inside this package (e.g. ``"smithy.api.smithy"``), usable as
    the path in diagnostics; ``text`` is the file's UTF-8 text, Smithy IDL 2.0
    (``$version: "2"``). The order is fixed: ``smithy.api`` first, then the ``aws.*``
    packages, then the other ``smithy.*`` trait packages (see :data:`PRELUDE_FILE_NAMES`).
    The files are read once (from this package's folder) and cached; each call
    returns a new list.

    Raises:
        FileNotFoundError: if a listed file is missing from the installed package (a broken
            installation).

    Spec: Smithy 2.0 "The Smithy model" §"Prelude", and the trait chapters each shape cites.
    """
    return list(_read_all())
