import JSONCore
import Logging
import OrgClient
import SyncConfig

/// The sync a plug-in is made for: its definition as the config declares it, and the target's own
/// keys (those the product does not know, kept verbatim for the plug-in).
///
/// ```swift
/// let pageSize = definition.keys["pageSize"]?.integerValue ?? 200
/// ```
public struct CustomTargetDefinition: Sendable {
    /// The whole sync definition (name, soup, options, target).
    public let sync: SyncDefinition
    /// The class name the config named (`iOSImpl`, else `androidImpl`).
    public let implName: String
    /// The field holding the server id (`idFieldName`, default `Id`).
    public let idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`, default
    /// `LastModifiedDate`).
    public let modificationDateFieldName: String
    /// The target's keys that belong to the plug-in, verbatim.
    public let keys: [String: JSONValue]

    /// Creates a definition (the engine does this; tests of a plug-in may too).
    public init(
        sync: SyncDefinition,
        implName: String,
        idFieldName: String,
        modificationDateFieldName: String,
        keys: [String: JSONValue]
    ) {
        self.sync = sync
        self.implName = implName
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.keys = keys
    }

    /// The sync's name.
    public var syncName: String { sync.name }
    /// The soup the sync reads or writes.
    public var soupName: String { sync.soupName }
}

/// What a plug-in works with during one call: the org connection of the run (its token, retries,
/// limits and request logs are the engine's), and a logger.
///
/// Plug-ins reach the org only through ``org``: the REST API (`queryFirstPage`, `create`,
/// `collection`, …) and, with ``send(_:)``, any path of the org such as an Apex REST service.
public struct CustomTargetContext: Sendable {
    /// The sync's name.
    public let syncName: String
    /// The soup the sync reads or writes.
    public let soupName: String
    /// The org of the run.
    public let org: any OrgClient
    /// The engine's logger with the metadata `plugin: <class name>` (the executable's handler and
    /// the CLI's `--log-level` apply).
    public let logger: Logger

    /// Creates a context (the engine does this; tests of a plug-in may too).
    public init(syncName: String, soupName: String, org: any OrgClient, logger: Logger) {
        self.syncName = syncName
        self.soupName = soupName
        self.org = org
        self.logger = logger
    }

    /// Sends `call` to a path of the org (same token, retries and limits reporting as the REST API).
    ///
    /// - Throws: ``CustomTargetError`` when this org connection cannot call arbitrary paths;
    ///   `OrgClientError` for a failing status or transport failure.
    public func send(_ call: EndpointCall) async throws -> EndpointReply {
        guard let client = org as? any OrgEndpointClient else {
            throw CustomTargetError("this org connection cannot call paths of the org; run against an org over REST")
        }
        return try await client.send(call)
    }
}

/// An error a plug-in throws for one record: the record keeps its local change, and `code` and
/// `message` go to its `__last_error__` in the server's error shape.
///
/// ```swift
/// throw CustomTargetError("'Email' is not an email address", code: "INVALID_EMAIL_ADDRESS", fields: ["Email"])
/// ```
public struct CustomTargetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a person.
    public var message: String
    /// A short code, as Salesforce's `errorCode` (default `CUSTOM_TARGET_ERROR`).
    public var code: String
    /// The fields concerned.
    public var fields: [String]

    /// Creates an error.
    public init(_ message: String, code: String = "CUSTOM_TARGET_ERROR", fields: [String] = []) {
        self.message = message
        self.code = code
        self.fields = fields
    }

    public var description: String { "\(code): \(message)" }
}
