import Foundation
import OrgClient
import SyncrunTestSupport
import Testing

@testable import Migration

/// The files of a `dir:` set: RFC 4180 written and read back as they were, the same rows in any
/// order give the same bytes, private atomic writes that skip unchanged files, errors at file:line.
struct DirectorySetTests {
    private static let header = ["Id", "Name", "Description", "Amount"]
    private static let rows: [[String?]] = [
        ["001B", "Comma, Inc.", "say \"hi\"", "12.5"],
        ["001A", "Ünïcödé 東京 🚀", "two\r\nlines\nand a lone\rreturn", nil],
        ["001C", "", "trailing space ", "0"],
    ]

    @Test func quotesCommasLineBreaksAndUnicodeRoundTripAndNullStaysApartFromEmpty() throws {
        let data = DirectorySet.csv(header: Self.header, rows: Self.rows)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.hasPrefix("\"Id\",\"Name\",\"Description\",\"Amount\"\r\n"))
        #expect(text.contains("\"say \"\"hi\"\"\""))
        #expect(text.contains(",\"\",\"trailing space \",\"0\"\r\n"))  // "" quoted, not null
        #expect(text.contains("return\",\r\n"))  // null: an empty unquoted field
        let table = try DirectorySet.table(data, file: "Account.csv")
        #expect(table.header == Self.header)
        #expect(table.rows.map(\.values) == Self.rows)
        // Lines as a text editor counts them: the second row holds three line breaks.
        #expect(table.rows.map(\.line) == [2, 3, 6])
    }

    @Test func theSameRowsInAnyOrderGiveTheSameBytes() {
        let ordered = DirectorySet.csv(header: Self.header, rows: DirectorySet.ordered(Self.rows))
        let shuffled = DirectorySet.csv(header: Self.header, rows: DirectorySet.ordered(Self.rows.reversed()))
        #expect(ordered == shuffled)
        #expect(DirectorySet.ordered(Self.rows).map { $0[0] } == ["001A", "001B", "001C"])
    }

    @Test func filesAreWrittenPrivateAndAnUnchangedFileIsNotWrittenAgain() throws {
        let scratch = try TemporaryDirectory(prefix: "dir-set")
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let set = DirectorySet(path: scratch.url.appendingPathComponent("set").path)
        let data = DirectorySet.csv(header: Self.header, rows: Self.rows)
        #expect(try set.write(data, toFileNamed: "Account.csv"))
        #expect(try !set.write(data, toFileNamed: "Account.csv"))
        let file = try FileManager.default.attributesOfItem(atPath: set.file(of: "Account"))
        let folder = try FileManager.default.attributesOfItem(atPath: set.path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: set.path) == ["Account.csv"])  // no temporary left
        #expect(try set.read("Account", syncUp: nil).rows.map(\.values) == Self.rows)
        #expect(set.orgID.hasPrefix("dir-") && set.orgID.count == 15)
        #expect(DirectorySet(path: set.path + "/.").orgID == set.orgID)
    }

    @Test func malformedFilesAreReportedAtFileAndLine() throws {
        func message(_ text: String) -> String {
            do {
                _ = try DirectorySet.table(Data(text.utf8), file: "set/Contact.csv")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        // A quoted line break first, so the record count and the line count differ.
        let columns = message("Id,Name\r\n1,\"a\nb\"\r\n2,x,extra\r\n")
        #expect(columns.hasPrefix("set/Contact.csv:4: 3 fields, the header has 2"), "\(columns)")
        let quote = message("Id,Name\n1,ok\n2,\"bad\"quote\n")
        #expect(quote.hasPrefix("set/Contact.csv:3: malformed CSV: text after the closing quote"), "\(quote)")
        let unclosed = message("Id,Name\n1,ok\n2,\"never closed\n3,x\n")
        #expect(
            unclosed.hasPrefix("set/Contact.csv:3: malformed CSV: the CSV ends inside a quoted field"),
            "\(unclosed)"
        )
        #expect(message("").hasPrefix("set/Contact.csv:1: no header line"))
        #expect(message("Id,Name,id\n").hasPrefix("set/Contact.csv:1: the column 'id' is named twice"))
    }

    @Test func aMissingFileIsNamedWithTheObjectAndSyncUp() throws {
        let set = DirectorySet(path: "/nonexistent/set")
        var text = "no error"
        do {
            _ = try set.read("Opportunity", syncUp: "opportunitiesUp")
        } catch {
            text = "\(error)"
        }
        #expect(text.contains("/nonexistent/set/Opportunity.csv"), "\(text)")
        #expect(text.contains("sync up 'opportunitiesUp'"), "\(text)")
    }

    @Test func fileNamesStayInsideTheFolderWhateverAnOrgNamesAnObject() throws {
        let scratch = try TemporaryDirectory(prefix: "dir-set")
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let set = DirectorySet(path: scratch.url.appendingPathComponent("set").path)
        for name in ["../Account.csv", "a/b.csv", ".hidden.csv", "Acc\u{1B}[2J.csv"] {
            var refused = false
            do { try set.write(Data("x".utf8), toFileNamed: name) } catch {
                refused = "\(error)".contains("cannot name")
            }
            #expect(refused, "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("Account.csv").path))
        var readRefused = false
        do { _ = try set.read("../../etc/passwd", syncUp: nil) } catch {
            readRefused = "\(error)".contains("cannot name")
        }
        #expect(readRefused)
    }

    @Test func cellsAreTypedByTheTargetsFieldTypesAndPathsNested() {
        let record = DirectorySet.record(
            header: [
                "Id", "IsActive__c", "Count__c", "Amount", "Score__c", "Name", "Account.Name", "Account.Owner.Alias",
            ],
            values: ["a01", "true", "42", "1.5", nil, "007", "Acme", "ann"],
            fieldTypes: ["isactive__c": "boolean", "count__c": "int", "amount": "currency", "score__c": "double"]
        )
        #expect(record["IsActive__c"] == .bool(true))
        #expect(record["Count__c"] == .integer(42))
        #expect(record["Amount"] == .number(1.5))
        #expect(record["Score__c"] == .null)
        #expect(record["Name"] == .string("007"))
        #expect(OrgValue.value(atPath: "Account.Name", in: record, ignoringCase: true) == .string("Acme"))
        #expect(OrgValue.value(atPath: "Account.Owner.Alias", in: record, ignoringCase: true) == .string("ann"))
    }
}
