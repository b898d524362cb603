/// The members of a JSON object, in the order they were read or inserted.
///
/// Lookups by key are constant time. Equality and hashing ignore the order (two objects with the
/// same members are equal), as JSON does; the writer sorts keys unless asked to keep the order,
/// so output never depends on how a value was built.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var order: [String]
    private var storage: [String: JSONValue]

    /// An empty object.
    public init() {
        order = []
        storage = [:]
    }

    /// An object with `members` in order; a repeated key keeps its first position and its last value.
    public init<Members: Sequence>(_ members: Members) where Members.Element == (String, JSONValue) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// An object with the members of `dictionary`, keys in sorted order.
    public init(_ dictionary: [String: JSONValue]) {
        order = dictionary.keys.sorted()
        storage = dictionary
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    /// The number of members.
    public var count: Int { order.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { order.isEmpty }

    /// The keys in order.
    public var keys: [String] { order }

    /// The values in key order.
    public var values: [JSONValue] { order.compactMap { storage[$0] } }

    /// The members as a dictionary (order dropped).
    public var dictionary: [String: JSONValue] { storage }

    /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            // One hash lookup per member set: this runs for every member the reader reads.
            if let value = newValue {
                if storage.updateValue(value, forKey: key) == nil { order.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                order.removeAll { $0 == key }
            }
        }
    }

    /// The value for `key`, or `defaultValue` when the key is absent.
    public subscript(key: String, default defaultValue: @autoclosure () -> JSONValue) -> JSONValue {
        storage[key] ?? defaultValue()
    }

    /// Removes the member named `key` and returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        let old = self[key]
        self[key] = nil
        return old
    }

    /// The members in key order, transformed.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var result = self
        for key in order {
            if let value = storage[key] { result.storage[key] = try transform(value) }
        }
        return result
    }

    public func makeIterator() -> Iterator { Iterator(keys: order.makeIterator(), storage: storage) }

    /// Walks the members in key order.
    public struct Iterator: IteratorProtocol {
        var keys: IndexingIterator<[String]>
        let storage: [String: JSONValue]

        public mutating func next() -> (key: String, value: JSONValue)? {
            while let key = keys.next() {
                if let value = storage[key] { return (key, value) }
            }
            return nil
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.storage == rhs.storage }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}
