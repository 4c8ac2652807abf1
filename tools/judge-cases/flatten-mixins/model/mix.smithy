$version: "2"
namespace acme.mix

use aws.cloudformation#cfnResource
use aws.cloudformation#cfnMutability

service MixService {
    version: "2026-01-01"
    resources: [Widget]
}

/// Common fields.
@mixin
structure Common {
    /// A description.
    @length(max: 100)
    description: String
    labels: Labels
}

@mixin
list LabelsMixin {
    member: String
}

@uniqueItems
list Labels with [LabelsMixin] {}

@cfnResource
resource Widget {
    identifiers: { widgetId: String }
    create: CreateWidget
    read: GetWidget
}

operation CreateWidget {
    input: CreateWidgetInput
    output: CreateWidgetOutput
}

@input
structure CreateWidgetInput with [Common] {
    size: Integer
}

@output
structure CreateWidgetOutput {
    @required
    widgetId: String
}

@readonly
operation GetWidget {
    input: GetWidgetInput
    output: GetWidgetOutput
}

@input
structure GetWidgetInput {
    @required
    widgetId: String
}

@output
structure GetWidgetOutput with [Common] {
    @required
    widgetId: String
    size: Integer
}

apply GetWidgetOutput$description @documentation("Overridden description.")
