// smithy2cfn's definitions of the `smithy.mqtt` traits (mqtt.rst: MQTT protocol bindings).
//
// Shape IDs, members, selectors, trait validators and trait properties follow the
// specification and the reference's smithy-mqtt-traits package; docs are one line each with a
// pointer to the spec section.
$version: "2"

namespace smithy.mqtt

/// The MQTT protocol with JSON payloads (mqtt.rst, "Model definition").
@trait(selector: "service")
@protocolDefinition
structure mqttJson {}

/// The operation publishes its input to an MQTT topic template without wildcards (mqtt.rst#smithy.mqtt#publish-trait).
@trait(
    selector: "operation :not(-[output]-> * > member)"
    conflicts: ["smithy.mqtt#subscribe"]
    breakingChanges: [
        {
            change: "any"
        }
    ]
)
@traitValidators(
    "MqttPublishInput.NoEventStreams": {
        selector: "-[input]-> structure > member :test(> union [trait|streaming])"
        message: "The input of `smithy.mqtt#publish` operations cannot contain event streams"
    }
    MqttUnsupportedErrors: {
        selector: ":test(-[error]->)"
        message: "Operations marked with the `smithy.mqtt#publish` trait do not support errors"
        severity: "DANGER"
    }
)
@pattern("^[^#+]+$")
string publish

/// The operation subscribes to an MQTT topic template, its output an event stream (mqtt.rst#smithy.mqtt#subscribe-trait).
@trait(
    selector: "operation :test(-[output]->)"
    conflicts: ["smithy.mqtt#publish"]
    breakingChanges: [
        {
            change: "any"
        }
    ]
)
@traitValidators(
    "MqttSubscribeInput.MissingTopicLabel": {
        selector: "-[input]-> structure > member :not([trait|smithy.mqtt#topicLabel])"
        message: "All input members of an operation marked with the `smithy.mqtt#subscribe` trait must be marked with the `smithy.mqtt#topicLabel` trait."
    }
    MqttUnsupportedErrors: {
        selector: ":test(-[error]->)"
        message: "Operations marked with the `smithy.mqtt#subscribe` trait do not support errors"
        severity: "DANGER"
    }
    "MqttSubscribeOutput.MissingEventStream": {
        selector: ":test(-[output]-> :not(> member > union [trait|streaming]))"
        message: "Subscribe operations must define an output event stream"
    }
    "MqttSubscribeOutput.EventHeaderNotSupported": {
        selector: "-[output]-> structure > member > union [trait|streaming] > member > structure > member [trait|eventHeader]"
        message: "The `@eventHeader` trait is not supported with subscribe operations."
        severity: "DANGER"
    }
    "MqttSubscribeOutput.NoInitialEvents": {
        selector: ":test(-[output]-> structure > member :not(> union [trait|streaming]))"
        message: "Operations marked with `smithy.mqtt#subscribe` do not support initial responses in their output streams."
    }
)
@pattern("^[^#+]+$")
string subscribe

/// The required input member fills the `{label}` of the same name in the topic (mqtt.rst#smithy.mqtt#topicLabel-trait).
@trait(selector: "member[trait|required] :test(> :test(string, byte, short, integer, long, boolean, timestamp))")
structure topicLabel {}
