import Foundation
import Logging

/// A log handler that keeps entries in memory, one per test (no global bootstrap).
public struct RecordingLogHandler: LogHandler {
    public struct Entry: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: Logger.Metadata
    }

    public final class Storage: @unchecked Sendable {
        // Safe: `entries` is only touched under `lock`.
        private let lock = NSLock()
        private var stored: [Entry] = []

        func append(_ entry: Entry) {
            lock.lock()
            stored.append(entry)
            lock.unlock()
        }

        public var entries: [Entry] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }

        /// Every message and metadata value, for checking that a secret appears nowhere.
        public var allText: String {
            entries.map { entry in
                entry.message + " " + entry.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }.joined(separator: "\n")
        }
    }

    public let storage: Storage
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        merged.merge(event.metadata ?? [:]) { _, new in new }
        storage.append(Entry(level: event.level, message: "\(event.message)", metadata: merged))
    }

    /// A logger writing to a fresh storage.
    public static func makeLogger() -> (Logger, Storage) {
        let storage = Storage()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(storage: storage) }
        return (logger, storage)
    }
}
