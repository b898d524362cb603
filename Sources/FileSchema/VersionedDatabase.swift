import Foundation
import GRDB

/// Named, ordered schema steps of a SQLite file syncrun owns, applied by one GRDB
/// `DatabaseMigrator` (the steps applied are recorded in the file's `grdb_migrations` table).
///
/// The one way syncrun creates and upgrades its tables, whatever the file (a store, a local org's
/// data, a migration journal):
/// - a writable open applies the missing steps, each in its own transaction; when the file already
///   held data, a copy (`<file>.before-upgrade`, mode 0600) is taken first and removed once every
///   step has committed, so an upgrade killed half way leaves the copy and is finished by the next
///   open;
/// - a file on which a step unknown here was applied was written by a newer syncrun: it is refused
///   (``VersionedDatabase/Refusal``) and never altered;
/// - a read-only open applies nothing (``unknownSteps(_:)`` still refuses a newer file).
public struct VersionedDatabase: Sendable {
    /// One named schema change.
    public struct Step: Sendable {
        /// The step's name, recorded in the file once applied; never edited or renamed once
        /// shipped: a change is a new step.
        public let identifier: String
        let apply: @Sendable (Database) throws -> Void

        /// A step named `identifier` that runs `apply` in its own transaction.
        public init(_ identifier: String, _ apply: @escaping @Sendable (Database) throws -> Void) {
            self.identifier = identifier
            self.apply = apply
        }
    }

    /// A file written by a newer syncrun: the steps it has that this one does not know.
    public struct Refusal: Error, Sendable, Hashable {
        /// The file.
        public var path: String
        /// The unknown steps, sorted.
        public var unknownSteps: [String]
    }

    /// What an open applied.
    public struct Upgrade: Sendable, Hashable {
        /// The steps applied, in order (empty when the file was current).
        public var appliedSteps: [String]
        /// Whether the file held data before (an upgrade, not the creation of a new file).
        public var upgradedExistingFile: Bool

        /// Whether an existing file's schema changed.
        public var isUpgrade: Bool { upgradedExistingFile && !appliedSteps.isEmpty }

        /// Nothing applied (a current file, or a read-only open).
        public static let none = Upgrade(appliedSteps: [], upgradedExistingFile: false)

        /// `appliedSteps` applied to an existing file (`upgradedExistingFile`) or a new one.
        public init(appliedSteps: [String], upgradedExistingFile: Bool) {
            self.appliedSteps = appliedSteps
            self.upgradedExistingFile = upgradedExistingFile
        }
    }

    /// The suffix of the copy kept while an upgrade runs.
    public static let backupSuffix = ".before-upgrade"

    /// The steps, in the order they apply.
    public let steps: [Step]

    /// The steps `steps`, applied in this order.
    public init(_ steps: [Step]) {
        self.steps = steps
    }

    /// These steps followed by `other`'s.
    public func followed(by other: VersionedDatabase) -> VersionedDatabase {
        VersionedDatabase(steps + other.steps)
    }

    private var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps {
            migrator.registerMigration(step.identifier, migrate: step.apply)
        }
        return migrator
    }

    /// The steps applied to the file that this syncrun does not know (a newer syncrun's), sorted.
    ///
    /// A step is named `<owner>-<n>-<what>` (`store-1-…`, `ledger-1-…`): the layer that owns the
    /// tables, its step number, what it does. Only steps of the owners this value has steps of count:
    /// a store opened without the ledger's steps (SmartStore tools, the store's own tests) does not
    /// take the ledger's steps for a newer store.
    public func unknownSteps(_ db: Database) throws -> [String] {
        let known = Set(steps.map(\.identifier))
        let owners = Set(steps.map { Self.owner(of: $0.identifier) })
        return try migrator.appliedIdentifiers(db)
            .filter { !known.contains($0) && owners.contains(Self.owner(of: $0)) }
            .sorted()
    }

    /// The owner part of a step's name: what comes before its first `-`.
    static func owner(of identifier: String) -> Substring {
        identifier.prefix { $0 != "-" }
    }

    /// Throws ``Refusal`` when the file has steps this syncrun does not know.
    public func refuseNewer(_ db: Database, path: String) throws {
        let unknown = try unknownSteps(db)
        if !unknown.isEmpty { throw Refusal(path: path, unknownSteps: unknown) }
    }

    /// Throws ``Refusal`` when the existing file at `path` has steps this syncrun does not know,
    /// reading it through a read-only connection: call it before opening the file for writing,
    /// since a writable GRDB pool writes on open (it makes sure the WAL file is not empty). A
    /// missing or empty file passes.
    public func refuseNewer(fileAt path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in try refuseNewer(db, path: path) }
    }

    /// Applies the missing steps to the file at `path` opened as `writer`.
    ///
    /// - Parameters:
    ///   - writer: The open file.
    ///   - path: Its path (for the copy kept during an upgrade, and messages).
    ///   - isNewFile: Whether the file was just created (no copy is taken of a new file).
    /// - Throws: ``Refusal`` for a newer file (nothing written), `DatabaseError`, or the error of a
    ///   step (that step rolled back; the copy is kept).
    public func upgrade(_ writer: any DatabaseWriter, path: String, isNewFile: Bool) throws -> Upgrade {
        let migrator = self.migrator
        // Read on the writer: a pool would open a reader connection for these two reads.
        let applied = try writer.writeWithoutTransaction { db in
            try refuseNewer(db, path: path)
            return try migrator.appliedIdentifiers(db)
        }
        let pending = steps.map(\.identifier).filter { !applied.contains($0) }
        let backup = path + Self.backupSuffix
        if !pending.isEmpty {
            if !isNewFile && !FileManager.default.fileExists(atPath: backup) {
                try PrivateFiles.createFile(atPath: backup)
                let copy = try DatabaseQueue(path: backup)
                try writer.backup(to: copy)
                try copy.close()
            }
            try migrator.migrate(writer)
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: backup + suffix) {
            try? FileManager.default.removeItem(atPath: backup + suffix)
        }
        return Upgrade(appliedSteps: pending, upgradedExistingFile: !isNewFile)
    }
}
