// swift-tools-version:6.0
import Foundation
import PackageDescription

let package = Package(
    name: "syncrun",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "syncrun", targets: ["syncrun"]),
        .library(name: "SyncrunCLI", targets: ["SyncrunCLI"]),
        .library(name: "JSONCore", targets: ["JSONCore"]),
        .library(name: "Avro", targets: ["Avro"]),
        .library(name: "PubSubAPI", targets: ["PubSubAPI"]),
        .library(name: "SOQL", targets: ["SOQL"]),
        .library(name: "SyncConfig", targets: ["SyncConfig"]),
        .library(name: "SyncPlan", targets: ["SyncPlan"]),
        .library(name: "FileSchema", targets: ["FileSchema"]),
        .library(name: "SoupStore", targets: ["SoupStore"]),
        .library(name: "SyncLedger", targets: ["SyncLedger"]),
        .library(name: "OrgClient", targets: ["OrgClient"]),
        .library(name: "LocalOrg", targets: ["LocalOrg"]),
        .library(name: "OrgAccess", targets: ["OrgAccess"]),
        .library(name: "SyncEngine", targets: ["SyncEngine"]),
        .library(name: "OrgCheck", targets: ["OrgCheck"]),
        .library(name: "Migration", targets: ["Migration"]),
        .library(name: "SyncrunSession", targets: ["SyncrunSession"]),
        .library(name: "LiveSync", targets: ["LiveSync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // Already in the graph through Hummingbird and AsyncHTTPClient; named because LocalOrg imports them.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The Pub/Sub API (gRPC over HTTP/2, protobuf messages): the local org's change events.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // Core: JSON value, reader and writer, no dependencies.
        .target(name: "JSONCore"),
        // Core: Avro schemas (parsed from their JSON) and the binary encoding, for the Pub/Sub API's
        // change events. No dependency beyond JSONCore.
        .target(name: "Avro", dependencies: ["JSONCore"]),
        // The Pub/Sub API's messages and gRPC service, generated from pubsub_api.proto by
        // scripts/generate-pubsub.sh and committed (no build plugin).
        .target(
            name: "PubSubAPI",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["pubsub_api.proto"]
        ),
        // Core: how syncrun versions its SQLite files (named GRDB migrations, newer files refused,
        // a copy kept until an upgrade commits) and creates private files (0600 / 0700).
        .target(name: "FileSchema", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // Core: SOQL grammar and the Salesforce calendar, no dependencies.
        .target(name: "SOQL"),
        // Config model, loaders (JSON + YAML with source positions) and diagnostics.
        .target(
            name: "SyncConfig",
            dependencies: ["JSONCore", "SOQL", .product(name: "Yams", package: "Yams")]
        ),
        // Dependency graph and ordered plan, with renderers.
        .target(name: "SyncPlan", dependencies: ["JSONCore", "SyncConfig"]),
        // SmartStore-compatible soups on SQLite.
        .target(
            name: "SoupStore",
            dependencies: [
                "JSONCore", "FileSchema",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API, for the per-record loops of sync down's page upsert.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The books a sync keeps in the store: record syncs, plan journal, locks, ghost scans,
        // parent/children protection and their SQL. Between the store and the engine.
        .target(
            name: "SyncLedger",
            dependencies: [
                "JSONCore", "SoupStore", "FileSchema", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The org client protocol and its Salesforce REST implementation.
        .target(
            name: "OrgClient",
            dependencies: [
                "JSONCore", "SOQL",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),  // extra trusted CAs (--ca-file)
            ]
        ),
        // Reaching an org: the ORG grammar, the project file's orgs, token sources (sf CLI, SFDX auth
        // URL, JWT bearer, client credentials, access token, local org) and their renewal. A local org
        // is started through its `LocalOrgLaunching` protocol, which the CLI implements over LocalOrg.
        .target(
            name: "OrgAccess",
            dependencies: [
                "JSONCore", "OrgClient", "SyncConfig",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The embedded local org: a Salesforce REST API over SQLite.
        .target(
            name: "LocalOrg",
            dependencies: [
                "JSONCore",  // the YAML 1.2 core schema rules for YAML schema files (its JSON is its own)
                "SOQL", "FileSchema",
                "Avro", "PubSubAPI",  // change events and the Pub/Sub API that serves them
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // `org check` / `org diff`: an org's shape (from describe) and the config checked against it.
        .target(name: "OrgCheck", dependencies: ["JSONCore", "SOQL", "SyncConfig"]),
        // Sync down / up / resync / clean ghosts.
        .target(
            name: "SyncEngine",
            dependencies: [
                "JSONCore", "SOQL", "SyncConfig", "SyncPlan", "SoupStore", "SyncLedger", "OrgClient",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `syncrun watch`: the Pub/Sub API client (Change Data Capture events, Avro) and the watch loop
        // that keeps soql sync downs current from them.
        .target(
            name: "LiveSync",
            dependencies: [
                "JSONCore", "SOQL", "SyncConfig", "SoupStore", "SyncLedger", "OrgClient", "SyncEngine", "Avro",
                "PubSubAPI",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ]
        ),
        // `syncrun migrate`: moves the records a config describes from one org to another, remapping ids.
        .target(
            name: "Migration",
            dependencies: [
                "JSONCore", "FileSchema", "SOQL", "SyncConfig", "SoupStore", "SyncLedger", "OrgClient", "SyncEngine",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),  // masks: HMAC-SHA-256
            ]
        ),
        // What every command does before it syncs or migrates: resolve-and-connect, the store's binding
        // to its org, the config's soups, killed runs recovered, the event stream; used by the CLI and
        // by any executable of one's own.
        .target(
            name: "SyncrunSession",
            dependencies: [
                "SyncConfig", "SoupStore", "SyncLedger", "OrgClient", "OrgAccess", "SyncEngine", "Migration",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The command tree (commands and output only), a library so that other executables can link it.
        .target(
            name: "SyncrunCLI",
            dependencies: [
                "JSONCore", "SOQL", "SyncConfig", "SyncPlan", "SoupStore", "SyncLedger", "OrgClient", "OrgAccess",
                "LocalOrg", "SyncEngine", "OrgCheck", "Migration", "SyncrunSession", "LiveSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The stock `syncrun` executable: a few lines over SyncrunCLI.
        .executableTarget(
            name: "syncrun",
            dependencies: ["SyncrunCLI"],
            // Swift links a Linux executable with `-export-dynamic`: every symbol of the package and
            // its dependencies (about 70,000) goes into the dynamic symbol table, which the loader
            // reads and the runtime scans (`dladdr`, finding its own path) at every start. Nothing
            // looks syncrun's symbols up by name (backtraces read the file's own symbol table), so the
            // release build leaves them out: 2–4 ms less per command (Benchmarks/sync-down/README.md).
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))
            ]
        ),
        // examples/custom-targets: a user's own executable over SyncrunCLI registering two plug-ins
        // (custom targets in Swift). Built with the package, so CI builds nothing twice; run by
        // CustomTargetsExampleTests.
        .executableTarget(
            name: "custom-targets-example",
            dependencies: ["JSONCore", "OrgClient", "SOQL", "SyncEngine", "SyncrunCLI"],
            path: "examples/custom-targets/Sources"
        ),
        // Benchmarks (run by hand or by scripts/bench*.sh; not timed tests).
        .executableTarget(
            name: "syncrun-bench",
            dependencies: [
                "SOQL", "SyncConfig", "SyncPlan", "SoupStore", "SyncLedger", "OrgClient", "LocalOrg", "SyncEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/SyncrunBench"
        ),
        // Fuzz targets: one function per parser that takes outside input, fed arbitrary bytes (see
        // docs/fuzzing.md). Replayed over Fuzz/corpus and Fuzz/regressions by FuzzTargetsTests; run
        // under libFuzzer by scripts/fuzz.sh.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "JSONCore", "Avro", "SOQL", "SyncConfig", "SoupStore", "OrgClient", "OrgAccess", "LocalOrg",
                "SyncEngine", "Migration", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Shared test helpers: temp dirs, local org on a free port, temp stores.
        .target(
            name: "SyncrunTestSupport",
            dependencies: [
                "SoupStore", "SyncLedger", "LocalOrg", "SyncConfig", "OrgClient",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/SyncrunTestSupport"
        ),
        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore"]),
        .testTarget(name: "AvroTests", dependencies: ["Avro", "JSONCore"]),
        .testTarget(name: "SOQLTests", dependencies: ["SOQL"]),
        .testTarget(
            name: "SyncConfigTests",
            dependencies: ["JSONCore", "SyncConfig", "SyncrunTestSupport"],
            exclude: ["Invalid"]
        ),
        .testTarget(
            name: "SyncPlanTests",
            dependencies: ["SyncPlan", "SyncConfig", "SyncrunTestSupport"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "SoupStoreTests",
            dependencies: [
                "JSONCore", "SoupStore", "SyncrunTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SyncLedgerTests",
            dependencies: [
                "SyncLedger", "SoupStore", "FileSchema", "SyncrunTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "OrgClientTests",
            dependencies: [
                "JSONCore", "OrgClient", "OrgAccess", "LocalOrg", "SyncrunTestSupport",
                "SyncrunCLI",  // LocalOrgServerLauncher, for the local:DIR token source
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "LocalOrgTests",
            dependencies: [
                "LocalOrg", "Avro", "PubSubAPI", "SOQL", "FileSchema", "SyncrunTestSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "SyncEngineTests",
            dependencies: [
                "SyncEngine", "LocalOrg", "SOQL", "SoupStore", "SyncLedger", "OrgClient", "SyncConfig", "JSONCore",
                "SyncrunTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LiveSyncTests",
            dependencies: [
                "LiveSync", "LocalOrg", "SOQL", "SoupStore", "SyncLedger", "OrgClient", "SyncConfig", "SyncEngine",
                "JSONCore", "Avro", "SyncrunTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "MigrationTests",
            dependencies: [
                "Migration", "JSONCore", "SOQL", "SyncConfig", "SoupStore", "SyncLedger", "OrgClient", "LocalOrg",
                "SyncEngine",
                "SyncrunTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The session's checks as a library caller meets them (no executable in between).
        .testTarget(
            name: "SyncrunSessionTests",
            dependencies: [
                "SyncrunSession", "OrgAccess", "OrgClient", "SyncConfig", "SoupStore", "SyncLedger", "SyncEngine",
                "LocalOrg", "SyncrunTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
        // End-to-end tests that run the built `syncrun` executable.
        .testTarget(
            name: "syncrunTests",
            dependencies: [
                "syncrun", "custom-targets-example", "SyncrunTestSupport", "LocalOrg", "SoupStore", "SyncLedger",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)

// The libFuzzer harness, declared only for scripts/fuzz.sh (`SYNCRUN_FUZZ=1`, scratch path
// `.build-fuzz`): this package's modules are built with coverage and address sanitizer, and the
// harness links libFuzzer and runs its driver on the target named by `$SYNCRUN_FUZZ_TARGET`.
if ProcessInfo.processInfo.environment["SYNCRUN_FUZZ"] == "1" {
    let sanitized: Set = [
        "JSONCore", "Avro", "SOQL", "SyncConfig", "SoupStore", "OrgClient", "OrgAccess", "LocalOrg", "SyncEngine",
        "FuzzTargets",
    ]
    for target in package.targets where sanitized.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer,address"])]
    }
    package.targets.append(
        .executableTarget(
            name: "syncrun-fuzz",
            dependencies: ["FuzzTargets"],
            path: "Fuzz/Harness",
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        )
    )
}
