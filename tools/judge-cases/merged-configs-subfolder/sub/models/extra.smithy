$version: "2"
namespace acme.extra

structure Unused { name: String }
