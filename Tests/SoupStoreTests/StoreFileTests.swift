import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

struct StoreFileTests {
    @Test func newStoreFileIsPrivate() throws {
        let directory = try TemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let path = directory.url.appendingPathComponent("nested/.syncrun/store.db").path
        let store = try SoupStore(path: path)
        _ = try store.write { try $0.registerSoup(TestFixtures.accounts) }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        #expect((wal[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let parent = try FileManager.default.attributesOfItem(
            atPath: directory.url.appendingPathComponent("nested/.syncrun").path
        )
        #expect((parent[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func encryptedLookingFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let path = directory.url.appendingPathComponent("encrypted.db").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: URL(fileURLWithPath: path))
        do {
            _ = try SoupStore(path: path)
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.code == .encryptedStore)
            #expect(
                error.message.hasPrefix(
                    "'\(path)' is not a plain SQLite file; it is most likely an encrypted (SQLCipher) SmartStore"
                )
            )
        }
    }

    @Test func otherDatabasesAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let path = directory.url.appendingPathComponent("other.db").path
        _ = try SystemSQLite.lines(path, "CREATE TABLE t (x)")
        #expect(throws: SoupStoreError.self) { _ = try SoupStore(path: path) }
    }

    @Test func foreignLongOperationsAreRefused() throws {
        let temporary = try TestFixtures.store()
        let path = temporary.path
        defer { temporary.remove() }
        _ = try SystemSQLite.lines(
            path,
            "INSERT INTO long_operations_status (type, details, status) VALUES ('AlterSoup', '{}', '2')"
        )
        do {
            _ = try SoupStore(path: path)
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.code == .foreignOperation)
        }
    }

    @Test func readersRunWhileAWriteIsOpen() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        _ = try store.write { try $0.upsert(entries: TestFixtures.accountRecords(0..<3), into: "accounts") }
        let seen = try store.write { writer -> Int in
            _ = try writer.upsert(entries: TestFixtures.accountRecords(3..<6), into: "accounts")
            // A reader on another thread runs now (WAL) and sees the last committed state.
            let result = ReadResult()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                result.count = (try? store.read { try $0.entryCount(in: "accounts") }) ?? -1
                done.signal()
            }
            done.wait()
            return result.count
        }
        #expect(seen == 3)
        #expect(try store.read { try $0.entryCount(in: "accounts") } == 6)
    }
}

private final class ReadResult: @unchecked Sendable {
    // Written by one thread before a semaphore signal, read after the wait: no overlap.
    var count = 0
}
