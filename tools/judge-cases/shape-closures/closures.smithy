$version: "2"

metadata suppressions = [{id: "ShapeClosure", namespace: "*", reason: "the projections empty the namespaces"}]

metadata shapeClosures = [
    {
        id: "acme.vault#cfn"
        includeNamespaces: ["acme.vault"]
        rename: {
            "acme.vault#EncryptionSettings": "Crypto"
        }
    }
    {
        id: "acme.vault#all"
        includeNamespaces: ["acme.vault"]
        includeBySelector: "structure [id|namespace = 'acme.common']"
    }
]

namespace acme.common

structure Note { text: String }
