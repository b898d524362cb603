import Foundation
import SyncrunTestSupport
import Testing

/// Issue 31 item 5: the README's sample outputs are copied from real runs, and stay true. Each
/// sample is a fenced block after a `<!-- sample: ARGUMENTS -->` line; the test runs `syncrun
/// ARGUMENTS` in a fresh copy of the examples, on a pseudo-terminal (the samples show what a
/// terminal shows), and checks that every line of the sample appears in the real output, with
/// timings and column padding normalised.
@Suite(.serialized)
struct ReadmeSampleTests {
    struct Sample {
        var arguments: String
        var lines: [String]
    }

    /// The samples of `markdown`, in order.
    static func samples(in markdown: String) -> [Sample] {
        var samples: [Sample] = []
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<!-- sample:"), trimmed.hasSuffix("-->") else { continue }
            let arguments = trimmed.dropFirst("<!-- sample:".count).dropLast("-->".count)
                .trimmingCharacters(in: .whitespaces)
            guard lines.popFirst()?.hasPrefix("```") == true else { continue }
            var block: [String] = []
            while let next = lines.popFirst(), !next.hasPrefix("```") { block.append(String(next)) }
            samples.append(Sample(arguments: arguments, lines: block))
        }
        return samples
    }

    /// A line with its timings (`0.04s`, `1.23 s`) zeroed and runs of spaces made one.
    static func normalised(_ line: some StringProtocol) -> String {
        let words = line.split(separator: " ").map { word -> String in
            var text = String(word)
            let trailing = text.hasSuffix(",") ? "," : ""
            if !trailing.isEmpty { text.removeLast() }
            let number = text.hasSuffix("s") ? text.dropLast() : Substring(text)
            if number.contains("."), Double(number) != nil { return "0.00s" + trailing }
            return text + trailing
        }
        return words.joined(separator: " ")
    }

    /// Runs `syncrun ARGUMENTS` in `directory` on a pseudo-terminal (`script`), 200 columns wide.
    static func runOnTerminal(_ arguments: String, in directory: URL) throws -> SyncrunProcess.Result {
        let binary = RepositoryPaths.syncrunExecutable.path
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "200"
        return try SyncrunProcess.run(
            ["-qec", "'\(binary)' \(arguments)", "/dev/null"],
            in: directory,
            environment: environment,
            executable: URL(fileURLWithPath: "/usr/bin/script")
        )
    }

    @Test func theReadmeSamplesAreWhatTheCommandsPrint() async throws {
        let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let samples = Self.samples(in: readme)
        #expect(samples.count >= 2, "README has no '<!-- sample: … -->' blocks")
        try await TemporaryDirectory.with { directory in
            let examples = directory.appendingPathComponent("examples")
            try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: RepositoryPaths.examples.appendingPathComponent("contacts"),
                to: examples.appendingPathComponent("contacts")
            )
            try? FileManager.default.removeItem(at: examples.appendingPathComponent("contacts/.syncrun"))
            for sample in samples {
                let result = try Self.runOnTerminal(sample.arguments, in: directory)
                // A progress line is redrawn with carriage returns: each redraw is a line of its own.
                let output = Set(
                    result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
                        .split(whereSeparator: { $0 == "\r" || $0 == "\n" }).map(Self.normalised)
                )
                for line in sample.lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    #expect(
                        output.contains(Self.normalised(line)),
                        "syncrun \(sample.arguments): README line not in the real output:\n\(line)\n---\n\(result.stdout)"
                    )
                }
            }
        }
    }

    @Test func normalisingZeroesTimingsAndPadding() {
        #expect(
            Self.normalised("syncDown:accountsDown     DONE         20   1  0.04s")
                == "syncDown:accountsDown DONE 20 1 0.00s"
        )
        #expect(Self.normalised("DONE: 5 steps, 1.25 s") == Self.normalised("DONE: 5 steps,  13.50 s"))
        #expect(Self.normalised("took 12.5s, then") == "took 0.00s, then")
        #expect(Self.normalised("DONE: 5 steps") != Self.normalised("DONE: 5 step(s)"))
    }
}
