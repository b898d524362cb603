import GRPCCore

/// The Pub/Sub API's errors as a real org returns them: a gRPC status, a message, and the custom
/// `error-code` trailer (Pub/Sub API Developer Guide, "Handle Errors"). Messages name what is wrong
/// and what to do; none quotes a token.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
enum PubSubErrors {
    static func make(_ code: RPCError.Code, _ errorCode: String, _ message: String) -> RPCError {
        var metadata = Metadata()
        metadata.addString(errorCode, forKey: "error-code")
        return RPCError(code: code, message: message, metadata: metadata)
    }

    static let authError = make(
        .unauthenticated,
        "sfdc.platform.eventbus.grpc.service.auth.error",
        "An authentication exception occurred. Provide valid authentication via metadata headers: "
            + "'accesstoken' (a session token of this org), 'instanceurl' and 'tenantid' (the org's 18-character id)."
    )

    static func topicNotFound(_ name: String) -> RPCError {
        make(
            .notFound,
            "sfdc.platform.eventbus.grpc.service.topic.not.found",
            "Topic '\(name)' is not found on this org: use '/data/{Object}ChangeEvent' for an object selected for "
                + "Change Data Capture (custom objects: '/data/{Name}__ChangeEvent') or '/data/ChangeEvents'."
        )
    }

    static func topicChanged(from old: String, to new: String) -> RPCError {
        make(
            .invalidArgument,
            "sfdc.platform.eventbus.grpc.subscription.fetch.topic.invalid",
            "A FetchRequest names topic '\(new)' but the subscription is to '\(old)'; start a new Subscribe call to change topics."
        )
    }

    static let replayIDInvalid = make(
        .invalidArgument,
        "sfdc.platform.eventbus.grpc.subscription.fetch.replayid.corrupted",
        "The Replay ID validation failed. Ensure that the replay_id field value in FetchRequest is valid and refers "
            + "to an event that is within the retention window."
    )

    static func numRequestedInvalid(_ number: Int32) -> RPCError {
        make(
            .invalidArgument,
            "sfdc.platform.eventbus.grpc.subscription.fetch.requested.events.invalid",
            "num_requested must be more than 0, not \(number)."
        )
    }

    static func schemaNotFound(_ id: String) -> RPCError {
        make(
            .notFound,
            "sfdc.platform.eventbus.grpc.schema.not.found",
            "No schema has id '\(id)' on this org; use the schema_id of a TopicInfo or of an event."
        )
    }

    static func publishRefused(_ topic: String) -> RPCError {
        make(
            .permissionDenied,
            "sfdc.platform.eventbus.grpc.publish.not.allowed",
            "A local org's change event topics are published by its own writes; write records through its REST API instead."
        )
    }
}
