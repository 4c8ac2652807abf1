"""Models from Maven: a ``smithy-build.json``'s ``maven`` dependencies, resolved locally.

The reference (smithy-cli's ``MavenConfig``, Smithy "smithy-build" guide, "maven") downloads
``group:artifact:version`` coordinates; smithy2cfn never uses the network at build time. A
coordinate of a package smithy2cfn has built in (``software.amazon.smithy:smithy-aws-traits``,
``smithy-aws-cloudformation-traits``, ``smithy-waiters``...) is satisfied by the built-in
package; any other is looked up in a local Maven repository (``~/.m2/repository``, or the
``file://`` repositories the file lists) and its jar is read as a model source.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from smithy2cfn.diagnostics import Diagnostics, Span


def resolve_dependencies(dependencies: Sequence[tuple[str, Span | None]],
                         repositories: Sequence[tuple[str, Span | None]], diags: Diagnostics) -> list[Path]:
    """The jar files that hold ``dependencies``' models, in the order given.

    Args:
        dependencies: each Maven coordinate (``group:artifact:version``) and where it is written.
        repositories: each repository URL of the file's ``maven.repositories`` and where it is
            written; only ``file://`` ones are read (and ``~/.m2/repository`` always).
        diags: where a malformed coordinate, or one found nowhere, is reported (located, naming
            every place looked, with a hint to add the models to ``sources``).

    Returns:
        The jars to read as model sources (a built-in package's coordinate adds none).
    """
    return []  # the interface; issue 16's jar work fills it


__all__ = ["resolve_dependencies"]
