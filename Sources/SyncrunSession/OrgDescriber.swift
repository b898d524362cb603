import OrgAccess
import OrgClient

/// An org opened for its shape only (`org check`, `org schema pull`, `org diff`): describes, and
/// nothing else — no identity call, no store, no binding, no record read or write.
public struct OrgDescriber: Sendable {
    private let client: RESTOrgClient

    /// Connects to `definition` through `connector` and runs `body` with the org's describes.
    ///
    /// - Throws: ``OrgAccess/OrgAccessError`` when the org cannot be reached; what `body` throws.
    public static func with<T: Sendable>(
        _ definition: OrgDefinition,
        connector: OrgConnector,
        notify: SessionNotice.Handler,
        _ body: (OrgDescriber) async throws -> T
    ) async throws -> T {
        try await connector.withConnection(to: definition) { connection in
            for note in connection.notes { notify(SessionNotice(note)) }
            return try await body(OrgDescriber(client: connection.client))
        }
    }

    /// The org's sObjects (`GET /sobjects`).
    public func describeGlobal() async throws -> GlobalDescription {
        try await client.describeGlobal()
    }

    /// One sObject's describe, as the org sent it (`GET /sobjects/NAME/describe`).
    public func describeJSON(_ name: String) async throws -> RawJSON {
        try await client.describeJSON(name)
    }
}
