/// The record-ID space of one local org: the characters every ID it creates shares after the key
/// prefix, so two orgs never hand out the same IDs (salesforce-rest.md §1.6).
///
/// A Salesforce ID is a 3-character key prefix, a 2-character instance ("pod") identifier, one
/// reserved character and a 9-character base-62 number, plus the 3-character case-safe suffix. Each
/// new local org draws a random pod and a random start for the number, stores both with its data,
/// and numbers its records upwards from there, so IDs still sort in creation order:
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 7)
/// let space = OrgIDSpace.random(using: &generator)
/// space.id(prefix: "001", counter: 1)   // "001" + pod + "0" + 9 base-62 digits + checksum
/// ```
struct OrgIDSpace: Sendable, Equatable {
    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    /// 62^5: the smallest start, so the number keeps a few leading zeros as real IDs do.
    private static let lowestStart: Int64 = 916_132_832
    /// 62^7: the largest start, leaving room for more records than one org will ever create.
    private static let highestStart: Int64 = 3_521_614_606_208

    /// The two characters after the key prefix; `nil` for a database made before ID spaces existed.
    let pod: String?
    /// What the counter is added to.
    let start: Int64

    /// The space of databases created before ID spaces existed: `Lo` and a 10-digit counter.
    static let legacy = OrgIDSpace(pod: nil, start: 0)

    /// A new space drawn from `generator`.
    static func random<G: RandomNumberGenerator>(using generator: inout G) -> OrgIDSpace {
        var pod = "00"
        while pod == "00" || pod == "Lo" {
            let first = digits.randomElement(using: &generator) ?? "0"
            let second = digits.randomElement(using: &generator) ?? "0"
            pod = String([first, second])
        }
        return OrgIDSpace(pod: pod, start: Int64.random(in: lowestStart..<highestStart, using: &generator))
    }

    /// The 18-character ID of the `counter`-th record (counting from 1) with `prefix`.
    func id(prefix: String, counter: Int64) -> String {
        guard let pod else { return OrgRecordID.make(prefix: prefix, counter: counter) }
        let body = prefix + pod + "0" + Self.base62(start + counter, width: 9)
        return body + OrgRecordID.checksum(body)
    }

    /// The stored form, `pod:start` (`legacy` for the old space).
    var stored: String { pod.map { "\($0):\(start)" } ?? "legacy" }

    /// Reads the stored form.
    init?(stored: String) {
        if stored == "legacy" {
            self = .legacy
            return
        }
        let parts = stored.split(separator: ":")
        guard parts.count == 2, parts[0].utf8.count == 2, let start = Int64(parts[1]) else { return nil }
        self.init(pod: String(parts[0]), start: start)
    }

    private init(pod: String?, start: Int64) {
        self.pod = pod
        self.start = start
    }

    private static func base62(_ value: Int64, width: Int) -> String {
        var value = value
        var result: [Character] = []
        for _ in 0..<width {
            result.append(digits[Int(value % 62)])
            value /= 62
        }
        return String(result.reversed())
    }
}
