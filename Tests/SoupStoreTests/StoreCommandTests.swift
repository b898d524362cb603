import Foundation
import SyncrunTestSupport
import Testing

/// `syncrun store …` run as a process: output, errors and exit codes.
struct StoreCommandTests {
    private func syncrun(_ arguments: [String], stdin: String? = nil) throws -> SyncrunProcess.Result {
        try SyncrunProcess.run(arguments, stdin: stdin)
    }

    /// A store initialised from MobileSyncExplorer's userstore.json.
    private func initialisedStore() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("store.db").path
        let config = RepositoryPaths.sdkFixtures.appendingPathComponent("explorer-userstore.json").path
        let result = try syncrun(["store", "init", "--store-config", config, "--store", store])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "created contacts\nstore: \(store)\n")
        return (directory, store)
    }

    @Test func importExportRoundTrip() throws {
        let (directory, store) = try initialisedStore()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let lines = """
            {"Id":"003A","FirstName":"Ann","LastName":"Smith","__local__":false}

            {"Id":"003B","FirstName":"Bob","LastName":"Jones","__local__":true,"__locally_updated__":true}
            """
        let imported = try syncrun(["store", "import", "contacts", "-", "--store", store], stdin: lines)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "contacts: 2 inserted, 0 updated\n")
        let again = try syncrun(
            ["store", "import", "contacts", "-", "--store", store, "--external-id", "Id", "--format", "json"],
            stdin: #"[{"Id":"003B","LastName":"Jones 2"}]"#
        )
        #expect(again.stdout == "{\n  \"inserted\" : 0,\n  \"soup\" : \"contacts\",\n  \"updated\" : 1\n}\n")

        let exported = try syncrun(["store", "export", "contacts", "--store", store])
        #expect(exported.status == 0)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [[String: Any]]
        )
        #expect(entries.map { $0["_soupEntryId"] as? Int } == [1, 2])
        #expect(entries.allSatisfy { $0["_soupLastModifiedDate"] is NSNumber })
        #expect(entries[1]["LastName"] as? String == "Jones 2")
        let jsonl = try syncrun(["store", "export", "contacts", "--store", store, "--format", "jsonl"])
        #expect(jsonl.stdout.split(separator: "\n").count == 2)

        // Re-importing the export into a fresh store keeps the ids.
        let (other, otherStore) = try initialisedStore()
        defer { try? FileManager.default.removeItem(at: other.url) }
        let restored = try syncrun(["store", "import", "contacts", "-", "--store", otherStore], stdin: exported.stdout)
        #expect(restored.stdout == "contacts: 2 inserted, 0 updated\n")
        let soups = try syncrun(["store", "soups", "--store", otherStore])
        #expect(
            soups.stdout
                == "contacts (TABLE_1): 2 entries; indexes Id:string, FirstName:full_text, LastName:full_text, "
                + "__local__:string, __locally_created__:string, __locally_updated__:string, __locally_deleted__:string\n"
        )
    }

    @Test func badImportsChangeNothing() throws {
        let (directory, store) = try initialisedStore()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let file = directory.url.appendingPathComponent("bad.jsonl").path
        try Data("{\"Id\":\"1\"}\n{\"Id\":\"2\"}\n{\"Id\": \"3\",}\n".utf8).write(to: URL(fileURLWithPath: file))
        let cases: [([String], String?, Int32, String)] = [
            (
                ["store", "import", "contacts", file], nil, 1,
                "error: \(file):3:12: malformed JSON at line 3 column 12: "
                    + "trailing comma before '}'; remove the last ','\n"
            ),
            (
                ["store", "import", "contacts", "-"], #"[{"Id":"1"}, [2]]"#, 1,
                "error: entry 2 is not an object (found array); every entry must be a JSON object\n"
            ),
            (
                // An unknown soup is a name typed wrong: a usage error (issue 31), before anything is read.
                ["store", "import", "nope", "-"], "[]", 2,
                "error: no soup named 'nope' in '\(store)'; 'syncrun store soups' lists them\n"
            ),
            (
                ["store", "import", "contacts", "-", "--external-id", "Id"], #"[{"Id":"1"},{"Name":"x"}]"#, 1,
                "error: entry 2 has no value at external id path 'Id'; every entry upserted by 'Id' needs a non-null value there\n"
            ),
            (
                ["store", "import", "contacts", directory.url.appendingPathComponent("missing.json").path], nil, 2,
                "error: cannot read '\(directory.url.appendingPathComponent("missing.json").path)'; check the path\n"
            ),
        ]
        for (arguments, stdin, status, message) in cases {
            let result = try syncrun(arguments + ["--store", store], stdin: stdin)
            #expect(result.status == status)
            #expect(result.stderr == message)
        }
        #expect(try syncrun(["store", "export", "contacts", "--store", store]).stdout == "[]\n")
    }

    @Test func queryPrintsRowsAndRejectsInjection() throws {
        let (directory, store) = try initialisedStore()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        _ = try syncrun(
            ["store", "import", "contacts", "-", "--store", store],
            stdin:
                #"[{"Id":"003A","LastName":"Smith","__local__":true},{"Id":"003B","LastName":"O'Brien","__local__":false}]"#
        )
        let rows = try syncrun([
            "store", "query",
            "select {contacts:Id}, {contacts:_soupEntryId} from {contacts} where {contacts:__local__} = ?",
            "--arg", "true", "--store", store,
        ])
        #expect(rows.status == 0, "\(rows.stderr)")
        #expect(rows.stdout == "[\"003A\",1]\n")
        let quoted = try syncrun([
            "store", "query", "select {contacts:Id} from {contacts} where {contacts:LastName} = ?", "--arg", "O'Brien",
            "--format", "json", "--store", store,
        ])
        #expect(quoted.stdout == "[\n[\"003B\"]\n]\n")
        let injected = try syncrun([
            "store", "query", "select {contacts:Id'); DROP TABLE soup_attrs; --} from {contacts}", "--store", store,
        ])
        #expect(injected.status == 1)
        #expect(
            injected.stderr
                == "error: invalid path 'Id'); DROP TABLE soup_attrs; --': a path is one or more names of letters, "
                + "digits and '_', separated by '.' (for example 'Account.Name')\n"
        )
        let write = try syncrun(["store", "query", "delete from {contacts}", "--store", store])
        #expect(write.status == 1)
        #expect(write.stderr == "error: invalid Smart SQL: only SELECT (or WITH … SELECT) queries are allowed\n")
    }

    @Test func markSetsFlagsAndLocalIDs() throws {
        let (directory, store) = try initialisedStore()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        _ = try syncrun(
            ["store", "import", "contacts", "-", "--store", store],
            stdin: #"[{"Id":"003A","LastName":"Smith"},{"LastName":"New"},{"Id":"003C","LastName":"Other"}]"#
        )
        let created = try syncrun([
            "store", "mark", "contacts", "--created", "--where", "LastName=New", "--store", store,
        ])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "contacts: 1 entry marked created\n")
        let updated = try syncrun(["store", "mark", "contacts", "--updated", "--where", "Id=003A", "--store", store])
        #expect(updated.stdout == "contacts: 1 entry marked updated\n")
        let dirty = try syncrun([
            "store", "query",
            "select {contacts:Id}, {contacts:__locally_created__}, {contacts:__locally_updated__} from {contacts} "
                + "where {contacts:__local__} = 'true' order by {contacts:_soupEntryId}",
            "--store", store,
        ])
        let lines = dirty.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == #"["003A",null,"true"]"#)
        #expect(lines.last?.hasPrefix(#"["local_"#) == true)
        #expect(lines.last?.hasSuffix(#"","true",null]"#) == true)
        #expect(lines.last?.count == #"["local_","true",null]"#.count + 36)

        let usage = try syncrun(["store", "mark", "contacts", "--store", store])
        #expect(usage.status == 2)
        let badWhere = try syncrun(["store", "mark", "contacts", "--deleted", "--where", "Id", "--store", store])
        #expect(badWhere.status == 2)
        let badPath = try syncrun(["store", "mark", "contacts", "--deleted", "--where", "a b=1", "--store", store])
        #expect(badPath.status == 1)
        #expect(badPath.stderr.hasPrefix("error: invalid path 'a b'"))
    }

    @Test func missingStoreIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let result = try syncrun(["store", "soups", "--config", directory.url.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: store '\(directory.url.path)/.syncrun/store.db' does not exist; create it with "
                + "'syncrun store init' or pass --store FILE\n"
        )
    }
}
