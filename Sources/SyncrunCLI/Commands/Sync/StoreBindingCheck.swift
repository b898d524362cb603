import Foundation
import OrgAccess
import OrgClient
import SoupStore
import SyncLedger

/// A store belongs to one org and user: the first sync records them; a sync against another org
/// or user is refused (status 2) before any store write; a store made before stores recorded
/// their org adopts the org of its next sync, which is said once.
struct StoreBindingCheck {
    let store: SoupStore
    let path: String
    let connection: OrgConnection

    /// Checks the binding, and records it unless `readOnly`.
    ///
    /// - Throws: ``CLIError`` (usage) naming both orgs when the store belongs to another one.
    func run(readOnly: Bool) async throws {
        // The login usually told who this is (OAuth grants' `id`, the local org); else one GET.
        let identity: OrgUserIdentity
        do {
            if let known = connection.identity {
                identity = known
            } else {
                identity = try await connection.client.identity()
            }
        } catch let error as OrgClientError {
            throw CLIError(error.message)
        }
        let (binding, hasSyncs) = try readBinding()
        if let binding {
            guard binding.matches(orgID: identity.organizationID, userID: identity.userID) else {
                throw CLIError.usage(
                    "the store '\(path)' belongs to org \(binding.orgID) (user \(binding.userID), first synced as "
                        + "'\(binding.orgName)' at \(binding.instanceURL)), not to org \(identity.organizationID) "
                        + "(user \(identity.userID)) that '\(connection.definition.name)' logs in to; nothing was "
                        + "written. Sync that org into a store of its own (--store FILE), or name the store's org "
                        + "with --org"
                )
            }
            return
        }
        guard !readOnly else { return }
        let newBinding = StoreOrgBinding(
            orgID: identity.organizationID,
            userID: identity.userID,
            orgName: connection.definition.name,
            instanceURL: connection.instanceURL,
            boundAt: Int64(Date().timeIntervalSince1970 * 1000)
        )
        try write(newBinding)
        if hasSyncs {
            StandardStreams.writeError(
                "note: the store '\(path)' was made before stores recorded their org; it now belongs to org "
                    + "\(identity.organizationID) (user \(identity.userID), '\(connection.definition.name)'), "
                    + "and syncs with another org or user will be refused\n"
            )
        }
    }

    private func readBinding() throws -> (StoreOrgBinding?, Bool) {
        try StoreErrors.converting {
            try store.read { reader in (try reader.orgBinding(), try !reader.syncStates().isEmpty) }
        }
    }

    private func write(_ binding: StoreOrgBinding) throws {
        try StoreErrors.converting { try store.write { try $0.bind(to: binding) } }
    }
}
