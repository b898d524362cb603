/// A JSON object that keeps its keys in order, with lookups by exact or case-insensitive key.
///
/// Salesforce field names are case-insensitive, so record bodies are looked up with
/// ``value(forCaseInsensitiveKey:)``; the order matters for deterministic output and for reporting
/// the first offending field of a body.
public struct OrgJSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members in order.
    public private(set) var members: [(key: String, value: OrgJSONValue)]

    /// Creates an object from members in order; a repeated key keeps its last value in the first position.
    public init(_ members: [(String, OrgJSONValue)] = []) {
        self.members = []
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, OrgJSONValue)...) { self.init(elements) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value for an exact key; setting `nil` removes the member.
    public subscript(key: String) -> OrgJSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
    }

    /// The first member whose key matches `key` ignoring case.
    public func value(forCaseInsensitiveKey key: String) -> OrgJSONValue? {
        let lowered = key.lowercased()
        return members.first { $0.key.lowercased() == lowered }?.value
    }

    /// Removes every member whose key matches `key` ignoring case.
    public mutating func removeValue(forCaseInsensitiveKey key: String) {
        let lowered = key.lowercased()
        members.removeAll { $0.key.lowercased() == lowered }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: OrgJSONValue)]> {
        members.makeIterator()
    }

    public static func == (lhs: OrgJSONObject, rhs: OrgJSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
