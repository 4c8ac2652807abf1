"""Models from Maven: a ``smithy-build.json``'s ``maven`` dependencies, resolved locally.

The reference (smithy-cli ``MavenDependencyResolver`` and ``ConfigurationUtils``, the Smithy
"smithy-build.json" guide's ``maven`` section) resolves ``group:artifact:version`` coordinates
with Maven: from the local repository (``~/.m2/repository``, or ``$SMITHY_MAVEN_CACHE``)
and the repositories listed (``maven.repositories``, ``$SMITHY_MAVEN_REPOS``; Maven Central
when none are), downloading what is missing. smithy2cfn never uses the network at build
time, so:

* a coordinate of a package whose models smithy2cfn has built in (:data:`BUILT_IN`:
  ``software.amazon.smithy:smithy-aws-traits``, ``smithy-aws-cloudformation-traits``,
  ``smithy-waiters``...; any version) is satisfied by the built-in package, silently, and so
  is one of the reference's Java-only packages, which hold no models (:data:`NO_MODELS`:
  ``smithy-openapi``, ``smithy-cli``...);
* any other is looked up, in this order, in the local repository (``$SMITHY_MAVEN_CACHE``,
  else ``$HOME/.m2/repository``, where the Smithy CLI and Maven keep what they download) and
  in every ``file://`` repository (``$SMITHY_MAVEN_REPOS``' first, then the file's), at
  Maven's layout ``group/as/folders/artifact/version/artifact-version[-classifier].jar`` (a
  ``-SNAPSHOT`` version may also be a timestamped ``artifact-1.0-20240101.120000-1.jar``, the
  latest taken); the jar found is returned for the loader to read
  (:mod:`smithy2cfn.load.jars`);
* a coordinate found nowhere is an error (``S1031``) naming it and every place looked, with a
  hint to add its models to ``sources``; a malformed coordinate, or a version Maven alone can
  resolve (``LATEST``, ``RELEASE``, ``latest.*``, ``+``, ranges) is ``S1030``; a repository
  that is not ``file://`` is a note that it is not contacted (``S1032``); a coordinate given
  twice with two versions keeps the first (``S1033``).

The dependencies a resolved jar's POM (``artifact-version.pom`` beside it) lists are
followed as Maven follows them, breadth first, the nearest version of an artifact winning
(scopes ``compile`` and ``runtime``, not ``optional``; :func:`pom_dependencies`); those that
are jars of models (with a manifest) are read, Java libraries are left out silently, and
one that cannot be resolved locally is a warning (``S1034``), not an error: a POM may list
Java libraries a model build does not need. Parent POMs and BOMs are not read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from smithy2cfn.diagnostics import Code, Diagnostics, Severity, Span, declare_codes
from smithy2cfn.regexes import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The diagnostic codes this module reports (README "Diagnostics" lists them all).
CODES = declare_codes(
    Code("S1030", Severity.ERROR, None,
         "a malformed Maven coordinate (not `group:artifact:version`, or a path in it), or a version only Maven can "
         "resolve (`LATEST`, `RELEASE`, `latest.*`, `+`, a range), or a packaging other than `jar`"),
    Code("S1031", Severity.ERROR, None,
         "a Maven dependency found in no local repository (the message names every place looked; nothing is "
         "downloaded)"),
    Code("S1032", Severity.NOTE, None,
         "a Maven repository that is not a `file://` URL is not contacted (a warning for one that is not a URL)",
         also=(Severity.WARNING,)),
    Code("S1033", Severity.WARNING, None,
         "a Maven dependency given again with another version: the first is used"),
    Code("S1034", Severity.WARNING, None,
         "a dependency that a resolved jar's POM lists cannot be resolved locally (not found, no version, a POM "
         "that cannot be read) and is left out"),
)

#: The reference's group of packages.
SMITHY_GROUP = "software.amazon.smithy"

#: Artifacts of :data:`SMITHY_GROUP` whose models smithy2cfn has built in
#: (``smithy2cfn/prelude/``), with the namespaces they hold (the prelude's files by
#: namespace; ``tests/load/test_maven.py`` checks each is there). ``smithy-model`` holds the
#: prelude; ``smithy-linters`` the linters' validators, built in as checks.
BUILT_IN: dict[str, tuple[str, ...]] = {
    "smithy-model": ("smithy.api",),
    "smithy-linters": (),
    "smithy-aws-traits": ("aws.api", "aws.auth", "aws.customizations", "aws.protocols"),
    "smithy-aws-apigateway-traits": ("aws.apigateway",),
    "smithy-aws-cloudformation-traits": ("aws.cloudformation",),
    "smithy-aws-endpoints": ("aws.endpoints",),
    "smithy-aws-iam-traits": ("aws.iam",),
    "smithy-aws-smoke-test-model": ("aws.test",),
    "smithy-contract-traits": ("smithy.contracts",),
    "smithy-mqtt-traits": ("smithy.mqtt",),
    "smithy-openapi-traits": ("smithy.openapi",),
    "smithy-protocol-test-traits": ("smithy.test",),
    "smithy-protocol-traits": ("smithy.protocols",),
    "smithy-rules-engine": ("smithy.rules",),
    "smithy-smoke-test-traits": ("smithy.test",),
    "smithy-waiters": ("smithy.waiters",),
}

#: Artifacts of :data:`SMITHY_GROUP` that hold Java code and no models (plugins, the CLI, code
#: generation libraries): listed for the Java toolchain's plugins, they add nothing to a
#: model, so they are satisfied silently too. (``smithy-validation-model``,
#: ``smithy-protocol-tests`` and ``smithy-aws-protocol-tests`` hold models that are not built
#: in, and are looked up like any other coordinate.)
NO_MODELS = frozenset({
    "smithy-aws-apigateway-openapi", "smithy-aws-cloudformation", "smithy-bom", "smithy-build", "smithy-cli",
    "smithy-codegen-core", "smithy-diff", "smithy-docgen", "smithy-jmespath", "smithy-jsonschema",
    "smithy-model-jmespath", "smithy-openapi", "smithy-syntax", "smithy-trait-codegen", "smithy-utils",
})

#: ``groupId:artifactId[:extension[:classifier]]:version`` (Maven resolver's ``DefaultArtifact``).
_COORDINATE = lazy(r"([^: ]+):([^: ]+)(?::([^: ]*)(?::([^: ]+))?)?:([^: ]+)")
_NOT_IN_A_PATH = lazy(r"[/\\\x00]")
#: ``${name}`` in a POM.
_PROPERTY = lazy(r"\$\{([^}]*)\}")
#: The largest POM read (real ones are a few KB).
MAX_POM_BYTES = 4 << 20
#: The most artifacts a resolution visits, dependencies of dependencies included.
MAX_ARTIFACTS = 1000
#: The timestamp and build number of a snapshot deployed to a remote repository.
_TIMESTAMP = lazy(r"\d{8}\.\d{6}-\d+")


class Coordinate:
    """A parsed Maven coordinate: ``group``, ``artifact``, ``extension`` (``jar``),
    ``classifier`` (``""`` for none), ``version``; ``text`` as written."""

    __slots__ = ("artifact", "classifier", "extension", "group", "text", "version")

    def __init__(self, text: str, group: str, artifact: str, extension: str, classifier: str, version: str) -> None:
        self.text, self.group, self.artifact = text, group, artifact
        self.extension, self.classifier, self.version = extension, classifier, version

    def relative_folder(self) -> Path:
        """``group/as/folders/artifact/version`` (Maven's repository layout)."""
        return Path(*self.group.split("."), self.artifact, self.version)

    def file_name(self, version: str | None = None) -> str:
        """``artifact-version[-classifier].extension``."""
        classifier = f"-{self.classifier}" if self.classifier else ""
        return f"{self.artifact}-{version or self.version}{classifier}.{self.extension}"


def parse_coordinate(text: str) -> tuple[Coordinate | None, str | None]:
    """``(coordinate, None)``, or ``(None, why it cannot be resolved here)``.

    Follows Maven resolver's ``DefaultArtifact`` syntax and the Smithy CLI's
    ``validateDependencyVersion`` (``LATEST``, ``RELEASE``, ``latest.*`` and ``+`` versions
    refused); version ranges need a remote repository's metadata and are refused too, as is
    any part that would make a path leave the repository (``/``, ``\\``, ``.``/``..``).
    """
    match = _COORDINATE.fullmatch(text)
    if not match:
        return None, "it is not group:artifact:version (Maven's groupId:artifactId[:extension[:classifier]]:version)"
    group, artifact, extension, classifier, version = match.groups()
    extension = extension or "jar"
    classifier = classifier or ""
    parts = (group, artifact, extension, classifier, version)
    if any(_NOT_IN_A_PATH.search(part) for part in parts) or any(
            part in (".", "..") for part in (artifact, classifier, version)) or "" in group.split("."):
        return None, "a part of it cannot name a folder of a Maven repository ('/', '\\', '.', '..' or an empty name)"
    if version in ("LATEST", "RELEASE") or version == "latest-status" or version.startswith("latest."):
        return None, f"{version} versions are not supported (as in the Smithy CLI): give an exact version"
    if "+" in version:
        return None, "'+' versions are not supported (as in the Smithy CLI): give an exact version"
    if version[0] in "[(" or version[-1] in "])" or "," in version:
        return None, "version ranges need a remote repository's metadata, which is not read: give an exact version"
    if extension != "jar":
        return None, f"only jars are read (this names a .{extension})"
    return Coordinate(text, group, artifact, extension, classifier, version), None


def local_repository() -> Path:
    """The local Maven repository: ``$SMITHY_MAVEN_CACHE`` (the Smithy CLI's setting), else
    ``$HOME/.m2/repository`` (Maven's and the Smithy CLI's default)."""
    cache = os.environ.get("SMITHY_MAVEN_CACHE")
    if cache:
        return Path(cache)
    return Path(os.path.expanduser("~")) / ".m2" / "repository"


def _file_repository(url: str) -> tuple[Path | None, str | None]:
    """The folder of a ``file:`` URL, ``(None, None)`` for a URL of another scheme, or
    ``(None, why)`` for text that is not a URL."""
    from urllib.parse import unquote, urlsplit

    try:
        parts = urlsplit(url.strip())
    except ValueError as e:
        return None, f"it is not a URL ({e})"
    if not parts.scheme:
        return None, "it is not a URL (no scheme: write file:///path/to/repository for a folder)"
    if parts.scheme.lower() != "file":
        return None, None
    if parts.netloc not in ("", "localhost"):
        return None, f"a file: URL on another host ({parts.netloc}) cannot be read"
    path = unquote(parts.path)
    if not path or "\x00" in path:
        return None, "the file: URL names no folder"
    return Path(path), None


def _find(coordinate: Coordinate, repository: Path) -> tuple[Path | None, Path]:
    """The jar of ``coordinate`` in ``repository`` (or ``None``), and where it was looked for."""
    folder = repository / coordinate.relative_folder()
    candidate = folder / coordinate.file_name()
    if candidate.is_file():
        return candidate, candidate
    if coordinate.version.endswith("-SNAPSHOT"):  # a remote layout: artifact-1.0-20240101.120000-1.jar
        base = coordinate.version[: -len("SNAPSHOT")]
        prefix = f"{coordinate.artifact}-{base}"
        suffix = f"-{coordinate.classifier}.jar" if coordinate.classifier else ".jar"
        try:
            names = sorted(n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(suffix)
                           and _TIMESTAMP.fullmatch(n[len(prefix): -len(suffix)]))
        except OSError:
            names = []
        if names and (folder / names[-1]).is_file():
            return folder / names[-1], candidate
    return None, candidate


def resolve_dependencies(dependencies: Sequence[tuple[str, Span | None]],
                         repositories: Sequence[tuple[str, Span | None]], diags: Diagnostics) -> list[Path]:
    """The jar files that hold ``dependencies``' models, in the order given.

    Args:
        dependencies: each Maven coordinate (``group:artifact:version``) and where it is written.
        repositories: each repository URL of the file's ``maven.repositories`` and where it is
            written; only ``file://`` ones are read (and the local repository always: see
            :func:`local_repository`), after ``$SMITHY_MAVEN_REPOS``' ``file://`` ones.
        diags: where a malformed coordinate (``S1030``), one found nowhere (``S1031``, naming
            every place looked, with a hint to add the models to ``sources``), a repository
            not contacted (``S1032``) and a second version of one artifact (``S1033``) are
            reported, located at the entry.

    Returns:
        The jars to read as model sources (a built-in package's coordinate adds none), each
        once.

    Source: smithy-cli ``MavenDependencyResolver``, ``ConfigurationUtils.getConfiguredMavenRepos``;
    Maven's repository layout.
    """
    folders: list[Path] = [local_repository()]
    not_contacted: list[str] = []
    environment = [(url, Span("$SMITHY_MAVEN_REPOS")) for url in os.environ.get("SMITHY_MAVEN_REPOS", "").split("|")
                   if url.strip()]
    for url, span in [*environment, *repositories]:
        folder, problem = _file_repository(url)
        if folder is not None:
            if folder not in folders:
                folders.append(folder)
        elif problem is not None:
            diags.warning("S1032", f"Maven repository {url!r} is not read: {problem}", span)
        else:
            not_contacted.append(url.strip())
            diags.add("S1032", Severity.NOTE, f"Maven repository {url.strip()} is not contacted: smithy2cfn reads "
                                              "only local (file://) repositories and uses no network", span,
                      hint="jars found in the local repository (~/.m2/repository) are used")
    if not repositories and not environment:
        not_contacted.append("Maven Central (the default repository)")
    found: list[Path] = []
    chosen: dict[tuple[str, str, str], str] = {}
    # Breadth first, as Maven's "nearest wins": the dependencies given, then those their POMs
    # list, level by level; the first version of an artifact met is the one used.
    level: list[tuple[str, Span | None, tuple[str, ...]]] = [(text, span, ()) for text, span in dependencies]
    visited = 0
    while level:
        after: list[tuple[str, Span | None, tuple[str, ...]]] = []
        for text, span, via in level:
            visited += 1
            if visited > MAX_ARTIFACTS:
                diags.warning("S1034", f"the dependencies of {via[0]} pass {MAX_ARTIFACTS:,} artifacts: the "
                                       "rest are not followed", span, hint="list the jars of models directly")
                return found
            coordinate, problem = parse_coordinate(text.strip() if isinstance(text, str) else "")
            if coordinate is None:
                if via:
                    diags.warning("S1034", f"{text!r}, a dependency of {_chain(via)}, is left out: {problem}", span)
                else:
                    diags.error("S1030", f"Maven dependency {text!r} cannot be resolved: {problem}", span,
                                hint="write group:artifact:version, e.g. com.example:shared-models:1.2.0")
                continue
            key = (coordinate.group, coordinate.artifact, coordinate.classifier)
            if key in chosen:
                if chosen[key] != coordinate.version and not via:
                    diags.warning("S1033", f"Maven dependency {text} is given again with another version: "
                                           f"{chosen[key]} is used", span, hint="list each artifact once")
                continue
            chosen[key] = coordinate.version
            if coordinate.group == SMITHY_GROUP and (coordinate.artifact in BUILT_IN
                                                     or coordinate.artifact in NO_MODELS):
                continue
            looked: list[str] = []
            for folder in folders:
                jar, candidate = _find(coordinate, folder)
                if jar is not None:
                    break
                looked.append(str(candidate))
            else:
                remote = f"; not contacted: {', '.join(not_contacted)}" if not_contacted else ""
                if via:
                    diags.warning("S1034", f"{text}, a dependency of {_chain(via)}, was not found and is left out: "
                                           f"looked for {', '.join(looked)}{remote}", span,
                                  hint="if it holds models, add them to `sources` or list it in maven.dependencies")
                else:
                    diags.error("S1031", f"Maven dependency {text} was not found: looked for "
                                         f"{', '.join(looked)}{remote}", span,
                                hint="add its models to `sources` (a folder of .smithy files, or the jar itself), "
                                     "or put the jar in the local Maven repository (running the Smithy CLI's "
                                     "`smithy build` once downloads it to ~/.m2/repository); nothing is downloaded")
                continue
            if jar not in found and (not via or _holds_models(jar)):
                found.append(jar)
            needs, problem = pom_dependencies(_pom_of(jar, coordinate), coordinate)
            if problem:
                diags.warning("S1034", f"the dependencies of {text} are not followed: {problem}", span)
            after.extend((need, span, (*via, text)) for need in needs)
        level = after
    return found


def _chain(via: tuple[str, ...]) -> str:
    return via[-1] if len(via) == 1 else f"{via[-1]} (through {' → '.join(via[:-1])})"


def _holds_models(jar: Path) -> bool:
    """A jar met as a dependency of another is read only when it is a jar of models (Java
    libraries, which hold none, are left out silently)."""
    from smithy2cfn.load.jars import holds_manifest

    return holds_manifest(jar)


def _pom_of(jar: Path, coordinate: Coordinate) -> Path:
    """The POM beside a resolved jar: ``artifact-version.pom`` (the classifier left out; a
    timestamped snapshot's own time stamp kept)."""
    suffix = f"-{coordinate.classifier}.{coordinate.extension}" if coordinate.classifier else f".{coordinate.extension}"
    stem = jar.name[: -len(suffix)] if jar.name.endswith(suffix) else jar.stem
    return jar.with_name(stem + ".pom")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(element: Any, name: str) -> Any:
    for child in element:
        if isinstance(child.tag, str) and _local(child.tag) == name:
            return child
    return None


def _text(element: Any, name: str) -> str | None:
    child = _child(element, name) if element is not None else None
    return child.text.strip() if child is not None and child.text else None


def _children(element: Any, *path: str) -> list[Any]:
    for name in path[:-1]:
        element = _child(element, name) if element is not None else None
    if element is None:
        return []
    return [child for child in element if isinstance(child.tag, str) and _local(child.tag) == path[-1]]


def pom_dependencies(pom: Path, coordinate: Coordinate) -> tuple[list[str], str | None]:
    """The coordinates of the dependencies a POM lists that a build of ``coordinate`` needs
    (scope ``compile``, ``runtime`` or none; not ``optional``; type ``jar``), with the
    POM's ``${...}`` properties (its ``<properties>``, ``project.version``,
    ``project.groupId``, its parent's version and group) substituted and versions missing
    from a dependency taken from its own ``dependencyManagement``. Returns ``(coordinates,
    None)``, or what could not be read (a POM that is not XML, a version that comes from a
    parent POM or a BOM, which are not read). No POM: no dependencies.

    Source: the Maven POM reference ("Dependencies", "Properties"); Maven resolver's scopes.
    """
    from smithy2cfn.load.files import read_bytes

    data, problem = read_bytes(pom, MAX_POM_BYTES)
    if data is None:
        return [], (None if problem.code == "S1000" and "no such" in problem.message
                    else f"its POM {pom} cannot be read: {problem.message}")
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, ValueError) as e:
        return [], f"its POM {pom} is not XML ({e})"
    parent = _child(root, "parent")
    declared = _child(root, "properties")
    properties = {_local(child.tag): (child.text or "").strip()
                  for child in (declared if declared is not None else ()) if isinstance(child.tag, str)}
    version = _text(root, "version") or _text(parent, "version") or coordinate.version
    group = _text(root, "groupId") or _text(parent, "groupId") or coordinate.group
    properties.update({"project.version": version, "pom.version": version, "version": version,
                       "project.groupId": group, "pom.groupId": group, "groupId": group,
                       "project.artifactId": coordinate.artifact, "artifactId": coordinate.artifact})
    if parent is not None:
        properties.update({"project.parent.version": _text(parent, "version") or "",
                           "project.parent.groupId": _text(parent, "groupId") or ""})

    def expand(value: str | None) -> str | None:
        for _ in range(10):
            if value is None or "${" not in value:
                return value
            value = _PROPERTY.sub(lambda m: properties.get(m.group(1), m.group(0)), value)
        return value

    managed = {(expand(_text(d, "groupId")), expand(_text(d, "artifactId"))): expand(_text(d, "version"))
               for d in _children(root, "dependencyManagement", "dependencies", "dependency")}
    out: list[str] = []
    unresolved: list[str] = []
    for dependency in _children(root, "dependencies", "dependency"):
        scope = expand(_text(dependency, "scope")) or "compile"
        kind = expand(_text(dependency, "type")) or "jar"
        if scope not in ("compile", "runtime") or kind != "jar" or expand(_text(dependency, "optional")) == "true":
            continue
        group_id, artifact_id = expand(_text(dependency, "groupId")), expand(_text(dependency, "artifactId"))
        if not group_id or not artifact_id:
            continue
        if group_id == SMITHY_GROUP and (artifact_id in BUILT_IN or artifact_id in NO_MODELS):
            continue
        dep_version = expand(_text(dependency, "version")) or managed.get((group_id, artifact_id))
        classifier = expand(_text(dependency, "classifier"))
        if not dep_version or "${" in dep_version:
            unresolved.append(f"{group_id}:{artifact_id}")
            continue
        out.append(f"{group_id}:{artifact_id}:jar:{classifier}:{dep_version}" if classifier
                   else f"{group_id}:{artifact_id}:{dep_version}")
    problem_text = None
    if unresolved:
        problem_text = (f"the versions of {', '.join(unresolved)} come from a parent POM or a BOM, which are not "
                        f"read ({pom})")
    return out, problem_text


__all__ = ["BUILT_IN", "NO_MODELS", "Coordinate", "local_repository", "parse_coordinate", "pom_dependencies",
           "resolve_dependencies"]
