import Foundation
import Logging
import Migration
import OrgAccess
import OrgClient
import SoupStore

/// What `migrate` does before it moves a record, for every caller alike: connect both orgs, refuse
/// the same org on both sides, open the pair's staging store (default
/// `.syncrun/migrate-SOURCEID-TARGETID.db` under the config directory) and its journal, check the
/// store's pair and unfinished runs (``Migration/Migrator/preflight(storePath:resume:dryRun:)``),
/// and bind the staging store to the source org as any store (``StoreBindingCheck``). A
/// ``Migration/Migrator`` is reachable only through a session that passed all of it.
public struct MigrationSession: Sendable {
    /// What the caller chose.
    public struct Options: Sendable {
        /// The directory of the config (the staging store and the journal go under it).
        public var configDirectory: String
        /// The staging store; `nil` for the pair's default.
        public var storePath: String?
        /// Continue a migration that was killed or stopped.
        public var resume: Bool
        /// Read both orgs, write nothing to the target.
        public var dryRun: Bool
        /// Where the clients and the migrator log.
        public var logger: Logger

        /// Creates the options.
        public init(configDirectory: String, storePath: String?, resume: Bool, dryRun: Bool, logger: Logger) {
            self.configDirectory = configDirectory
            self.storePath = storePath
            self.resume = resume
            self.dryRun = dryRun
            self.logger = logger
        }
    }

    /// One side of a migration: an org, or a `dir:` set of files (`--from dir:PATH`, `--to dir:PATH`).
    public enum Side: Sendable {
        case org(OrgDefinition)
        case directory(DirectorySet)
    }

    /// The source org (`nil`: the source is a `dir:` set).
    public let source: OrgConnection?
    /// The target org (`nil`: the target is a `dir:` set).
    public let target: OrgConnection?
    /// The staging store's path.
    public let storePath: String
    /// The migrator over the checked staging store and the pair's journal.
    public let migrator: Migrator

    /// The (source, target) pair.
    public var pair: MigrationPair { migrator.pair }

    /// Connects both orgs, runs the checks above, then `body` with the session.
    ///
    /// - Throws: ``SyncSessionError`` (refused) for the same org on both sides, a journal that
    ///   cannot be used, or a staging store bound to another org; (failed) when an identity call
    ///   fails; ``Migration/MigrationError`` from the preflight; ``OrgAccess/OrgAccessError``;
    ///   ``SoupStore/SoupStoreError``; what `body` throws.
    public static func with<T: Sendable>(
        from: OrgDefinition,
        to: OrgDefinition,
        connector: OrgConnector,
        options: Options,
        notify: SessionNotice.Handler,
        _ body: (MigrationSession) async throws -> T
    ) async throws -> T {
        try await connector.withConnection(to: from) { source in
            try await connector.withConnection(to: to) { target in
                for note in source.notes + target.notes { notify(SessionNotice(note)) }
                let session = try await open(source: source, target: target, options: options, notify: notify)
                return try await body(session)
            }
        }
    }

    /// ``with(from:to:connector:options:notify:_:)`` where either side may be a `dir:` set: the
    /// set stands in for an org in the pair (``Migration/DirectorySet/orgID``), so its staging
    /// store and journal are its own. A `dir:` source's staging store is bound to no org.
    ///
    /// - Throws: ``SyncSessionError`` (refused) for a `dir:` set on both sides, and what
    ///   ``with(from:to:connector:options:notify:_:)`` throws.
    public static func with<T: Sendable>(
        from: Side,
        to: Side,
        connector: OrgConnector,
        options: Options,
        notify: SessionNotice.Handler,
        _ body: (MigrationSession) async throws -> T
    ) async throws -> T {
        switch (from, to) {
        case (.org(let source), .org(let target)):
            return try await with(
                from: source,
                to: target,
                connector: connector,
                options: options,
                notify: notify,
                body
            )
        case (.org(let definition), .directory(let set)):
            return try await with(org: definition, as: .source, set: set, connector, options, notify, body)
        case (.directory(let set), .org(let definition)):
            return try await with(org: definition, as: .target, set: set, connector, options, notify, body)
        case (.directory, .directory):
            throw SyncSessionError(
                .refused,
                "--from and --to are both dir: sets; migrate moves records from or to an org (copy the folder "
                    + "instead)"
            )
        }
    }

    /// Which side of the pair an org is.
    private enum OrgSide {
        case source, target
    }

