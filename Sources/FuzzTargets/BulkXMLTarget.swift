import Foundation
import LocalOrg

/// The local org's Bulk API 1.0 XML reader (`jobInfo` bodies and `sObjects` batches) and writer.
///
/// Checks, beyond "never crash": a document the reader takes, written out and read again, reads the
/// same (the writer's output is always readable, and reading then writing is stable after one
/// pass); escaped text never carries a raw `<` or `&`; nesting beyond the reader's bound is refused,
/// not recursed into.
enum BulkXMLTarget {
    static func run(_ bytes: [UInt8]) async {
        guard let element = try? BulkXMLReader.parse(Data(bytes)) else { return }
        let written = BulkXMLWriter.document(element)
        guard let again = try? BulkXMLReader.parse(written) else {
            preconditionFailure("the XML writer wrote a document its reader refuses")
        }
        precondition(BulkXMLWriter.document(again) == written, "reading the written XML changed it")
        precondition(depth(element) <= BulkXMLElement.maximumDepth, "the reader went past its nesting bound")
        let escaped = BulkXMLWriter.escaped(element.text)
        precondition(!escaped.contains("<") && !escaped.contains(">"), "escaped text holds a raw bracket")
    }

    private static func depth(_ element: BulkXMLElement) -> Int {
        1 + (element.children.map(depth).max() ?? 0)
    }
}
