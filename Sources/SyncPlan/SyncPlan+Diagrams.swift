// The `mermaid` and `dot` formats: the plan as a graph, nodes numbered in plan order.
extension SyncPlan {
    /// Renders a Mermaid `flowchart TD`: sync ups as stadiums, sync downs as boxes, clean-ghosts
    /// steps as hexagons; edges point from a step to the steps that wait for it and are labelled
    /// with their rules.
    func mermaidRendering() -> String {
        let syntax = DiagramSyntax(
            escapes: ["\"": "#quot;", "<": "#lt;", ">": "#gt;", "|": "#124;"],
            lineBreak: "<br/>",
            node: { number, kind, label in
                switch kind {
                case .syncUp: "s\(number)([\"\(label)\"])"
                case .syncDown: "s\(number)[\"\(label)\"]"
                case .cleanGhosts: "s\(number){{\"\(label)\"}}"
                }
            },
            edge: { from, to, label in "s\(from) -->|\(label)| s\(to)" }
        )
        return (["flowchart TD"] + diagramLines(syntax)).joined(separator: "\n") + "\n"
    }

    /// Renders a Graphviz `digraph` with the same nodes and edges as the Mermaid chart.
    func dotRendering() -> String {
        let syntax = DiagramSyntax(
            escapes: ["\"": "\\\"", "\\": "\\\\", "\n": "\\n"],
            lineBreak: "\\n",
            node: { number, kind, label in
                let shape =
                    switch kind {
                    case .syncUp: ", style=rounded"
                    case .syncDown: ""
                    case .cleanGhosts: ", shape=hexagon"
                    }
                return "s\(number) [label=\"\(label)\"\(shape)];"
            },
            edge: { from, to, label in "s\(from) -> s\(to) [label=\"\(label)\"];" }
        )
        let header = [
            "digraph plan {",
            "    rankdir=TB;",
            "    node [shape=box, fontname=\"Helvetica\"];",
            "    edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        return (header + diagramLines(syntax) + ["}"]).joined(separator: "\n") + "\n"
    }

    /// How a diagram format writes text, a node and an edge (labels arrive escaped).
    private struct DiagramSyntax {
        /// The characters a label cannot hold as they are, and what stands for each.
        var escapes: [Character: String]
        /// The line break inside a node's label.
        var lineBreak: String
        var node: (_ number: Int, _ kind: PlanStep.Kind, _ label: String) -> String
        var edge: (_ from: Int, _ to: Int, _ label: String) -> String

        func escaped(_ text: String) -> String {
            text.reduce(into: "") { out, character in
                if let escape = escapes[character] { out += escape } else { out.append(character) }
            }
        }
    }

    /// A node per step, then an edge per dependency, each indented, nodes numbered in plan order.
    private func diagramLines(_ syntax: DiagramSyntax) -> [String] {
        let nodes = steps.enumerated().map { index, step in
            let label =
                syntax.escaped("\(index + 1). \(step.summary)") + syntax.lineBreak
                + syntax.escaped(step.diagramDetails)
            return syntax.node(index + 1, step.kind, label)
        }
        let links = edges().map { syntax.edge($0.from + 1, $0.to + 1, syntax.escaped($0.label)) }
        return (nodes + links).map { "    " + $0 }
    }

    /// Edges by step position, in plan order of the waiting step then of the step waited for,
    /// labelled with the rules that added them.
    private func edges() -> [(from: Int, to: Int, label: String)] {
        let numbers = stepNumbers()
        var result: [(from: Int, to: Int, label: String)] = []
        for (index, step) in steps.enumerated() {
            for dependency in step.dependsOn {
                guard let from = numbers[dependency] else { continue }
                var labels: [String] = []
                for reason in step.reasons where reason.step == dependency && !labels.contains(reason.rule.label) {
                    labels.append(reason.rule.label)
                }
                result.append((from, index, labels.joined(separator: ", ")))
            }
        }
        return result
    }
}

extension PlanStep {
    /// `soup accounts, soql` (compact, for diagram nodes).
    fileprivate var diagramDetails: String {
        let soupList = soups.isEmpty ? [soupName] : soups
        let soupText = soupList.count == 1 ? "soup \(soupList[0])" : "soups \(soupList.joined(separator: ", "))"
        return "\(soupText), \(target)"
    }
}
