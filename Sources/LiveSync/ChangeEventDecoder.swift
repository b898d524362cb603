import Avro

/// Reads a change event's Avro payload with its writer schema into a ``ChangeEvent``, its bitmap
/// fields expanded (``ChangeEventBitmap``).
public enum ChangeEventDecoder {
    /// Decodes `payload`, written with `schema`, as the event at `replayID`.
    ///
    /// - Throws: ``LiveSyncError`` (``LiveSyncError/Code/invalidEvent``) when the payload does not
    ///   decode, or has no `ChangeEventHeader` with an `entityName` and a known `changeType`.
    public static func decode(_ payload: [UInt8], schema: AvroSchema, replayID: [UInt8]) throws -> ChangeEvent {
        let value: AvroValue
        do {
            value = try AvroDecoder.decode(payload, as: schema)
        } catch {
            throw LiveSyncError(.invalidEvent, "a change event does not decode with its schema: \(error)")
        }
        guard let record = schema.record(), let header = value[field: "ChangeEventHeader"],
            let entity = header[field: "entityName"]?.stringValue,
            let typeName = header[field: "changeType"]?.stringValue,
            let changeType = ChangeEvent.ChangeType(rawValue: typeName)
        else {
            throw LiveSyncError(
                .invalidEvent,
                "a change event has no ChangeEventHeader with entityName and a known changeType; "
                    + "is the topic a Change Data Capture channel (/data/{Object}ChangeEvent)?"
            )
        }
        func strings(_ name: String) -> [String] {
            header[field: name]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        return ChangeEvent(
            entity: entity,
            changeType: changeType,
            recordIDs: strings("recordIds"),
            changedFields: ChangeEventBitmap.fieldNames(strings("changedFields"), in: record, schema: schema),
            nulledFields: ChangeEventBitmap.fieldNames(strings("nulledFields"), in: record, schema: schema),
            diffFields: ChangeEventBitmap.fieldNames(strings("diffFields"), in: record, schema: schema),
            commitTimestamp: header[field: "commitTimestamp"]?.integerValue ?? 0,
            transactionKey: header[field: "transactionKey"]?.stringValue ?? "",
            sequenceNumber: Int(header[field: "sequenceNumber"]?.integerValue ?? 0),
            replayID: replayID
        )
    }
}
