import ArgumentParser
import Foundation
import JSONCore
import SoupStore
import SyncLedger
import SyncrunSession

/// Options shared by the `store` subcommands: which store file, and where the config lives.
struct StoreOptions: ParsableArguments {
    @OptionGroup var config: ConfigOptions

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("The store file (default: .syncrun/store.db under the config directory).", valueName: "file")
    )
    var storePath: String?

    /// The store file: `--store`, the project file's `store`, or `.syncrun/store.db` under `--config`.
    var resolvedStorePath: String {
        if let storePath { return storePath }
        if let store = ProjectContext.storePath(configDirectory: config.configDirectory) { return store }
        return URL(fileURLWithPath: config.configDirectory)
            .appendingPathComponent(".syncrun/store.db").path
    }

    /// Opens the store, creating it when `create` is true; otherwise a missing file is an error.
    func openStore(create: Bool = false) throws -> SoupStore {
        let path = resolvedStorePath
        if !create, !FileManager.default.fileExists(atPath: path) {
            throw CLIError("store '\(path)' does not exist; create it with 'syncrun store init' or pass --store FILE")
        }
        let store = try LibraryErrors.converting(SoupStoreError.self) { try SoupStore.ledger(path: path) }
        Self.tellWhatOpeningDid(store)
        return store
    }

    /// Notes on standard error when opening `store` made its files private or upgraded its schema.
    static func tellWhatOpeningDid(_ store: SoupStore) {
        for notice in SessionNotice.opening(store) { StandardStreams.notify(notice) }
    }

    /// Opens the existing store for reading only (`status`, `store query`, `store export`, `store
    /// soups`): nothing in the file changes, a store written by an older syncrun is read without
    /// being upgraded, and a store on a read-only file system can be read.
    func openStoreForReading() throws -> SoupStore {
        let path = resolvedStorePath
        if !FileManager.default.fileExists(atPath: path) {
            throw CLIError("store '\(path)' does not exist; create it with 'syncrun store init' or pass --store FILE")
        }
        return try LibraryErrors.converting(SoupStoreError.self) { try SoupStore.ledgerReadOnly(path: path) }
    }
}

extension StoreOptions {
    /// The config, parsed first as by every command (a broken one fails with exit 1), then the
    /// existing store opened for reading (``openStoreForReading()``).
    func checkConfigThenOpenForReading() throws -> SoupStore {
        _ = try config.loadValidIfPresent()
        return try openStoreForReading()
    }

    /// The config, parsed first as by every command, then the store opened (``openStore(create:)``).
    func checkConfigThenOpen() throws -> SoupStore {
        _ = try config.loadValidIfPresent()
        return try openStore()
    }

    /// The soups of `store`, with their index specs.
    static func soups(of store: SoupStore) throws -> [SoupDescription] {
        try LibraryErrors.converting(SoupStoreError.self) { try store.read { try $0.soups() } }
    }

    /// Checks that `soup`, typed on the command line, is a soup of `store`: an unknown one is a
    /// usage error (2) with a suggestion and the command that lists the soups.
    static func checkSoup(_ soup: String, in store: SoupStore, soups: [SoupDescription]? = nil) throws {
        let names = try (soups ?? Self.soups(of: store)).map(\.name)
        guard !names.contains(soup) else { return }
        throw CLIError.usage(
            "no soup named '\(JSONWriter.terminalSafe(soup))' in '\(store.path)'"
                + NameSuggestion.clause(for: soup, among: names) + "; 'syncrun store soups' lists them"
        )
    }
}
