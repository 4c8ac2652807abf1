$version: "2"
namespace acme.vault

apply Tag @documentation("A tag, from the second file.")
