import Foundation

/// Where each key and value of one config file is, so that tools reporting on a loaded config
/// (`org check`) point at the same lines, columns and paths as `validate` does.
package struct ConfigSourceMap: Sendable {
    /// One step of a path into the document.
    package enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The file as named in diagnostics.
    package let file: String
    private let root: ConfigNode

    /// Parses `url` again for its positions; `nil` when it does not parse (the loader has
    /// reported that already).
    ///
    /// - Throws: ``SyncConfigError`` when the file cannot be read.
    package init?(url: URL) throws {
        let file = ConfigLoader.displayName(of: url)
        guard let root = try ConfigLoader().parse(url, file: file, log: DiagnosticLog()) else { return nil }
        self.file = file
        self.root = root
    }

    /// The index in `syncs` of the sync whose object starts at `location`.
    package func syncIndex(at location: SourceLocation) -> Int? {
        index(in: "syncs", at: location)
    }

    /// The index in the top-level array `key` (`syncs`, `soups`) of the element starting at `location`.
    package func index(in key: String, at location: SourceLocation) -> Int? {
        guard let array = Self.child(root, .key(key)), case .array(let items) = array.value else { return nil }
        return items.firstIndex { $0.position.line == location.line && $0.position.column == location.column }
    }

    /// The position of the value at `steps`, or of the deepest node of that path that exists.
    package func location(of steps: [Step]) -> SourceLocation {
        locate(steps).location
    }

    /// The position of the character at `utf8Offset` inside the string value at `steps` (a SOQL
    /// query); the value's position when the path does not end at a string.
    package func location(of steps: [Step], utf8Offset: Int) -> SourceLocation {
        let (node, location) = locate(steps)
        guard let node, case .scalar(let scalar) = node.value else { return location }
        let position = scalar.textMap.position(ofUTF8Offset: utf8Offset, in: scalar.text)
        return SourceLocation(file: file, line: position.line, column: position.column)
    }

    /// `syncs[2].target.query`, as `validate` writes paths.
    package static func pathText(_ steps: [Step]) -> String {
        var path = ConfigPath.root
        for step in steps {
            switch step {
            case .key(let key): path = path.appending(key)
            case .index(let index): path = path.appending(index: index)
            }
        }
        return path.description
    }

    private func locate(_ steps: [Step]) -> (node: ConfigNode?, location: SourceLocation) {
        var node = root
        for step in steps {
            guard let next = Self.child(node, step) else {
                return (nil, SourceLocation(file: file, line: node.position.line, column: node.position.column))
            }
            node = next
        }
        return (node, SourceLocation(file: file, line: node.position.line, column: node.position.column))
    }

    private static func child(_ node: ConfigNode, _ step: Step) -> ConfigNode? {
        switch (node.value, step) {
        case (.object(let members), .key(let key)):
            return members.first { $0.key == key }?.value
        case (.array(let items), .index(let index)):
            return items.indices.contains(index) ? items[index] : nil
        default:
            return nil
        }
    }
}
