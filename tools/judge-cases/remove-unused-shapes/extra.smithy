$version: "2"
namespace acme.extra

structure Orphan { name: String }

@tags(["export"])
structure Exported { name: String }
