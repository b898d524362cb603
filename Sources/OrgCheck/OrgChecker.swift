import SOQL
import SyncConfig

/// Checks a loaded config against an org's shape: every sObject and field the syncs name exists
/// and allows what the sync does with it (real-org.md §5.3). Diagnostics are positioned like
/// `validate`'s, at the config's file, line, column and JSON path.
public struct OrgChecker: Sendable {
    /// The org's shape.
    public var shape: OrgShape

    /// Creates a checker for `shape`.
    public init(shape: OrgShape) {
        self.shape = shape
    }

    /// The diagnostics of `config` on this org, sorted by file, line and column.
    ///
    /// - Parameter sourceMaps: the positions of each config file, by file name as in diagnostics.
    package func check(_ config: LoadedConfig, sourceMaps: [String: ConfigSourceMap]) -> [Diagnostic] {
        var report = CheckReport(sourceMaps: sourceMaps)
        let soupObjects = Self.soupObjects(config.allSyncs)
        for sync in config.allSyncs {
            guard let location = sync.location, let map = sourceMaps[location.file],
                let index = map.syncIndex(at: location)
            else { continue }
            var context = SyncContext(
                shape: shape,
                map: map,
                base: [.key("syncs"), .index(index)],
                report: report
            )
            switch sync.target {
            case .down(let target):
                context.checkDown(target)
            case .up(let target):
                context.checkUp(target, sync: sync, object: soupObjects[sync.soupName])
            }
            report = context.report
        }
        for soup in config.allSoups {
            guard let object = soupObjects[soup.name].flatMap(shape.object(named:)), let location = soup.location,
                let map = sourceMaps[location.file], let index = map.index(in: "soups", at: location)
            else { continue }
            for (indexNumber, spec) in soup.indexes.enumerated() where !spec.path.hasPrefix("__") {
                let steps: [ConfigSourceMap.Step] = [
                    .key("soups"), .index(index), .key("indexes"), .index(indexNumber), .key("path"),
                ]
                var context = SyncContext(shape: shape, map: map, base: [], report: report)
                if let found = context.checkFieldPath(spec.path, on: object, at: .value(steps)) {
                    let typeSteps = Array(steps.dropLast()) + [.key("type")]
                    context.checkIndexType(spec.type, field: found.field, object: found.object, at: .value(typeSteps))
                }
                report = context.report
            }
        }
        return report.sorted(files: config.files)
    }

    /// The sObjects a config names (sync down objects, parents and children), in first-use order.
    public static func objectNames(of config: LoadedConfig) -> [String] {
        var names: [String] = []
        func add(_ name: String) {
            if !name.isEmpty, !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) }
        }
        for sync in config.allSyncs {
            switch sync.target {
            case .down(.soql(let target)):
                if let query = try? SOQLQuery.parse(target.query) { add(query.unqualifiedObject) }
            case .down(.mru(let target)): add(target.sobjectType)
            case .down(.refresh(let target)): add(target.sobjectType)
            case .down(.parentChildren(let target)):
                add(target.parent.sobjectType)
                add(target.children.sobjectType)
            case .up(let target):
                if let info = target.parentChildren {
                    add(info.parent.sobjectType)
                    add(info.children.sobjectType)
                }
            default: break
            }
        }
        return names
    }

    /// The object each soup holds, from the sync downs that fill it.
    static func soupObjects(_ syncs: [SyncDefinition]) -> [String: String] {
        var objects: [String: String] = [:]
        for sync in syncs {
            let object: String? =
                switch sync.target {
                case .down(.soql(let target)): (try? SOQLQuery.parse(target.query))?.unqualifiedObject
                case .down(.mru(let target)): target.sobjectType
                case .down(.refresh(let target)): target.sobjectType
                case .down(.parentChildren(let target)): target.parent.sobjectType
                case .up(let target): target.parentChildren?.parent.sobjectType
                default: nil
                }
            if let object, objects[sync.soupName] == nil { objects[sync.soupName] = object }
        }
        return objects
    }
}

/// Where a diagnostic points: a value of the config, or a character inside a string value.
enum CheckPosition {
    case value([ConfigSourceMap.Step])
    case inString([ConfigSourceMap.Step], utf8Offset: Int)

    var steps: [ConfigSourceMap.Step] {
        switch self {
        case .value(let steps), .inString(let steps, _): steps
        }
    }
}

/// The diagnostics found so far.
struct CheckReport {
    let sourceMaps: [String: ConfigSourceMap]
    private(set) var diagnostics: [Diagnostic] = []

    init(sourceMaps: [String: ConfigSourceMap]) {
        self.sourceMaps = sourceMaps
    }

    mutating func add(
        _ severity: Diagnostic.Severity,
        _ code: Diagnostic.Code,
        map: ConfigSourceMap,
        at position: CheckPosition,
        _ message: String
    ) {
        let location =
            switch position {
            case .value(let steps): map.location(of: steps)
            case .inString(let steps, let offset): map.location(of: steps, utf8Offset: offset)
            }
        let diagnostic = Diagnostic(
            location: location,
            severity: severity,
            path: ConfigSourceMap.pathText(position.steps),
            code: code,
            message: message
        )
        if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
    }

    func sorted(files: [String]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let left = (files.firstIndex(of: lhs.element.file) ?? -1, lhs.element.line, lhs.element.column)
            let right = (files.firstIndex(of: rhs.element.file) ?? -1, rhs.element.line, rhs.element.column)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
