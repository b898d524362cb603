/// Why a ``PlanStep`` waits for another step.
///
/// Keys (JSON): `step` (the id waited for), `rule` (``Rule`` raw value), `detail` (a sentence
/// for people).
public struct PlanReason: Sendable, Hashable, Codable {
    /// The ordering rule that added the edge. The raw values are part of the committed JSON plan
    /// format: never rename them.
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        /// For every soup, its sync ups run before its sync downs (send local changes, then
        /// fetch), so a sync down never overwrites edits that were about to be sent.
        case upBeforeDown
        /// Syncs of a parent soup run before the same-direction syncs of its children soup
        /// (the soups a `parent_children` target links).
        case parentBeforeChildren
        /// The sync lists the other one in `dependsOn`.
        case dependsOn
        /// A clean-ghosts step runs right after its sync down.
        case afterSyncDown

        /// A short label for diagrams: `up before down`, `parent first`, `dependsOn`,
        /// `after sync down`.
        public var label: String {
            switch self {
            case .upBeforeDown: "up before down"
            case .parentBeforeChildren: "parent first"
            case .dependsOn: "dependsOn"
            case .afterSyncDown: "after sync down"
            }
        }
    }

    /// The id of the step waited for.
    public var step: String
    /// The rule that added the edge.
    public var rule: Rule
    /// What the rule says about these two syncs, e.g. `sync ups of soup 'accounts' run before its
    /// sync downs`.
    public var detail: String

    /// Creates a reason.
    public init(step: String, rule: Rule, detail: String) {
        self.step = step
        self.rule = rule
        self.detail = detail
    }
}
