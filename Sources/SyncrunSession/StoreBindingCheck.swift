import Foundation
import OrgAccess
import OrgClient
import SoupStore
import SyncLedger

/// A store belongs to one org and user: the first sync records them; a session against another
/// org or user is refused before any store write or data request; a store made before stores
/// recorded their org adopts the org of its next sync, which is said once.
///
/// Only ``SyncSession`` and ``MigrationSession`` run it, before they make an engine over the store.
struct StoreBindingCheck {
    let store: SoupStore
    let path: String
    let connection: OrgConnection

    /// Checks the binding, and records it unless `readOnly`.
    ///
    /// - Parameter known: the org and user, when the caller asked already (else the login's, else
    ///   one identity call).
    /// - Throws: ``SyncSessionError`` (refused) naming both orgs when the store belongs to another
    ///   one; (failed) when the identity call fails; ``SoupStore/SoupStoreError``.
    func run(readOnly: Bool, known: OrgUserIdentity? = nil, notify: SessionNotice.Handler) async throws {
        let (binding, hasSyncs) = try readBinding()
        let digest = connection.credentialDigest
        // This very token at this instance was checked against the binding by an earlier run, and a
        // token belongs to one user of one org: asking the org again could only get the same answer.
        // Any other token or instance (another org's among them) is asked, and refused below.
        if let binding, let digest, binding.credentialDigest == digest { return }
        let identity = try await Self.identity(of: connection, known: known)
        if var binding {
            guard binding.matches(orgID: identity.organizationID, userID: identity.userID) else {
                throw SyncSessionError(
                    .refused,
                    "the store '\(path)' belongs to org \(binding.orgID) (user \(binding.userID), first synced as "
                        + "'\(binding.orgName)' at \(binding.instanceURL)), not to org \(identity.organizationID) "
                        + "(user \(identity.userID)) that '\(connection.definition.name)' logs in to; nothing was "
                        + "written. Sync that org into a store of its own (--store FILE), or name the store's org "
                        + "with --org"
                )
            }
            if !readOnly, let digest {
                binding.credentialDigest = digest
                try write(binding)
            }
            return
        }
        guard !readOnly else { return }
        let newBinding = StoreOrgBinding(
            orgID: identity.organizationID,
            userID: identity.userID,
            orgName: connection.definition.name,
            instanceURL: connection.instanceURL,
            boundAt: Int64(Date().timeIntervalSince1970 * 1000),
            credentialDigest: digest
        )
        try write(newBinding)
        if hasSyncs {
            notify(
                SessionNotice(
                    "note: the store '\(path)' was made before stores recorded their org; it now belongs to org "
                        + "\(identity.organizationID) (user \(identity.userID), '\(connection.definition.name)'), "
                        + "and syncs with another org or user will be refused"
                )
            )
        }
    }

    private func readBinding() throws -> (StoreOrgBinding?, Bool) {
        try store.read { reader in (try reader.orgBinding(), try !reader.syncStates().isEmpty) }
    }

    private func write(_ binding: StoreOrgBinding) throws {
        try store.write { try $0.bind(to: binding) }
    }

    /// The org and user of `connection`: `known`, else what the login told (OAuth grants' `id`, the
    /// local org), else one identity call.
    ///
    /// - Throws: ``SyncSessionError`` (failed) with the org's message when the call fails.
    static func identity(of connection: OrgConnection, known: OrgUserIdentity? = nil) async throws
        -> OrgUserIdentity
    {
        if let known { return known }
        if let identity = connection.identity { return identity }
        do {
            return try await connection.client.identity()
        } catch let error as OrgClientError {
            throw SyncSessionError(.failed, error.message)
        }
    }
}
