import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

struct SyncStateTests {
    @Test func createdDocumentHasMobileSyncShape() throws {
        let temporary = try TestFixtures.store([])
        defer { temporary.remove() }
        let state = try temporary.store.write { writer in
            try writer.createSyncState(
                kind: .syncDown,
                name: "syncDownContacts",
                targetJSON: #"{"type":"soql","query":"SELECT Id FROM Contact","idFieldName":"Id"}"#,
                optionsJSON: #"{"mergeMode":"OVERWRITE"}"#,
                soupName: "contacts"
            )
        }
        #expect(state.id == 1 && state.status == .new && state.totalSize == -1 && state.maxTimeStamp == -1)
        let rows = try SystemSQLite.lines(
            temporary.path,
            "SELECT json_remove(soup, '$._soupLastModifiedDate') FROM TABLE_1; "
                + "SELECT path || ':' || columnName || ':' || columnType FROM soup_index_map;"
        )
        #expect(
            rows == [
                #"{"type":"syncDown","name":"syncDownContacts","target":{"type":"soql","query":"SELECT Id FROM Contact","idFieldName":"Id"},"options":{"mergeMode":"OVERWRITE"},"soupName":"contacts","status":"NEW","progress":0,"totalSize":-1,"maxTimeStamp":-1,"startTime":0,"endTime":0,"error":"","_soupEntryId":1}"#,
                "type:json_extract(soup, '$.type'):json1",
                "name:json_extract(soup, '$.name'):json1",
                "status:json_extract(soup, '$.status'):json1",
            ]
        )
    }

    @Test func updateListGetAndDelete() throws {
        let temporary = try TestFixtures.store([])
        defer { temporary.remove() }
        let store = temporary.store
        let first = try store.write { writer in
            try writer.createSyncState(
                kind: .syncUp,
                name: nil,
                targetJSON: "{}",
                optionsJSON: #"{"mergeMode":"LEAVE_IF_CHANGED"}"#,
                soupName: "a"
            )
        }
        var second = try store.write { writer in
            try writer.createSyncState(
                kind: .syncDown,
                name: "down",
                targetJSON: "{}",
                optionsJSON: "{}",
                soupName: "b",
                extraJSON: #"{"syncrunCheckpoint":{"page":2}}"#
            )
        }
        #expect(first.name == nil)
        #expect(second.extraJSON == #"{"syncrunCheckpoint":{"page":2}}"#)
        second.status = .running
        second.startTime = 1000
        second.endTime = 2000
        second.progress = 50
        second.error = "x"
        _ = try store.write { try $0.updateSyncState(second) }
        let read = try #require(try store.read { try $0.syncState(named: "down") })
        #expect(read.status == .running && read.endTime == 2000 && read.startTime == 1000 && read.progress == 50)
        #expect(try store.read { try $0.syncStates().map(\.id) } == [first.id, second.id])
        #expect(throws: SoupStoreError.self) {
            try store.write { writer in
                try writer.createSyncState(
                    kind: .syncDown,
                    name: "down",
                    targetJSON: "{}",
                    optionsJSON: "{}",
                    soupName: "b"
                )
            }
        }
        #expect(throws: SoupStoreError.self) {
            try store.write { writer in
                try writer.createSyncState(
                    kind: .syncDown,
                    name: "x",
                    targetJSON: "[1]",
                    optionsJSON: "{}",
                    soupName: "b"
                )
            }
        }
        #expect(try store.write { try $0.deleteSyncState(id: first.id) })
        #expect(try store.read { try $0.syncState(id: first.id) } == nil)
    }
}
