import ArgumentParser
import Foundation
import LiveSync
import OrgClient
import SyncConfig
import SyncEngine
import SyncPlan
import SyncrunSession

/// `syncrun watch [NAME…]`: keeps the soups of soql sync downs current from their objects' Change
/// Data Capture events until SIGINT / SIGTERM (docs/watch.md). The loop is the library's
/// (`LiveSync`'s ``Watcher``); this command parses, connects and prints.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep the store current from the org's change events (Change Data Capture) until interrupted.",
        discussion: """
            Watches every soql sync down of the plan, or the named ones: each subscribes to its object's \
            change events (/data/{Object}ChangeEvent) through the Pub/Sub API; each batch of events (gathered \
            for at most 100 ms) is read back with the sync's own query restricted to the batch's ids and \
            written with its merge mode, and its replay id is stored with the records, so a restart resumes \
            after it. Gap and overflow events, and a replay id the org no longer holds, resync from the \
            watermark. An object without a change event topic is resynced every --poll-interval seconds. \
            Output: a line per batch on a terminal, JSON lines otherwise (or with --format json). \
            Exit status: 0 after SIGINT / SIGTERM (the batch in hand is finished); 1 when watching fails; \
            2 for usage errors and refusals.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var org: OrgOptions
    @Argument(help: "The soql sync downs to watch (default: every one of the plan).") var names: [String] = []
    @Option(
        help: ArgumentHelp(
            "The Pub/Sub API: https://HOST[:PORT] (TLS) or, for a local org, http://127.0.0.1:PORT (default: "
                + "the project file org's pubsubUrl, else api.pubsub.salesforce.com:7443; a local:DIR org's own).",
            valueName: "url"
        )
    )
    var pubsubURL: String?
    @Option(
        help: ArgumentHelp(
            "Resync a sync whose object has no change events this often (seconds).",
            valueName: "seconds"
        )
    )
    var pollInterval: Int = 30
    @Flag(help: "Also run the plan's sync ups whenever the watched soups hold local changes (checked every second).")
    var up = false
    @Option(help: "Output format.") var format: OutputFormat = .text

    /// The `pubsubUrl` the project file gives the org `org` (by its name in the file), if any. The
    /// session has already read the file and printed its problems.
    static func projectPubSubURL(configDirectory: String, org: String) -> String? {
        guard let url = ProjectFile.locate(in: URL(fileURLWithPath: configDirectory, isDirectory: true)) else {
            return nil
        }
        return (try? ConfigLoader().loadProjectFile(url))?.project?.pubsubURLs[org]
    }

    func validate() throws {
        guard pollInterval >= 1 else { throw ValidationError("--poll-interval must be at least 1 second") }
        if let pubsubURL {
            do {
                _ = try PubSubEndpoint(url: pubsubURL)
            } catch let error as LiveSyncError {
                throw ValidationError(error.message)
            }
        }
    }

    func run() async throws {
        let (names, up, pollInterval, flagURL) = (names, up, pollInterval, pubsubURL)
        let configDirectory = store.config.configDirectory
        let renderer = WatchRenderer(asJSONLines: format == .json || !StandardStreams.isOutputTerminal)
        let ports = LocalOrgPorts()
        let (isLocal, caFile, proxyFlag) = (org.localDirectory != nil, org.caFile, org.proxy)
        let session = SyncCommandSession(store: store, org: org, format: format)
        try await session.withSyncSession(names: names, launcher: LocalOrgServerLauncher(ports: ports)) {
            config,
            session in
            let (downs, ups) = try Self.syncs(names: names, up: up, config: config)
            let endpoint: PubSubEndpoint
            if let flagURL {
                endpoint = try PubSubEndpoint(url: flagURL)
            } else if let projectURL = Self.projectPubSubURL(
                configDirectory: configDirectory,
                org: session.connection.definition.name
            ) {
                do {
                    endpoint = try PubSubEndpoint(url: projectURL)
                } catch let error as LiveSyncError {
                    throw CLIError(
                        "the project file's pubsubUrl of org '\(session.connection.definition.name)': \(error.message)"
                    )
                }
            } else if isLocal, let port = ports.pubsubPort {
                endpoint = .localOrg(
                    instanceURL: session.connection.instanceURL,
                    port: port,
                    trustedCertificatesFile: caFile
                )
            } else {
                endpoint = .salesforce
            }
            do {
                // The org id (`tenantid`): known from the login, else one identity call (as the store's
                // binding check makes).
                let organizationID: String
                if let known = session.connection.identity?.organizationID {
                    organizationID = known
                } else {
                    organizationID = try await session.connection.client.identity().organizationID
                }
                try endpoint.checkReachable(
                    through: try OrgOptions.proxySettings(
                        flag: proxyFlag,
                        environment: ProcessInfo.processInfo.environment
                    )
                )
                guard #available(macOS 15.0, *) else {
                    throw CLIError.usage("'syncrun watch' needs macOS 15 or later (gRPC)")
                }
                var options = WatchOptions()
                options.pollInterval = .seconds(pollInterval)
                let stop = WatchStop()
                let stopper = SignalStopper(
                    notice: "stopping after the batch in hand (interrupt again to quit now)",
                    isStopRequested: { stop.isStopRequested },
                    requestStop: { stop.requestStop() }
                )
                defer { withExtendedLifetime(stopper) {} }
                let credentials = RESTOrgCredentials(client: session.connection.client, organizationID: organizationID)
                try await PubSubConnection.with(endpoint: endpoint, credentials: credentials) { source in
                    let watcher = Watcher(engine: session.engine, source: source, options: options) { event in
                        renderer.render(event)
                    }
                    try await watcher.run(downs, upSyncs: ups, stop: stop)
                }
            } catch let error as LiveSyncError {
                switch error.code {
                case .invalidConfiguration, .notWatchable: throw CLIError.usage(error.message)
                default: throw CLIError(error.message)
                }
            }
        }
    }

    /// The sync downs to watch (soql ones of the plan, or the named ones, which must be soql sync
    /// downs), and with `up` the plan's sync ups, in plan order.
    static func syncs(names: [String], up: Bool, config: LoadedConfig) throws -> ([SyncDefinition], [SyncDefinition]) {
        guard let syncs = config.userSyncs else { throw CLIError.usage("the config has no syncs (usersyncs)") }
        let plan: SyncPlan
        do {
            plan = try SyncPlan(planning: syncs)
        } catch let error as PlanError {
            throw CLIError.usage(error.message)
        }
        var downs: [SyncDefinition] = []
        var ups: [SyncDefinition] = []
        for step in plan.steps {
            let definition = try SyncCommandSession.definition(named: step.syncName, in: config)
            switch step.kind {
            case .syncDown:
                guard case .down(.soql) = definition.target else { continue }
                if names.isEmpty || names.contains(definition.name) { downs.append(definition) }
            case .syncUp:
                if up { ups.append(definition) }
            case .cleanGhosts:
                continue
            }
        }
        for name in names where !downs.contains(where: { $0.name == name }) {
            throw CLIError.usage("sync '\(name)' is not a soql sync down, which is what 'syncrun watch' watches")
        }
        guard !downs.isEmpty else {
            throw CLIError.usage("the plan has no soql sync down to watch; 'syncrun plan' lists the syncs")
        }
        return (downs, ups)
    }
}
