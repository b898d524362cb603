import GRDB
import JSONCore
import SoupStore

/// The org and user a store belongs to: recorded by its first sync, so that a later sync against
/// another org or user is refused before ids and watermarks cross orgs (as the Mobile SDK keeps
/// one database per org and user).
///
/// Kept in one row of `syncrun_org_binding`, a table of syncrun's own that SmartStore ignores.
public struct StoreOrgBinding: Sendable, Hashable {
    /// The org id (`00D…`), 18 characters when the org gave them.
    public var orgID: String
    /// The user id (`005…`).
    public var userID: String
    /// The org as the user named it at binding time (an alias, a URL, `local:DIR`), for messages.
    public var orgName: String
    /// The instance URL at binding time.
    public var instanceURL: String
    /// When the store was bound, in ms since the epoch.
    public var boundAt: Int64
    /// The digest of the instance URL and access token last checked to belong to this org and
    /// user (`OrgConnection.credentialDigest`, never the token); `nil` when none was recorded.
    public var credentialDigest: String?

    /// Creates a binding.
    public init(
        orgID: String,
        userID: String,
        orgName: String,
        instanceURL: String,
        boundAt: Int64,
        credentialDigest: String? = nil
    ) {
        self.orgID = orgID
        self.userID = userID
        self.orgName = orgName
        self.instanceURL = instanceURL
        self.boundAt = boundAt
        self.credentialDigest = credentialDigest
    }

    /// Whether `orgID` and `userID` are this binding's (15- and 18-character forms compare equal).
    public func matches(orgID otherOrg: String, userID otherUser: String) -> Bool {
        Self.sameID(orgID, otherOrg) && Self.sameID(userID, otherUser)
    }

    private static func sameID(_ lhs: String, _ rhs: String) -> Bool {
        SalesforceID.same(lhs, rhs)
    }
}

/// The binding's table, created by the ledger's first schema step (``LedgerSchema``).
enum OrgBindingTable {
    static let name = "syncrun_org_binding"
}

extension SoupReader {
    /// The org and user this store belongs to, or `nil` when no sync has bound it yet.
    public func orgBinding() throws -> StoreOrgBinding? {
        guard try db.tableExists(OrgBindingTable.name) else { return nil }
        // A store read without being upgraded (a dry run) may predate the digest's column.
        let hasDigest = try db.columns(in: OrgBindingTable.name).contains { $0.name == "credential_digest" }
        let digest = hasDigest ? "credential_digest" : "NULL"
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT org_id, user_id, org_name, instance_url, bound_at, \(digest) FROM \(OrgBindingTable.name)"
            )
        else { return nil }
        return StoreOrgBinding(
            orgID: row[0],
            userID: row[1],
            orgName: row[2],
            instanceURL: row[3],
            boundAt: row[4],
            credentialDigest: row[5]
        )
    }
}

extension SoupWriter {
    /// Records the org and user this store belongs to (replacing any earlier binding).
    public func bind(to binding: StoreOrgBinding) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO \(OrgBindingTable.name) \
                (id, org_id, user_id, org_name, instance_url, bound_at, credential_digest) \
                VALUES (1, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                binding.orgID, binding.userID, binding.orgName, binding.instanceURL, binding.boundAt,
                binding.credentialDigest,
            ]
        )
    }
}
