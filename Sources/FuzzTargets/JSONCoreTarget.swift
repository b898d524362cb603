import JSONCore

/// JSONCore's reader: the document is read, validated and skipped; a value read is written back
/// and read again.
enum JSONCoreTarget {
    static func run(_ bytes: [UInt8]) async {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer)
            guard let value = try? reader.readDocument() else { return }
            var validator = JSONReader(bytes: buffer)
            try? validator.validateDocument()
            var skipper = JSONReader(bytes: buffer)
            try? skipper.skipValue()
            let text = Array(value.jsonText(pretty: true).utf8)
            text.withUnsafeBufferPointer { written in
                var again = JSONReader(bytes: written)
                _ = try? again.readDocument()
            }
        }
    }
}
