import SyncConfig
import Testing

/// `options.mask` (masks `migrate` applies): decoded, kept in the persisted options, and each wrong
/// value reported where it is, with a suggestion.
struct FieldMaskConfigTests {
    private func load(_ options: String) throws -> LoadedConfig {
        try ConfigFixture.load([
            "usersyncs.json": """
            {"syncs": [
              {"syncName": "contactsUp", "syncType": "syncUp", "soupName": "contacts",
               "target": {"createFieldlist": ["LastName", "Email"]},
               "options": \(options)}
            ]}
            """
        ])
    }

    @Test func masksAreReadKeptInThePersistedOptionsAndSaidToBeForMigrateOnly() throws {
        let loaded = try load(
            #"{"mergeMode": "OVERWRITE", "mask": {"Email": "email", "LastName": "lastName", "Title": {"fixed": "Redacted"}, "Description": "null"}}"#
        )
        let sync = try #require(loaded.userSyncs?.syncs.first)
        #expect(
            sync.options.mask == [
                "Email": .email, "LastName": .lastName, "Title": .fixed("Redacted"), "Description": .null,
            ]
        )
        #expect(loaded.diagnostics.map(\.code) == [.maskForMigrateOnly])
        #expect(loaded.diagnostics.first?.severity == .warning)
        #expect(loaded.diagnostics.first?.path == "syncs[0].options.mask")
        let persisted = sync.normalizedOptionsJSON.jsonText()
        #expect(persisted.contains(#""mask":{"#))
        #expect(persisted.contains(#""Title":{"fixed":"Redacted"}"#))
        #expect(persisted.contains(#""Email":"email""#))
    }

    @Test func aMisspeltMaskIsAnErrorWithASuggestionAtItsPath() throws {
        let loaded = try load(#"{"mergeMode": "OVERWRITE", "mask": {"Email": "emails", "Phone": ["phone"]}}"#)
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.unknownMask, .unknownMask])
        let misspelt = try #require(errors.first { $0.path == "syncs[0].options.mask.Email" })
        #expect(misspelt.message.contains("unknown mask 'emails'; did you mean 'email'?"))
        #expect(misspelt.message.contains(#"{"fixed": "text"}"#))
        #expect(errors.contains { $0.path == "syncs[0].options.mask.Phone" })
        #expect(loaded.userSyncs?.syncs.isEmpty ?? true)
    }

    @Test func aFixedMaskNeedsItsText() throws {
        let loaded = try load(#"{"mergeMode": "OVERWRITE", "mask": {"Title": {"text": "x"}}}"#)
        #expect(loaded.diagnostics.contains { $0.code == .missingKey })
        #expect(loaded.diagnostics.contains { $0.path.hasPrefix("syncs[0].options.mask.Title") })
    }
}
