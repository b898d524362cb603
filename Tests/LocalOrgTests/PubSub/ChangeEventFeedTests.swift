import Avro
import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// The local org's change events: one per transaction, object and change type, with every record
/// id, Avro-encoded in the topic's schema, kept for replay.
@Suite struct ChangeEventFeedTests {
    /// An event read back: its header and field values, decoded with the schema `GetSchema` serves.
    struct Decoded {
        var changeType: String
        var entityName: String
        var recordIds: [String]
        var changedFields: [String]
        var nulledFields: [String]
        var fields: [String: AvroValue]
    }

    private func decode(_ event: ChangeEventFeed.Event, _ feed: ChangeEventFeed) throws -> Decoded {
        let schema = try AvroSchema(jsonText: try #require(try feed.schemaJSON(id: event.schemaID)))
        let value = try AvroDecoder.decode(event.payload, as: schema)
        let header = try #require(value[field: "ChangeEventHeader"])
        let names = try #require(schema.record()).fields.map(\.name)
        return Decoded(
            changeType: try #require(header[field: "changeType"]?.stringValue),
            entityName: try #require(header[field: "entityName"]?.stringValue),
            recordIds: (header[field: "recordIds"]?.arrayValue ?? []).compactMap(\.stringValue),
            changedFields: Self.expand(header[field: "changedFields"], names),
            nulledFields: Self.expand(header[field: "nulledFields"], names),
            fields: (value.recordValue ?? [:]).filter { !$0.value.isNull && $0.key != "ChangeEventHeader" }
                .mapValues(\.unwrapped)
        )
    }

    /// The field names a bitmap list names (bit i = the event record's field i).
    static func expand(_ bitmaps: AvroValue?, _ names: [String]) -> [String] {
        var result: [String] = []
        for bitmap in bitmaps?.arrayValue?.compactMap(\.stringValue) ?? [] where bitmap.hasPrefix("0x") {
            let hex = Array(bitmap.dropFirst(2))
            for (position, digit) in hex.reversed().enumerated() {
                let nibble = Int(String(digit), radix: 16) ?? 0
                for bit in 0..<4 where nibble & (1 << bit) != 0 {
                    let index = position * 4 + bit
                    if index < names.count { result.append(names[index]) }
                }
            }
        }
        return result.sorted()
    }

    private func allEvents(_ feed: ChangeEventFeed, topic: String = ChangeEventFeed.allChangesTopic) throws
        -> [ChangeEventFeed.Event]
    {
        let topic = try #require(feed.topic(named: topic))
        return try feed.events(of: topic, after: feed.position(.earliest), limit: 1000)
    }

    @Test func createsUpdatesAndDeletesBecomeOneEventPerTransactionAndObject() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgDatabase(directory: directory)
            let feed = org.changeEvents
            #expect(try allEvents(feed).isEmpty)
            let ids = try org.write { writer in
                try (1...3).map {
                    try writer.create("Account", fields: ["Name": .string("Acme \($0)"), "Industry": "Energy"])
                }
            }
            try org.write { writer in
                for id in ids.prefix(2) {
                    try writer.update("Account", id: id, fields: ["Industry": .null, "Phone": "555"])
                }
            }
            try org.write { try $0.delete("Account", id: ids[2]) }
            let events = try allEvents(feed).map { try decode($0, feed) }
            #expect(events.map(\.changeType) == ["CREATE", "UPDATE", "DELETE"])
            #expect(events.allSatisfy { $0.entityName == "Account" })
            #expect(events[0].recordIds == ids)
            #expect(events[0].fields["Industry"] == .string("Energy"))
            #expect(events[0].fields["Name"] == nil, "the three names differ: none is written")
            #expect(events[1].recordIds == Array(ids.prefix(2)))
            #expect(events[1].changedFields.contains("Industry"))
            #expect(events[1].changedFields.contains("Phone"))
            #expect(events[1].changedFields.contains("LastModifiedDate"))
            #expect(!events[1].changedFields.contains("Name"))
            #expect(events[1].nulledFields == ["Industry"])
            #expect(events[1].fields["Phone"] == .string("555"))
            #expect(events[2].recordIds == [ids[2]])
            // The object's own topic carries the same events; another object's carries none.
            #expect(try allEvents(feed, topic: "/data/AccountChangeEvent").count == 3)
            #expect(try allEvents(feed, topic: "/data/ContactChangeEvent").isEmpty)
        }
    }

    @Test func aReleasedOrgIsFreedWithItsFeedAndChangeCapture() async throws {
        // The change capture lives as long as the database's pool; holding the feed (which holds
        // the pool) it kept every org, its connections and its open files, alive for good.
        try await TemporaryDirectory.with { directory in
            weak var released: OrgDatabase?
            weak var releasedFeed: ChangeEventFeed?
            do {
                let org = try OrgDatabase(directory: directory)
                released = org
                releasedFeed = org.changeEvents
                _ = try org.write { try $0.create("Account", fields: ["Name": "Acme"]) }
                #expect(try allEvents(org.changeEvents).count == 1)
            }
            #expect(released == nil)
            #expect(releasedFeed == nil)
        }
    }

    @Test func aCascadeDeleteIsAnEventPerObjectAndARollbackIsNone() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgDatabase(directory: directory)
            let account = try org.write { try $0.create("Account", fields: ["Name": "Parent"]) }
            var contacts: [String] = []
            for index in 1...2 {
                let fields: OrgJSONObject = ["LastName": .string("C\(index)"), "AccountId": .string(account)]
                contacts.append(try org.write { try $0.create("Contact", fields: fields) })
            }
            let start = try org.changeEvents.position(.latest)
            // A write that fails after an update rolls the update back: no event for it.
            #expect(throws: OrgError.self) {
                try org.write { writer in
                    try writer.update("Account", id: account, fields: ["Name": "Renamed"])
                    // A second create with a field Account does not have fails the transaction.
                    try writer.create("Account", fields: ["Name": "X", "NoSuchField__c": "y"])
                }
            }
            try org.write { try $0.delete("Account", id: account) }
            let topic = try #require(org.changeEvents.topic(named: ChangeEventFeed.allChangesTopic))
            let events = try org.changeEvents.events(of: topic, after: start, limit: 100).map {
                try decode($0, org.changeEvents)
            }
            #expect(events.count == 2)
            #expect(Set(events.map(\.entityName)) == ["Account", "Contact"])
            #expect(events.allSatisfy { $0.changeType == "DELETE" })
            #expect(events.first { $0.entityName == "Contact" }?.recordIds.sorted() == contacts.sorted())
        }
    }

    @Test func replayPositionsAndRetention() async throws {
        try await TemporaryDirectory.with { directory in
            let clock = TestClock(OrgFixtures.fixedNow)
            let org = try OrgDatabase(
                directory: directory,
                configuration: OrgDatabase.Configuration(now: { clock.now }, changeEventRetention: 3600)
            )
            let feed = org.changeEvents
            try org.write { _ = try $0.create("Account", fields: ["Name": "Old"]) }
            let topic = try #require(feed.topic(named: "/data/AccountChangeEvent"))
            let old = try #require(feed.events(of: topic, after: 0, limit: 10).first)
            #expect(old.replayID.count == 16)
            #expect(try feed.position(.after(old.replayID)) == old.sequence)
            #expect(throws: ChangeEventFeed.StartError.unknownReplayID) {
                try feed.position(.after(Array(repeating: 7, count: 16)))
            }
            clock.advance(by: 7200)
            try org.write { _ = try $0.create("Account", fields: ["Name": "New"]) }
            // The old event is past retention: what followed the one before it is gone.
            let remaining = try feed.events(of: topic, after: 0, limit: 10)
            #expect(remaining.count == 1)
            #expect(try feed.position(.after(old.replayID)) == old.sequence)
            let before = ChangeEventFeedTests.replayID(before: old.replayID)
            #expect(throws: ChangeEventFeed.StartError.expiredReplayID) { try feed.position(.after(before)) }
            #expect(feed.topic(named: "/data/NoSuchChangeEvent") == nil)
            // Reopening keeps the log and its replay ids.
            let reopened = try OrgDatabase(directory: directory)
            #expect(try reopened.changeEvents.position(.after(remaining[0].replayID)) == remaining[0].sequence)
        }
    }

    @Test func objectsLeftOutOfChangeDataCaptureHaveNoTopicAndNoEvents() async throws {
        try await TemporaryDirectory.with { directory in
            var schema = OrgSchema.standard
            let file = directory.appendingPathComponent("schema.json")
            try Data(#"{"objects": [{"name": "Contact", "changeDataCapture": false}]}"#.utf8).write(to: file)
            try schema.merge(contentsOf: file)
            let org = try OrgDatabase(directory: directory.appendingPathComponent("org"), schema: schema)
            #expect(org.changeEvents.topic(named: "/data/ContactChangeEvent") == nil)
            #expect(org.changeEvents.topic(named: "/data/AccountChangeEvent") != nil)
            try org.write { _ = try $0.create("Contact", fields: ["LastName": "Quiet"]) }
            #expect(try allEvents(org.changeEvents).isEmpty)
        }
    }

    /// The replay id of the event before `replayID`'s (same epoch, sequence - 1).
    static func replayID(before replayID: [UInt8]) -> [UInt8] {
        var bytes = replayID
        var index = bytes.count - 1
        while index >= bytes.count - 8 {
            if bytes[index] > 0 {
                bytes[index] -= 1
                break
            }
            bytes[index] = 0xFF
            index -= 1
        }
        return bytes
    }
}
