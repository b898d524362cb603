import ArgumentParser
import Foundation
import SyncConfig

/// Where the config files are: `--config DIR`, `--store-config FILE`, `--syncs-config FILE`.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Directory holding userstore / usersyncs (and globalstore / globalsyncs) as .json, .yaml or .yml.",
            valueName: "dir"
        )
    )
    var configDirectory: String = "."

    @Option(help: ArgumentHelp("The store config file (soups and index specs).", valueName: "file"))
    var storeConfig: String?

    @Option(help: ArgumentHelp("The syncs config file (named syncs).", valueName: "file"))
    var syncsConfig: String?
}

extension ConfigOptions {
    /// The files to load: those named by `--store-config` / `--syncs-config` when either is
    /// given (they are the user store and syncs), otherwise those found in `--config`.
    ///
    /// - Throws: ``CLIError`` (usage) when a named file or the directory does not exist, or
    ///   when the directory holds no config file.
    func configFiles() throws -> ConfigFiles {
        let manager = FileManager.default
        if storeConfig != nil || syncsConfig != nil {
            for (flag, path) in [("--store-config", storeConfig), ("--syncs-config", syncsConfig)] {
                guard let path else { continue }
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw CLIError.usage("the file '\(path)' named by \(flag) does not exist")
                }
                guard !isDirectory.boolValue else {
                    throw CLIError.usage("'\(path)' named by \(flag) is a directory, not a config file; name the file")
                }
            }
            return ConfigFiles(
                userStore: storeConfig.map { URL(fileURLWithPath: $0) },
                userSyncs: syncsConfig.map { URL(fileURLWithPath: $0) }
            )
        }
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: configDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.usage("the config directory '\(configDirectory)' does not exist")
        }
        let files = ConfigFiles.locate(in: URL(fileURLWithPath: configDirectory, isDirectory: true))
        // A directory named like a config file is an error of the load (exit 1), not "no files".
        guard !files.isEmpty || !files.diagnostics.isEmpty else {
            throw CLIError.usage(
                "no config files in '\(configDirectory)'; expected userstore, usersyncs, globalstore or globalsyncs "
                    + "with the extension .json, .yaml or .yml (or name files with --store-config / --syncs-config)"
            )
        }
        return files
    }

    /// Loads and validates the config files. Problems in their content are diagnostics of the
    /// result, not errors: callers decide (``LoadedConfig/hasErrors``).
    ///
    /// - Throws: ``CLIError`` (usage) for missing files, ``CLIError`` (failure) for unreadable ones.
    func load() throws -> LoadedConfig {
        let files = try configFiles()
        do {
            return try ConfigLoader(registry: InstalledPlugins.targets.implRegistry).load(files)
        } catch let error as SyncConfigError {
            throw CLIError(error.message)
        }
    }

    /// Loads the config files and fails with every diagnostic on standard error when there is
    /// any error; warnings are printed and the config is returned. For commands that need a
    /// usable config (plan, store init, run).
    func loadValid() throws -> LoadedConfig {
        let loaded = try load()
        for diagnostic in loaded.diagnostics {
            StandardStreams.writeError(DiagnosticText.plain(diagnostic) + "\n")
        }
        if loaded.hasErrors { throw Self.configErrors(loaded) }
        return loaded
    }

    /// The config of a command that can work without one and never runs a target (`status`,
    /// `store …`): when the files are named or the directory holds any, they are loaded first and
    /// a config with errors fails like everywhere else (exit 1); `nil` when there is no config at
    /// all. A custom target this executable has not registered is no error here: these commands
    /// never run it (the stock `syncrun` reads the stores of a custom-targets project).
    func loadValidIfPresent() throws -> LoadedConfig? {
        if storeConfig == nil, syncsConfig == nil {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: configDirectory, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { return nil }
            let files = ConfigFiles.locate(in: URL(fileURLWithPath: configDirectory, isDirectory: true))
            guard !files.isEmpty || !files.diagnostics.isEmpty else { return nil }
        }
        let loaded = try load()
        let shown = loaded.diagnostics.filter { $0.code != .unregisteredCustomTarget }
        for diagnostic in shown { StandardStreams.writeError(DiagnosticText.plain(diagnostic) + "\n") }
        let errors = shown.count(where: \.isError)
        if errors > 0 { throw Self.configErrors(count: errors) }
        return loaded
    }

    /// The error of a config that has errors (a failure, exit 1), its diagnostics already printed.
    static func configErrors(_ loaded: LoadedConfig) -> CLIError {
        configErrors(count: loaded.errorCount)
    }

    /// The error of a config with `count` errors (a failure, exit 1), its diagnostics already printed.
    static func configErrors(count: Int) -> CLIError {
        CLIError("the config has \(count) error\(count == 1 ? "" : "s"); run 'syncrun validate' for details")
    }
}
