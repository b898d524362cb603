import JSONCore

// The `text` format: numbered steps with what each waits for and why.
extension SyncPlan {
    /// Renders the plan for people:
    ///
    /// ```
    /// Plan: 3 steps for 2 syncs
    ///
    /// 1. sync up accountsUp
    ///    soup 'accounts', collection target
    /// 2. sync down accountsDown
    ///    soup 'accounts', soql target, incremental resync
    ///    waits for 1 (sync up accountsUp): sync ups of soup 'accounts' run before its sync downs
    /// ```
    ///
    /// Every line is one line: a name holding a line feed or any other control character (ESC,
    /// BEL) is escaped by JSONCore's escaper (`JSONWriter.terminalSafe`).
    func textRendering() -> String {
        guard !steps.isEmpty else { return "Plan: no steps (no syncs to run)\n" }
        let numbers = stepNumbers()
        let stepCount = Wording.count(steps.count, "step", "steps")
        let syncCount = Wording.count(syncNames.count, "sync", "syncs")
        var lines = ["Plan: \(stepCount) for \(syncCount)", ""]
        for (index, step) in steps.enumerated() {
            let number = "\(index + 1)."
            let indent = String(repeating: " ", count: number.count + 1)
            lines.append("\(number) \(step.summary)")
            lines.append(indent + step.details)
            if let api = step.api { lines.append(indent + "api: " + api) }
            for request in step.requests ?? [] { lines.append("\(indent)sends \(request)") }
            for reason in step.reasons {
                let waitedFor =
                    numbers[reason.step].map { "\($0 + 1) (\(steps[$0].summary))" } ?? "'\(reason.step)'"
                lines.append("\(indent)waits for \(waitedFor): \(reason.detail)")
            }
        }
        return lines.map(JSONWriter.terminalSafe).joined(separator: "\n") + "\n"
    }

    /// The position of each step, by id.
    func stepNumbers() -> [String: Int] {
        Dictionary(steps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension PlanStep {
    /// `sync down accountsDown`.
    var summary: String {
        "\(kind.displayName) \(syncName)"
    }

    /// `soup 'accounts', soql target, incremental resync`.
    var details: String {
        let soupList = soups.isEmpty ? [soupName] : soups
        var parts = [
            soupList.count == 1 ? "soup '\(soupList[0])'" : "soups \(Wording.quotedList(soupList))",
            "\(target) target",
        ]
        if let resync {
            switch resync {
            case .incremental: parts.append("incremental resync")
            case .full: parts.append("full fetch on resync")
            case .pluginDefined: parts.append("resync defined by the plug-in")
            }
        }
        return parts.joined(separator: ", ")
    }
}
