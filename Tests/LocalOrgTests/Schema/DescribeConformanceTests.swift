import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// The local org's describes compared key by key with describes recorded from real orgs
/// (`Tests/Fixtures/describes`, sources in its README). The only differences allowed are the
/// ones `docs/local-org.md` lists under "Describe differences from a real org", with the reason;
/// ``DescribeConformanceTests/allowed`` is that list and the test checks the document names each.
struct DescribeConformanceTests {
    static let fixtures = RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/describes")

    /// The served standard objects with a recorded describe.
    static let recorded = ["Account", "Contact", "Lead", "Opportunity", "Case"]

    /// Keys allowed to differ, by where they occur (`object`, `field`, `global`), each with a
    /// reason in `docs/local-org.md`.
    static let allowed: [String: Set<String>] = [
        // The resources listed are the ones the local org serves; the values carry the API version.
        "object": [
            "urls", "recordTypeInfos", "supportedScopes", "sobjectDescribeOption", "associateEntityType",
            "associateParentEntity",
        ],
        // Picklist values are configured per org.
        "field": ["picklistValues"],
        "global": ["urls", "keyPrefix"],
    ]

    /// Fields the local org serves that the recording user could not see (field-level security).
    static let hiddenFromRecording: Set<String> = ["Contact.HasOptedOutOfEmail"]

    /// Global entries whose values depend on the user's permissions (`Organization.updateable`
    /// needs "Customize Application").
    static let permissionDependentGlobal: Set<String> = ["Organization.updateable"]

    private func fixture(_ name: String) throws -> OrgJSONObject {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".json"))
        return try #require(try OrgJSONValue.decode(data).objectValue)
    }

    private func served(_ name: String) throws -> OrgJSONObject {
        let data = try #require(OrgSchema.standard.describeData(name))
        return try #require(try OrgJSONValue.decode(data).objectValue)
    }

    /// The differences between a served and a recorded JSON object, key by key.
    private func differences(
        _ ours: OrgJSONObject,
        _ real: OrgJSONObject,
        allowed: Set<String>,
        at place: String
    ) -> [String] {
        var found: [String] = []
        for (key, value) in real where !allowed.contains(key) {
            guard let mine = ours[key] else {
                found.append("\(place): key '\(key)' missing (real: \(value))")
                continue
            }
            if mine != value { found.append("\(place).\(key): served \(mine), real \(value)") }
        }
        for (key, _) in ours where real[key] == nil && !allowed.contains(key) {
            found.append("\(place): key '\(key)' not in the real describe")
        }
        return found
    }

    @Test(arguments: recorded)
    func objectDescribeMatchesTheRecordedOne(_ name: String) throws {
        let ours = try served(name)
        let real = try fixture(name)
        var found = differences(
            ours,
            real,
            allowed: Self.allowed["object", default: []].union(["fields", "childRelationships"]),
            at: name
        )
        // Fields: every field the local org serves, compared with the recorded one.
        let realFields = Dictionary(
            (real["fields"]?.arrayValue ?? []).compactMap { field in
                field.objectValue.flatMap { object in object["name"]?.stringValue.map { ($0, object) } }
            },
            uniquingKeysWith: { first, _ in first }
        )
        let ourFields = try #require(ours["fields"]?.arrayValue).compactMap(\.objectValue)
        #expect(!ourFields.isEmpty)
        for field in ourFields {
            let fieldName = field["name"]?.stringValue ?? "?"
            guard let recorded = realFields[fieldName] else {
                if !Self.hiddenFromRecording.contains("\(name).\(fieldName)") {
                    found.append("\(name).\(fieldName): not in the real describe")
                }
                continue
            }
            found += differences(
                field,
                recorded,
                allowed: Self.allowed["field", default: []],
                at: "\(name).\(fieldName)"
            )
        }
        // Child relationships: each the local org serves is recorded as it is served, and each
        // recorded one between served objects and fields is served.
        let servedNames = Set(OrgSchema.standard.objects.map(\.name))
        func key(_ relationship: OrgJSONObject) -> String {
            "\(relationship["childSObject"]?.stringValue ?? "").\(relationship["field"]?.stringValue ?? "")"
        }
        let realChildren = (real["childRelationships"]?.arrayValue ?? []).compactMap(\.objectValue)
        let ourChildren = try #require(ours["childRelationships"]?.arrayValue).compactMap(\.objectValue)
        for child in ourChildren {
            guard let recorded = realChildren.first(where: { key($0) == key(child) }) else {
                found.append("\(name) child \(key(child)): not in the real describe")
                continue
            }
            found += differences(child, recorded, allowed: [], at: "\(name) child \(key(child))")
        }
        for child in realChildren {
            guard let childObject = child["childSObject"]?.stringValue, servedNames.contains(childObject),
                let field = child["field"]?.stringValue,
                OrgSchema.standard.object(named: childObject)?.field(named: field) != nil
            else { continue }
            if !ourChildren.contains(where: { key($0) == key(child) }) {
                found.append("\(name) child \(key(child)): recorded but not served")
            }
        }
        #expect(found.isEmpty, "\(found.count) differences:\n\(found.joined(separator: "\n"))")
    }

    @Test func describeGlobalEntriesMatchTheRecordedOnes() throws {
        let data = try #require(OrgSchema.standard.describeGlobalData())
        let ours = try #require(try OrgJSONValue.decode(data).objectValue)
        let real = try fixture("describe-global")
        let realEntries = try #require(real["sobjects"]?.arrayValue).compactMap(\.objectValue)
        let ourEntries = try #require(ours["sobjects"]?.arrayValue).compactMap(\.objectValue)
        var found = differences(ours, real, allowed: ["sobjects"], at: "describe global")
        var compared = 0
        for entry in ourEntries {
            let name = entry["name"]?.stringValue ?? "?"
            guard let recorded = realEntries.first(where: { $0["name"]?.stringValue == name }) else { continue }
            compared += 1
            let allowed = Self.allowed["global", default: []].union(
                Self.permissionDependentGlobal.compactMap { item in
                    item.hasPrefix(name + ".") ? String(item.dropFirst(name.count + 1)) : nil
                }
            )
            found += differences(entry, recorded, allowed: allowed, at: "global \(name)")
        }
        #expect(compared >= 7)
        #expect(found.isEmpty, "\(found.count) differences:\n\(found.joined(separator: "\n"))")
    }

    /// `docs/local-org.md` names every allowed difference (the list and the document kept in sync).
    @Test func theDocumentListsEachAllowedDifference() throws {
        let document = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/local-org.md"),
            encoding: .utf8
        )
        let section = try #require(document.components(separatedBy: "### Describe differences from a real org").last)
        let names =
            Self.allowed.values.flatMap { $0 } + Array(Self.hiddenFromRecording) + Array(Self.permissionDependentGlobal)
        for name in names {
            #expect(section.contains("`\(name)`"), "docs/local-org.md does not list `\(name)`")
        }
    }
}
