// smithy2cfn's definition of the `smithy.waiters` traits (Smithy waiters).
//
// Not part of /work/shared/reference/prelude; written so that AWS service
// models that carry @waitable load. Trait ID, selector and value shapes follow
// the public Smithy waiters package.
$version: "2"

namespace smithy.waiters

/// Named waiters that poll the operation until a resource reaches a state ("waitable trait").
@trait(selector: "operation :not(-[input, output]-> structure > member > union[trait|streaming])")
@length(min: 1)
map waitable {
    key: WaiterName
    value: Waiter
}

/// A waiter name: upper camel case.
@pattern("^[A-Z]+[A-Za-z0-9]*$")
string WaiterName

/// One waiter ("waitable trait").
@private
structure Waiter {
    /// CommonMark documentation.
    documentation: String

    /// Acceptors, checked in order after each call.
    @required
    acceptors: Acceptors

    /// Minimum delay between attempts, in seconds.
    minDelay: WaiterDelay = 2

    /// Maximum delay between attempts, in seconds.
    maxDelay: WaiterDelay = 120

    /// The waiter is deprecated.
    deprecated: Boolean

    /// Tags for grouping waiters.
    tags: NonEmptyStringList
}

/// A delay in seconds, at least 1.
@range(min: 1)
integer WaiterDelay

/// A non-empty list of acceptors.
@private
@length(min: 1)
list Acceptors {
    member: Acceptor
}

/// A state transition taken when its matcher matches ("waitable trait").
@private
structure Acceptor {
    /// The state to move to.
    @required
    state: AcceptorState

    /// When the acceptor matches.
    @required
    matcher: Matcher

    /// JMESPath expression giving a readable message from the output; failure acceptors only.
    message: String
}

/// Waiter states: success and failure stop the waiter, retry goes on.
@private
enum AcceptorState {
    SUCCESS = "success"
    FAILURE = "failure"
    RETRY = "retry"
}

/// How an acceptor matches ("waitable trait").
@private
union Matcher {
    /// JMESPath over the successful output.
    output: PathMatcher

    /// JMESPath over `{input, output}` of a successful call.
    inputOutput: PathMatcher

    /// The call failed with this error (absolute shape ID or shape name).
    errorType: String

    /// true: the call succeeded; false: it failed with any error.
    success: Boolean
}

/// A JMESPath expression and the value it must yield.
@private
structure PathMatcher {
    /// JMESPath expression.
    @required
    path: String

    /// Expected value.
    @required
    expected: String

    /// How to compare.
    @required
    comparator: PathComparator
}

/// Comparisons of a PathMatcher.
@private
enum PathComparator {
    STRING_EQUALS = "stringEquals"
    BOOLEAN_EQUALS = "booleanEquals"
    ALL_STRING_EQUALS = "allStringEquals"
    ANY_STRING_EQUALS = "anyStringEquals"
}

/// A list of non-empty strings.
@private
list NonEmptyStringList {
    member: NonEmptyString
}

/// A string of at least one character.
@private
@length(min: 1)
string NonEmptyString
