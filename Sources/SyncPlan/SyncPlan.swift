import SyncConfig

/// The ordered steps that run the syncs of a syncs config: a dependency graph flattened into a
/// deterministic order.
///
/// Ordering rules (each edge is recorded as a ``PlanReason``):
/// - For every soup, its sync ups run before its sync downs (send local changes, then fetch).
/// - Syncs of a parent soup run before the same-direction syncs of its children soup, for the
///   soups a `parent_children` target links.
/// - A sync runs after every sync it lists in `dependsOn`.
/// - A sync down with `options.cleanGhosts: true` gets a clean-ghosts step right after it; syncs
///   waiting for that sync down also wait for its ghost cleaning.
///
/// Among steps that are ready at the same time, the one declared first in the config runs first,
/// so the same config always gives the same plan, byte for byte, whatever the order of the
/// `dependsOn` lists. The plan has no separate resync step: a `syncDown` step runs a full fetch
/// the first time and a resync afterwards (``PlanStep/resync`` says how a resync fetches).
///
/// ```swift
/// let config = try SyncsConfig(...)                // from the SyncConfig loaders
/// let plan = try SyncPlan(planning: config)
/// print(plan.rendered(as: .text))
/// let subset = try plan.only(["contactsDown"])     // contactsDown and everything it waits for
/// ```
public struct SyncPlan: Sendable, Hashable, Codable {
    /// The version of the JSON plan format written by ``rendered(as:)``; bumped only for
    /// changes that break readers.
    public static let currentFormatVersion = 1

    /// The JSON plan format version (``currentFormatVersion`` for plans made by this library).
    public var formatVersion: Int
    /// The steps, in the order they run; each step comes after the steps it depends on.
    public var steps: [PlanStep]

    /// Creates a plan from steps that are already ordered.
    public init(steps: [PlanStep], formatVersion: Int = SyncPlan.currentFormatVersion) {
        self.formatVersion = formatVersion
        self.steps = steps
    }

    /// Plans the syncs of `config`.
    ///
    /// - Parameter config: The syncs, in file order (the order breaks ties).
    /// - Throws: ``PlanError`` with code ``PlanError/Code/duplicateSync`` when two syncs share a
    ///   name, ``PlanError/Code/unknownDependency`` when `dependsOn` names a sync that does not
    ///   exist (with a "did you mean" suggestion), and ``PlanError/Code/cycle`` when the edges form
    ///   a cycle (naming every sync on it, in cycle order).
    public init(planning config: SyncsConfig) throws {
        self = try PlanBuilder(syncs: config.syncs).build()
    }

    /// The step with the id `id` (`"<kind>:<syncName>"`).
    public func step(withID id: String) -> PlanStep? {
        steps.first { $0.id == id }
    }

    /// The steps of the sync named `name`: its main step and its clean-ghosts step, if any.
    public func steps(ofSync name: String) -> [PlanStep] {
        steps.filter { $0.syncName == name }
    }

    /// The names of the planned syncs, in plan order.
    public var syncNames: [String] {
        var seen = Set<String>()
        return steps.map(\.syncName).filter { seen.insert($0).inserted }
    }
}
