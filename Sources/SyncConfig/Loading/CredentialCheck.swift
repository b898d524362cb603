/// The second half of credential masking in config files: the raw text was masked before it was
/// parsed (``CredentialMask``); this walk masks what only decoding reveals (a JSON `\/` or
/// `\u` escape inside an auth URL) and reports every credential as an `inline-secret` error at
/// the value or key that held it (or at its own position when no value did, as in a comment).
struct CredentialCheck {
    let context: DecodingContext
    /// Where the raw-text masking found something, not yet reported.
    private var unattributed: [TextPosition: CredentialMask.Kind]

    init(context: DecodingContext, rawFindings: [CredentialMask.Finding]) {
        self.context = context
        var unattributed: [TextPosition: CredentialMask.Kind] = [:]
        for finding in rawFindings {
            unattributed[TextPosition(line: finding.line, column: finding.column)] = finding.kind
        }
        self.unattributed = unattributed
    }

    /// `node` with every credential in its keys and scalars masked, each reported.
    mutating func masking(_ node: ConfigNode, path: ConfigPath) -> ConfigNode {
        var node = node
        switch node.value {
        case .scalar(var scalar):
            let scan = CredentialMask.scan(scalar.text, mask: CredentialMask.sourceMaskCharacter)
            let raw = claim(scalar.textMap.positions)
            if let kind = scan.findings.first?.kind ?? raw {
                scalar.text = scan.masked
                report(kind, at: node.position, path: path)
                node.value = .scalar(scalar)
            }
        case .array(let elements):
            node.value = .array(elements.enumerated().map { masking($1, path: path.appending(index: $0)) })
        case .object(let members):
            var masked: [ConfigNode.Member] = []
            for var member in members {
                let scan = CredentialMask.scan(member.key, mask: CredentialMask.sourceMaskCharacter)
                let start = member.keyPosition
                let raw = claim(
                    (0...member.key.unicodeScalars.count + 1).map {
                        TextPosition(line: start.line, column: start.column + $0)
                    }
                )
                if let kind = scan.findings.first?.kind ?? raw {
                    member.key = scan.masked
                    report(kind, at: start, path: path.appending(member.key))
                }
                member.value = masking(member.value, path: path.appending(member.key))
                masked.append(member)
            }
            node.value = .object(masked)
        }
        return node
    }

    /// Reports the raw findings no key or value held (a credential in a YAML comment).
    func reportUnattributed() {
        for (position, kind) in unattributed.sorted(by: { $0.key < $1.key }) {
            context.error(.inlineSecret, at: position, path: .root, ConfigMessages.inlineCredential(kind, key: nil))
        }
    }

    /// Removes and returns the kind of a raw finding at one of `positions`, if any.
    private mutating func claim(_ positions: [TextPosition]) -> CredentialMask.Kind? {
        guard !unattributed.isEmpty else { return nil }
        var kind: CredentialMask.Kind?
        for position in positions {
            if let found = unattributed.removeValue(forKey: position) { kind = kind ?? found }
        }
        return kind
    }

    private func report(_ kind: CredentialMask.Kind, at position: TextPosition, path: ConfigPath) {
        let key: String? =
            switch path.components.last {
            case .key(let name): name
            default: nil
            }
        context.error(.inlineSecret, at: position, path: path, ConfigMessages.inlineCredential(kind, key: key))
    }
}
