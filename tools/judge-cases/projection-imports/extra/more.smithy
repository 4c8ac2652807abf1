$version: "2"
namespace acme.vault

apply Tag @documentation("A tag, documented by an import.")
