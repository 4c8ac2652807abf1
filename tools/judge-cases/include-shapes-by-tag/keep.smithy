$version: "2"
namespace smithy.example

apply TestService @tags(["keep"])
apply CreateWrite @tags(["keep"])
apply CreateFoo @tags(["keep"])
apply CreateFooRequest @tags(["keep"])
apply CreateFooResponse @tags(["keep"])
apply CreateFooResponse$fooId @tags(["keep"])
