$version: "2"
namespace acme.vault

apply UpdateVault @tags(["internal"])
apply CreateVaultInput$clientToken @tags(["internal"])
apply GetVaultOutput$labels @tags(["internal"])
