$version: "2"
namespace acme.vault

apply Tag @documentation("A tag, from a folder with other files.")
