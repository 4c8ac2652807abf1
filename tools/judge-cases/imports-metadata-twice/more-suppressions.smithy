$version: "2"

metadata suppressions = [{id: "ShapeClosure", namespace: "*", reason: "merged with the vault's own suppressions"}]
