$version: "2"
namespace acme.shop

use aws.cloudformation#cfnResource

service Shop {
    version: "2026-01-01"
    resources: [Order]
    rename: {"acme.common#Item": "CommonItem", "acme.common#Items": "CommonItems"}
}

@cfnResource
resource Order {
    identifiers: { orderId: String }
    create: CreateOrder
    read: GetOrder
}

operation CreateOrder {
    input := {
        items: Items
        commonItems: acme.common#Items
        note: acme.common#Note
    }
    output := { @required orderId: String }
}

@readonly
operation GetOrder {
    input := { @required orderId: String }
    output := {
        @required orderId: String
        items: Items
        commonItems: acme.common#Items
        note: acme.common#Note
    }
}

list Items { member: Item }

structure Item { sku: String, count: Integer }
