import JSONCore

/// A path into a config document, rendered as `syncs[2].target.query`.
struct ConfigPath: Sendable, Hashable, CustomStringConvertible {
    enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    var components: [Component] = []

    /// The document itself.
    static let root = ConfigPath()

    /// This path followed by an object key.
    func appending(_ key: String) -> ConfigPath {
        ConfigPath(components: components + [.key(key)])
    }

    /// This path followed by an array index.
    func appending(index: Int) -> ConfigPath {
        ConfigPath(components: components + [.index(index)])
    }

    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isIdentifier(key) {
                    text += text.isEmpty ? key : "." + key
                } else {
                    text += "[" + JSONValue.string(key).jsonText() + "]"
                }
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || scalar == "$" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar)
        }
    }
}
