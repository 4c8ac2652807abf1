$version: "2"
namespace acme.common

list Items { member: Item }

/// An item of the common namespace.
structure Item { code: String }

@tags(["shared"])
structure Note { text: String }
