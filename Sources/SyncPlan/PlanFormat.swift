/// An output format of a plan (`syncrun plan --format`).
public enum PlanFormat: String, Sendable, Hashable, CaseIterable {
    /// Numbered steps, each with what it waits for and why.
    case text
    /// Pretty JSON with a fixed key order and a trailing newline; byte-identical for the same
    /// config, so it can be committed and diffed in CI.
    case json
    /// A Mermaid `flowchart TD`.
    case mermaid
    /// A Graphviz `digraph`.
    case dot
}

extension SyncPlan {
    /// The plan rendered in `format`; every format ends with a newline.
    public func rendered(as format: PlanFormat) -> String {
        switch format {
        case .text: textRendering()
        case .json: jsonRendering()
        case .mermaid: mermaidRendering()
        case .dot: dotRendering()
        }
    }
}