    /// One org and a `dir:` set on the other `side`: the org is connected and its identity read;
    /// the staging store of the pair is bound to the org when the org is the source (a `dir:`
    /// source's store is bound to no org).
    private static func with<T: Sendable>(
        org definition: OrgDefinition,
        as side: OrgSide,
        set: DirectorySet,
        _ connector: OrgConnector,
        _ options: Options,
        _ notify: SessionNotice.Handler,
        _ body: (MigrationSession) async throws -> T
    ) async throws -> T {
        try await connector.withConnection(to: definition) { org in
            for note in org.notes { notify(SessionNotice(note)) }
            let identity = try await StoreBindingCheck.identity(of: org)
            let (source, target): (OrgConnection?, OrgConnection?) = side == .source ? (org, nil) : (nil, org)
            let pair =
                side == .source
                ? MigrationPair(sourceOrgID: identity.organizationID, targetOrgID: set.orgID)
                : MigrationPair(sourceOrgID: set.orgID, targetOrgID: identity.organizationID)
            let (path, store, journal) = try openStaging(pair: pair, options: options, notify: notify)
            var migrator = Migrator(
                store: store,
                source: source?.client,
                target: target?.client,
                journal: journal,
                targetUserID: identity.userID,
                logger: options.logger
            )
            switch side {
            case .source: migrator.targetSet = set
            case .target: migrator.sourceSet = set
            }
            try migrator.preflight(storePath: path, resume: options.resume, dryRun: options.dryRun)
            if side == .source {
                try await StoreBindingCheck(store: store, path: path, connection: org)
                    .run(readOnly: false, known: identity, notify: notify)
            }
            return try await body(
                MigrationSession(source: source, target: target, storePath: path, migrator: migrator)
            )
        }
    }

    /// The staging store of `pair` (created when missing) and its journal.
    private static func openStaging(
        pair: MigrationPair,
        options: Options,
        notify: SessionNotice.Handler
    ) throws -> (path: String, store: SoupStore, journal: MigrationJournal) {
        let path = options.storePath ?? defaultStorePath(configDirectory: options.configDirectory, pair: pair)
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let store = try SoupStore.migrationStaging(path: path)
        for notice in SessionNotice.opening(store) { notify(notice) }
        do {
            let journal = try MigrationJournal(
                path: MigrationJournal.defaultPath(configDirectory: options.configDirectory, pair: pair),
                pair: pair,
                now: Int64((Date().timeIntervalSince1970 * 1000).rounded())
            )
            return (path, store, journal)
        } catch let error as MigrationError {
            throw SyncSessionError(.refused, error.message)
        }
    }

    private static func open(
        source: OrgConnection,
        target: OrgConnection,
        options: Options,
        notify: SessionNotice.Handler
    ) async throws -> MigrationSession {
        let sourceIdentity = try await StoreBindingCheck.identity(of: source)
        let targetIdentity = try await StoreBindingCheck.identity(of: target)
        guard sourceIdentity.organizationID.prefix(15) != targetIdentity.organizationID.prefix(15) else {
            throw SyncSessionError(
                .refused,
                "--from '\(source.definition.name)' and --to '\(target.definition.name)' are the same org "
                    + "(\(sourceIdentity.organizationID)); migrate moves records between two orgs"
            )
        }
        let pair = MigrationPair(sourceOrgID: sourceIdentity.organizationID, targetOrgID: targetIdentity.organizationID)
        let (path, store, journal) = try openStaging(pair: pair, options: options, notify: notify)
        let migrator = Migrator(
            store: store,
            source: source.client,
            target: target.client,
            journal: journal,
            targetUserID: targetIdentity.userID,
            logger: options.logger
        )
        try migrator.preflight(storePath: path, resume: options.resume, dryRun: options.dryRun)
        // The staging store's sync downs read the source: it is bound to that org as any store.
        try await StoreBindingCheck(store: store, path: path, connection: source)
            .run(readOnly: false, known: sourceIdentity, notify: notify)
        return MigrationSession(source: source, target: target, storePath: path, migrator: migrator)
    }

    /// The staging store of `pair` when none is named: `.syncrun/migrate-SOURCEID-TARGETID.db`
    /// under the config directory.
    public static func defaultStorePath(configDirectory: String, pair: MigrationPair) -> String {
        URL(fileURLWithPath: configDirectory)
            .appendingPathComponent(".syncrun/migrate-\(pair.sourceOrgID)-\(pair.targetOrgID).db").path
    }
}
