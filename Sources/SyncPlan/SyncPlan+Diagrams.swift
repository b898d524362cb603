// The `mermaid` and `dot` formats: the plan as a graph, nodes numbered in plan order.
extension SyncPlan {
    /// Renders a Mermaid `flowchart TD`: sync ups as stadiums, sync downs as boxes, clean-ghosts
    /// steps as hexagons; edges point from a step to the steps that wait for it and are labelled
    /// with their rules.
    func mermaidRendering() -> String {
        var lines = ["flowchart TD"]
        for (index, step) in steps.enumerated() {
            let label =
                Self.mermaidEscaped("\(index + 1). \(step.summary)") + "<br/>"
                + Self.mermaidEscaped(step.diagramDetails)
            let text = "\"\(label)\""
            let node: String
            switch step.kind {
            case .syncUp: node = "([\(text)])"
            case .syncDown: node = "[\(text)]"
            case .cleanGhosts: node = "{{\(text)}}"
            }
            lines.append("    s\(index + 1)\(node)")
        }
        for edge in edges() {
            lines.append("    s\(edge.from + 1) -->|\(Self.mermaidEscaped(edge.label))| s\(edge.to + 1)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Renders a Graphviz `digraph` with the same nodes and edges as the Mermaid chart.
    func dotRendering() -> String {
        var lines = [
            "digraph plan {",
            "    rankdir=TB;",
            "    node [shape=box, fontname=\"Helvetica\"];",
            "    edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        for (index, step) in steps.enumerated() {
            let label = Self.dotEscaped("\(index + 1). \(step.summary)") + "\\n" + Self.dotEscaped(step.diagramDetails)
            let shape: String
            switch step.kind {
            case .syncUp: shape = ", style=rounded"
            case .syncDown: shape = ""
            case .cleanGhosts: shape = ", shape=hexagon"
            }
            lines.append("    s\(index + 1) [label=\"\(label)\"\(shape)];")
        }
        for edge in edges() {
            lines.append("    s\(edge.from + 1) -> s\(edge.to + 1) [label=\"\(Self.dotEscaped(edge.label))\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
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

    private static func mermaidEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\"": out += "#quot;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "|": out += "#124;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func dotEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
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
