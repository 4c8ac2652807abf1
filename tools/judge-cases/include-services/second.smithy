$version: "2"
namespace acme.second

use aws.cloudformation#cfnResource

service Second {
    version: "2026-01-01"
    resources: [Thing]
}

@cfnResource
resource Thing {
    identifiers: { thingId: String }
    read: GetThing
}

@readonly
operation GetThing {
    input := { @required thingId: String }
    output := { @required thingId: String, size: Integer }
}
