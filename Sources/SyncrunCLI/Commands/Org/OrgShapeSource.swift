import Foundation
import JSONCore
import LocalOrg
import Logging
import OrgCheck
import OrgClient
import SyncrunSession

/// Where `org check`, `org schema pull` and `org diff` get an org's shape: a schema file read
/// offline (through the local org's own describe, so it answers as a served org would) or a
/// live org's describes, one per sObject, fetched concurrently.
enum OrgShapeSource {
    /// The shape a schema file gives: every object of it (the standard ones too in merge mode).
    ///
    /// - Throws: ``CLIError`` (usage) when the file does not exist or is not a schema file.
    static func shape(schemaFile path: String) throws -> OrgShape {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.usage("the schema file '\(path)' does not exist")
        }
        let schema: OrgSchema
        do {
            schema = try OrgSchema.fromFile(URL(fileURLWithPath: path))
        } catch let error as OrgError {
            throw CLIError.usage("the schema file '\(path)' cannot be read: \(error.message)")
        }
        var shape = OrgShape()
        for object in schema.objects {
            guard let data = schema.describeData(object.name) else { continue }
            shape.add(try decode(data, source: path))
        }
        return shape
    }

    /// The shape of a live org for `names` (and, for a name the org lacks, its namespaced or
    /// unnamespaced form; with `typedNames`, a name the org lacks in either form is a usage error
    /// with a suggestion), `extraNames` the user may describe (a 404 leaves one out with a warning),
    /// plus the objects their reference fields point to when `followReferences`.
    static func shape(
        org options: OrgOptions,
        project: ProjectContext?,
        names: [String],
        alsoIfVisible extraNames: [String] = [],
        typedNames: Bool = false,
        followReferences: Bool
    ) async throws -> OrgShape {
        let logger = Logger(label: "syncrun", factory: { _ in SwiftLogNoOpLogHandler() })
        return try await options.withDescriber(project: project, logger: logger) { client in
            do {
                let global = try await client.describeGlobal().objects.map(\.name)
                let lowered = Dictionary(global.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
                var wanted: [String] = []
                func want(_ name: String) {
                    if let actual = lowered[name.lowercased()], !wanted.contains(actual) { wanted.append(actual) }
                }
                for name in names {
                    want(name)
                    if lowered[name.lowercased()] == nil, let other = namespaceAlternative(name, among: global) {
                        want(other)
                    } else if typedNames, lowered[name.lowercased()] == nil {
                        // A name typed on the command line that the org lacks: say so, with a suggestion.
                        throw CLIError.usage(
                            "--objects: '\(JSONWriter.terminalSafe(name))' is not an object of the org"
                                + NameSuggestion.clause(for: name, among: global) + "; nothing was written"
                        )
                    }
                }
                var shape = try await describe(wanted, client: client)
                let extras = extraNames.compactMap { lowered[$0.lowercased()] }.filter { !wanted.contains($0) }
                wanted += extras
                for object in try await describe(extras, client: client, skippingMissing: true).objects {
                    shape.add(object)
                }
                if followReferences {
                    let first = wanted
                    for object in shape.objects where first.contains(object.name) {
                        object.fields.flatMap(\.referenceTo).forEach(want)
                    }
                    let more = wanted.filter { shape.object(named: $0) == nil }
                    // A referenced object the user may not describe (a real org answers 404) is
                    // left out with a warning: its lookups keep their ids, the pull goes on.
                    let referenced = try await describe(more, client: client, skippingMissing: true)
                    for object in referenced.objects { shape.add(object) }
                }
                return shape
            } catch let error as OrgClientError {
                throw CLIError("the org's describe failed: \(error.message)")
            }
        }
    }

    /// The describes of `names`, fetched concurrently. With `skippingMissing`, an object the org
    /// answers 404 for is left out and named in a warning on standard error.
    private static func describe(
        _ names: [String],
        client: OrgDescriber,
        skippingMissing: Bool = false
    ) async throws -> OrgShape {
        let objects = try await withThrowingTaskGroup(of: (Int, ObjectShape?).self) { group in
            for (index, name) in names.enumerated() {
                group.addTask {
                    let json: RawJSON
                    do {
                        json = try await client.describeJSON(name)
                    } catch let error as OrgClientError where skippingMissing && error.code == .notFound {
                        StandardStreams.writeError(
                            "warning: the org answered 404 to the describe of \(name) (the user may not see it): it is left out of the schema; lookups to it keep their ids\n"
                        )
                        return (index, nil)
                    }
                    return (index, try decode(Data(json.text.utf8), source: "describe of \(name)"))
                }
            }
            var results: [(Int, ObjectShape?)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.compactMap(\.1)
        }
        return OrgShape(objects: objects)
    }

    private static func decode(_ data: Data, source: String) throws -> ObjectShape {
        do {
            return try ObjectShape(describeJSON: data, source: source)
        } catch let error as OrgShapeError {
            throw CLIError(error.message)
        }
    }

    private static func namespaceAlternative(_ name: String, among candidates: [String]) -> String? {
        OrgChecker.namespaceAlternative(name, among: candidates)
    }
}
