"""Service-wide tag operations renamed with ``@aws.api#tagEnabled(apiConfig: {...})`` are
found under those names: the resource's tagging permissions name them (reference
``AwsTagIndex.calculateServiceTagOp``: the service's ``apiConfig`` wins over the
default-named ``TagResource``/``UntagResource``/``ListTagsForResource``)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import REPO
from smithy2cfn.api import build

VAULT = REPO / "examples" / "vault" / "model" / "vault.smithy"
RENAMES = {"TagResource": "TagVault", "UntagResource": "UntagVault", "ListTagsForResource": "ListVaultTags"}


def _permissions(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "vault.smithy"
    path.write_text(text, encoding="utf-8")
    result = build([path], None, {"organizationName": "Acme"}, extensions=[])
    assert result.exit_code == 0, [d.format_text() for d in result.diagnostics if d.is_error]
    (schema,) = result.schemas.values()
    return schema["tagging"]["permissions"]


def test_renamed_service_tag_operations_give_the_tagging_permissions(tmp_path: Path) -> None:
    text = VAULT.read_text(encoding="utf-8")
    assert _permissions(text, tmp_path) == ["vault:ListTagsForResource", "vault:TagResource", "vault:UntagResource"]
    for old, new in RENAMES.items():
        text = re.sub(rf"\b{old}\b", new, text)
    renamed = text.replace("@tagEnabled\n", "@tagEnabled(apiConfig: {tagApi: TagVault, untagApi: UntagVault, "
                                            "listTagsApi: ListVaultTags})\n")
    assert renamed != text
    assert _permissions(renamed, tmp_path) == ["vault:ListVaultTags", "vault:TagVault", "vault:UntagVault"]
