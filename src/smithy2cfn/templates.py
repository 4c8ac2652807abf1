"""The jinja2 environments of the files smithy2cfn writes from templates (a resource's docs,
a custom resource's provider, the execution role): one per package, made on first use, its
templates in the package's ``templates/`` folder, with the filters the package gives. jinja2
is imported only then (a plain build never needs it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_ENVIRONMENTS: dict[str, Any] = {}


def environment(package: str, filters: Mapping[str, Callable[..., Any]] | None = None) -> Any:
    """The ``jinja2.Environment`` of ``package`` (``"smithy2cfn.docs"``): templates loaded from
    its ``templates/`` folder, block tags taking their line with them (``trim_blocks``,
    ``lstrip_blocks``), the last newline kept, nothing escaped (the texts are Markdown, YAML
    and Python, not HTML), an undefined name an error (``StrictUndefined``), and ``filters``
    added. Made once per package and process.

    Raises:
        ImportError: jinja2 is not installed (a dependency of the package).
    """
    env = _ENVIRONMENTS.get(package)
    if env is None:
        import jinja2

        env = jinja2.Environment(loader=jinja2.PackageLoader(package, "templates"), trim_blocks=True,
                                 lstrip_blocks=True, keep_trailing_newline=True, autoescape=False,
                                 undefined=jinja2.StrictUndefined)
        env.filters.update(filters or {})
        _ENVIRONMENTS[package] = env
    return env


__all__ = ["environment"]
