import Foundation
import SyncrunTestSupport
import Testing

/// `syncrun validate` on hostile configs, as a child process under a 2 GiB address-space limit
/// (`ulimit -v 2097152`): every case exits 1 with its diagnostic, none crashes or runs out of memory.
struct HostileConfigTests {
    private static let corpus = RepositoryPaths.root.appendingPathComponent("Tests/SyncConfigTests/Invalid")

    private struct Outcome {
        var status: Int32
        var codes: [String]
        var stderr: String
    }

    /// Runs `syncrun validate --config DIR --format json` through `bash -c` with the limit set.
    private func validateUnderLimit(_ directory: URL) throws -> Outcome {
        let scratch = try TemporaryDirectory(prefix: "syncrun-hostile")
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", #"ulimit -v 2097152 && exec "$0" validate --config "$1" --format json"#,
            RepositoryPaths.syncrunExecutable.path, directory.path,
        ]
        process.standardOutput = output
        process.standardError = error
        try SyncrunProcess.spawn(process)
        process.waitUntilExit()
        let stdout = try Data(contentsOf: outputURL)
        let entries = (try? JSONSerialization.jsonObject(with: stdout)) as? [[String: Any]] ?? []
        return Outcome(
            status: process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus,
            codes: entries.compactMap { $0["code"] as? String },
            stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        )
    }

    @Test(arguments: [
        ("json-deep-arrays", "too-deep"),
        ("json-deep-objects", "too-deep"),
        ("yaml-deep-sequences", "too-deep"),
        ("yaml-deep-mappings", "too-deep"),
        ("yaml-alias-bomb", "too-many-nodes"),
        ("yaml-not-utf8", "encoding"),
    ])
    func corpusCaseExitsOneWithItsDiagnostic(name: String, code: String) throws {
        let outcome = try validateUnderLimit(Self.corpus.appendingPathComponent(name))
        #expect(outcome.status == 1, "\(name): \(outcome.stderr)")
        #expect(outcome.codes == [code])
    }

    @Test func a50MBConfigExitsOneWithoutBeingRead() throws {
        let directory = try TemporaryDirectory(prefix: "syncrun-large-config")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let url = directory.url.appendingPathComponent("usersyncs.json")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let chunk = Data(String(repeating: " ", count: 1024 * 1024).utf8)
        try handle.write(contentsOf: Data(#"{"syncs": []"#.utf8))
        for _ in 0..<50 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data("}\n".utf8))
        try handle.close()
        let outcome = try validateUnderLimit(directory.url)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.codes == ["file-too-large"])
    }
}
