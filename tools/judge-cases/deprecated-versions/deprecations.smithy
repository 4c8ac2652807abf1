$version: "2"
namespace smithy.example

apply CreateFooRequest$fooValidCreateProperty @deprecated(since: "1.2.0")
apply GetFooResponse$fooValidReadProperty @deprecated(since: "1.10.0")
apply UpdateFooRequest$fooValidWriteProperty @deprecated(since: "1.10")
apply GetBarResponse$barImplicitReadProperty @deprecated(since: "2025-01-31")
apply CreateBazRequest$bazImplicitCreateProperty @deprecated(since: "2024-12")
apply ExtraBarRequest$barValidAdditionalProperty @deprecated(since: "v1.0")
apply ComplexProperty$another @deprecated(since: "1.0.0-beta")
