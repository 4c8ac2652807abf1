"""The handlers' execution role, ``resource-role.yaml``, as ``cfn generate`` writes it for the
same schema (cloudformation-cli ``rpdk/core/project.py`` ``generate`` with its
``resource-role.yml`` template): an ``AWS::IAM::Role`` that CloudFormation's resource
service (``resources.cloudformation.amazonaws.com``) assumes for the type only
(``aws:SourceAccount``, ``aws:SourceArn`` of ``type/resource/<Org>-<Service>-<Resource>/*``),
allowed every permission of every handler, sorted, and a session as long as the slowest
handler may run (70 seconds per minute of its ``timeoutInMinutes``, default 120 minutes,
within IAM's one to twelve hours). A schema without handlers has no role (cfn-cli writes
none); handlers without permissions get a role that denies everything, as cfn-cli's.
"""

from __future__ import annotations

from smithy2cfn.templates import environment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: cloudformation-cli ``DEFAULT_ROLE_TIMEOUT_MINUTES``: a handler's timeout when it gives none.
DEFAULT_TIMEOUT_MINUTES = 120
#: IAM ``CreateRole``'s bounds of ``MaxSessionDuration``, in seconds.
MIN_SESSION_SECONDS, MAX_SESSION_SECONDS = 3600, 43200
#: The file name cfn-cli gives the role template in a project.
ROLE_FILE = "resource-role.yaml"


def resource_role(schema: dict[str, Any]) -> str | None:
    """The ``resource-role.yaml`` text for a resource schema, or ``None`` when it has no
    ``handlers`` object (see the module docstring). Deterministic; never raises on a schema
    object (values of the wrong type are left out, as cfn-cli would fail on them)."""
    handlers = schema.get("handlers")
    type_name = schema.get("typeName")
    if not isinstance(handlers, dict) or not isinstance(type_name, str):
        return None
    actions = sorted({a for h in handlers.values() if isinstance(h, dict) and isinstance(h.get("permissions"), list)
                      for a in h["permissions"] if isinstance(a, str) and a})
    timeouts = [h.get("timeoutInMinutes", DEFAULT_TIMEOUT_MINUTES) for h in handlers.values() if isinstance(h, dict)]
    longest = max((t for t in timeouts if isinstance(t, (int, float)) and not isinstance(t, bool)),
                  default=DEFAULT_TIMEOUT_MINUTES)
    seconds = int(min(MAX_SESSION_SECONDS, max(MIN_SESSION_SECONDS, 70 * longest)))
    return environment("smithy2cfn.project").get_template("resource-role.yaml.j2").render(
        type_name=type_name, hyphenated=type_name.replace("::", "-"), session_seconds=seconds,
        effect="Allow" if actions else "Deny", actions=actions or ["*"])


__all__ = ["DEFAULT_TIMEOUT_MINUTES", "MAX_SESSION_SECONDS", "MIN_SESSION_SECONDS", "ROLE_FILE", "resource_role"]
