import Foundation
import FuzzTargets
import Testing

/// Replays every committed fuzz input — the seed corpus and the minimized reproducers of past
/// findings — through its target: each must return (no trap) within a bound far above its cost.
@Suite struct FuzzReplayTests {
    /// `Fuzz/` at the repository's root.
    private static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// One input may take this long in a debug build (libFuzzer's limit, sanitized, is 1 s).
    private static let perInputLimit = Duration.seconds(10)

    private static func inputs(_ kind: String, of target: String) throws -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func replaysCorpusAndRegressions(_ name: String) async throws {
        let target = try #require(FuzzTarget.named(name))
        let corpus = try Self.inputs("corpus", of: name)
        #expect(!corpus.isEmpty, "Fuzz/corpus/\(name)/ has no seed inputs")
        for file in try corpus + Self.inputs("regressions", of: name) {
            let bytes = try [UInt8](Data(contentsOf: file))
            let elapsed = await ContinuousClock().measure { await target.run(bytes) }
            #expect(elapsed < Self.perInputLimit, "\(file.path) took \(elapsed)")
        }
    }

    @Test func everyTargetHasAFolderPerKindAndNoStrayFolders() throws {
        let names = Set(FuzzTarget.all.map(\.name))
        #expect(names.count == FuzzTarget.all.count)
        for kind in ["corpus", "regressions"] {
            let folder = Self.fuzzFolder.appendingPathComponent(kind)
            let present = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { !$0.hasPrefix(".") }
            #expect(Set(present).isSubset(of: names), "unknown targets under Fuzz/\(kind)/: \(present)")
        }
    }

    @Test func targetsReturnOnEmptyAndHostileInputs() async {
        let hostile: [[UInt8]] = [
            [], [0], [0xFF, 0xFE], Array(repeating: UInt8(ascii: "["), count: 100_000),
            Array(repeating: UInt8(ascii: "{"), count: 50_000), Array("SELECT ((((((((".utf8),
            Array("GET /services/data/v62.0/query?q=%\n".utf8),
        ]
        for target in FuzzTarget.all {
            for input in hostile {
                let elapsed = await ContinuousClock().measure { await target.run(input) }
                #expect(elapsed < Self.perInputLimit, "\(target.name) took \(elapsed) on \(input.count) bytes")
            }
        }
    }
}
