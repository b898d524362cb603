import Foundation
import SyncConfig
import SyncrunTestSupport
import Testing

/// Every case under `Tests/SyncConfigTests/Invalid/<case>/` holds config files and an
/// `expected.json` listing exactly the diagnostics the loader reports, in order. The same
/// files are read by the JSON Schema tests (`schema`: reject / accept / syntax).
struct InvalidCorpusTests {
    struct Expected: Decodable {
        struct Entry: Decodable, Equatable, CustomStringConvertible {
            var file: String
            var line: Int
            var column: Int
            var severity: String
            var path: String
            var code: String
            var message: String?

            var description: String { "\(file):\(line):\(column): \(severity): \(path): \(code): \(message ?? "")" }
        }

        var diagnostics: [Entry]
        var schema: String
    }

    static let corpus = RepositoryPaths.root.appendingPathComponent("Tests/SyncConfigTests/Invalid")

    static var caseNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func corpusIsLargeAndCoversBothFormats() {
        let names = Self.caseNames
        #expect(names.count >= 60)
        #expect(names.filter { $0.hasPrefix("json-") }.count >= 30)
        #expect(names.filter { $0.hasPrefix("yaml-") }.count >= 30)
    }

    @Test(arguments: caseNames)
    func caseReportsExactlyTheExpectedDiagnostics(_ name: String) throws {
        let directory = Self.corpus.appendingPathComponent(name)
        let data = try Data(contentsOf: directory.appendingPathComponent("expected.json"))
        let expected = try JSONDecoder().decode(Expected.self, from: data)
        #expect(["reject", "accept", "syntax"].contains(expected.schema))

        let loaded = try ConfigLoader().load(ConfigFiles.locate(in: directory))
        let actual = loaded.diagnostics.map { diagnostic in
            Expected.Entry(
                file: URL(fileURLWithPath: diagnostic.file).lastPathComponent,
                line: diagnostic.line,
                column: diagnostic.column,
                severity: diagnostic.severity.rawValue,
                path: diagnostic.path,
                code: diagnostic.code.rawValue,
                message: expected.diagnostics.contains { $0.message != nil } ? diagnostic.message : nil
            )
        }
        #expect(actual.map(\.description) == expected.diagnostics.map(\.description))
        #expect(loaded.hasErrors, "every corpus case must contain at least one error")
    }
}
