$version: "2"
namespace acme.common

@tags(["shared"])
structure Audit { who: String }
