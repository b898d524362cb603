/// Finds credential-shaped text and masks it character for character, so that no message built
/// from a file, an argument or an error ever holds a secret or a fragment of one.
///
/// The kinds found (see ``Kind``): PEM blocks (their body, between the `-----BEGIN …-----` and
/// `-----END …-----` lines), SFDX auth URLs (`force://…@`, whatever the host: everything between
/// `force://` and the host), URL user-info (`scheme://user:password@`), JWTs (`eyJ…`.`…`.`…`),
/// Salesforce session ids (`00D` + org id + `!` + …) and `Bearer` tokens.
///
/// Each masked Unicode scalar becomes `*` (`x` in a config file's text before it is parsed); line
/// breaks stay, so lines and columns of the masked
/// text are those of the original and diagnostics point at the same places.
///
/// ```swift
/// CredentialMask.masked("force://PlatformCLI::5Aep861@acme.my.salesforce.com")
/// // "force://*********************@acme.my.salesforce.com"
/// ```
public enum CredentialMask {
    /// What a masked span was.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case pemBlock = "pem-block"
        case sfdxAuthURL = "sfdx-auth-url"
        case urlUserInfo = "url-user-info"
        case jwt
        case sessionID = "session-id"
        case bearerToken = "bearer-token"

        /// A noun phrase for messages: "an SFDX auth URL".
        public var phrase: String {
            switch self {
            case .pemBlock: "a PEM block (a private key or certificate)"
            case .sfdxAuthURL: "an SFDX auth URL"
            case .urlUserInfo: "a URL with a user name or password"
            case .jwt: "a JSON Web Token"
            case .sessionID: "a Salesforce session id (access token)"
            case .bearerToken: "a Bearer token"
            }
        }
    }

    /// One masked span: its kind and where it starts (1-based line and column, in Unicode scalars).
    public struct Finding: Sendable, Hashable {
        /// What was masked.
        public var kind: Kind
        /// The line of the first masked character.
        public var line: Int
        /// The column of the first masked character.
        public var column: Int
    }

    /// The character that replaces each masked one in messages, errors and logs.
    public static let maskCharacter: Unicode.Scalar = "*"

    /// The character that replaces each masked one in a config file's text before it is parsed:
    /// a letter, because a YAML plain scalar starting with `*` is an alias, and a masked value
    /// must stay a value so that it is reported as an `inline-secret` where it stands.
    public static let sourceMaskCharacter: Unicode.Scalar = "x"

    /// `text` with every credential-shaped span masked by `mask`.
    public static func masked(_ text: String, mask: Unicode.Scalar = maskCharacter) -> String {
        scan(text, mask: mask).masked
    }

    /// Whether `text` holds anything credential-shaped.
    public static func containsCredential(_ text: String) -> Bool {
        !scan(text).findings.isEmpty
    }

    /// `text` with every credential-shaped span masked by `mask`, and where each span was.
    public static func scan(
        _ text: String,
        mask: Unicode.Scalar = maskCharacter
    ) -> (masked: String, findings: [Finding]) {
        // Fast path: every kind starts with one of these ASCII bytes (`-` PEM, `:` URLs, `e`/`E`
        // JWT, `0` session id, `b`/`B` bearer); text without `-----`, `://`, `eyJ`, `00D`, `earer`
        // holds none.
        let utf8 = text.utf8
        guard utf8.count >= 8 else { return (text, []) }
        if !text.contains("-----") && !text.contains("://") && !text.contains("eyJ") && !text.contains("00D")
            && !text.lowercased().contains("bearer")
        {
            return (text, [])
        }
        var scanner = Scanner(Array(text.unicodeScalars), mask: mask)
        scanner.run()
        guard !scanner.findings.isEmpty else { return (text, []) }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scanner.scalars)
        return (String(view), scanner.findings)
    }

    private struct Scanner {
        var scalars: [Unicode.Scalar]
        var findings: [Finding] = []
        let mask: Unicode.Scalar
        /// Line and column of `index` in the scan (kept incrementally).
        private var line = 1
        private var lineStart = 0

        init(_ scalars: [Unicode.Scalar], mask: Unicode.Scalar) {
            self.scalars = scalars
            self.mask = mask
        }

        mutating func run() {
            var index = 0
            while index < scalars.count {
                let next = match(at: index)
                if next > index {
                    advancePosition(from: index, to: next)
                    index = next
                } else {
                    advancePosition(from: index, to: index + 1)
                    index += 1
                }
            }
        }

        private mutating func advancePosition(from start: Int, to end: Int) {
            for index in start..<min(end, scalars.count) where scalars[index] == "\n" {
                line += 1
                lineStart = index + 1
            }
        }

        /// Masks the credential starting at `index`, if any; returns where scanning goes on
        /// (`index` itself when nothing starts there).
        private mutating func match(at index: Int) -> Int {
            let scalar = scalars[index]
            switch scalar {
            case "-": return pem(at: index)
            case "f", "F": return authURL(at: index)
            case ":": return userInfo(at: index)
            case "e": return jwt(at: index)
            case "0": return sessionID(at: index)
            case "b", "B": return bearer(at: index)
            default: return index
            }
        }

        // MARK: Kinds

        private mutating func pem(at index: Int) -> Int {
            guard hasPrefix("-----BEGIN ", at: index), let markerEnd = find("-----", from: index + 11, sameLine: true)
            else { return index }
            var bodyStart = markerEnd + 5
            while bodyStart < scalars.count, scalars[bodyStart] == "\r" || scalars[bodyStart] == "\n" {
                bodyStart += 1
            }
            let bodyEnd = find("-----END ", from: bodyStart, sameLine: false) ?? scalars.count
            mask(bodyStart..<bodyEnd, kind: .pemBlock)
            return bodyEnd
        }

        private mutating func authURL(at index: Int) -> Int {
            guard hasPrefix("force://", at: index, caseInsensitive: true) else { return index }
            let start = index + 8
            let end = runEnd(from: start) { !Self.isURLTerminator($0) }
            let at = (start..<end).last { scalars[$0] == "@" } ?? end
            mask(start..<at, kind: .sfdxAuthURL)
            return end
        }

        private mutating func userInfo(at index: Int) -> Int {
            guard hasPrefix("://", at: index), index > 0, Self.isSchemeCharacter(scalars[index - 1]) else {
                return index
            }
            let start = index + 3
            let end = runEnd(from: start) { !Self.isURLTerminator($0) && $0 != "/" && $0 != "?" && $0 != "#" }
            guard let at = (start..<end).last(where: { scalars[$0] == "@" }), at > start else { return index + 3 }
            mask(start..<at, kind: .urlUserInfo)
            return end
        }

        private mutating func jwt(at index: Int) -> Int {
            guard hasPrefix("eyJ", at: index), !precededByTokenCharacter(index) else { return index }
            let header = runEnd(from: index) { Self.isBase64URL($0) }
            guard header - index >= 10, header < scalars.count, scalars[header] == "." else { return index }
            let payload = runEnd(from: header + 1) { Self.isBase64URL($0) }
            guard payload - header > 2, payload < scalars.count, scalars[payload] == "." else { return index }
            let end = runEnd(from: payload + 1) { Self.isBase64URL($0) }
            mask(index..<end, kind: .jwt)
            return end
        }

        private mutating func sessionID(at index: Int) -> Int {
            guard hasPrefix("00D", at: index), !precededByTokenCharacter(index) else { return index }
            let orgEnd = runEnd(from: index) { Self.isAlphanumeric($0) }
            guard orgEnd - index == 15 || orgEnd - index == 18, orgEnd < scalars.count, scalars[orgEnd] == "!"
            else { return index }
            let end = runEnd(from: orgEnd + 1) { Self.isAlphanumeric($0) || $0 == "." || $0 == "_" }
            guard end - orgEnd > 16 else { return index }
            mask(index..<end, kind: .sessionID)
            return end
        }

        private mutating func bearer(at index: Int) -> Int {
            guard hasPrefix("bearer", at: index, caseInsensitive: true),
                index == 0 || !Self.isLetter(scalars[index - 1])
            else { return index }
            let spaces = runEnd(from: index + 6) { $0 == " " || $0 == "\t" }
            guard spaces > index + 6 else { return index }
            let end = runEnd(from: spaces) { Self.isAlphanumeric($0) || "-._~+/=!".unicodeScalars.contains($0) }
            guard end - spaces >= 8 else { return index }
            mask(spaces..<end, kind: .bearerToken)
            return end
        }

        // MARK: Helpers

        private mutating func mask(_ range: Range<Int>, kind: Kind) {
            guard !range.isEmpty else { return }
            var line = self.line
            var lineStart = self.lineStart
            for index in lineStart..<range.lowerBound where scalars[index] == "\n" {
                line += 1
                lineStart = index + 1
            }
            findings.append(Finding(kind: kind, line: line, column: range.lowerBound - lineStart + 1))
            for index in range where scalars[index] != "\n" && scalars[index] != "\r" {
                scalars[index] = self.mask
            }
        }

        private func hasPrefix(_ prefix: String, at index: Int, caseInsensitive: Bool = false) -> Bool {
            var position = index
            for expected in prefix.unicodeScalars {
                guard position < scalars.count else { return false }
                let actual = scalars[position]
                if caseInsensitive {
                    guard Self.lowercased(actual) == Self.lowercased(expected) else { return false }
                } else if actual != expected {
                    return false
                }
                position += 1
            }
            return true
        }

        private func find(_ needle: String, from start: Int, sameLine: Bool) -> Int? {
            var index = start
            while index < scalars.count {
                if sameLine, scalars[index] == "\n" { return nil }
                if hasPrefix(needle, at: index) { return index }
                index += 1
            }
            return nil
        }

        private func runEnd(from start: Int, while predicate: (Unicode.Scalar) -> Bool) -> Int {
            var index = start
            while index < scalars.count, predicate(scalars[index]) { index += 1 }
            return index
        }

        private func precededByTokenCharacter(_ index: Int) -> Bool {
            index > 0 && (Self.isAlphanumeric(scalars[index - 1]) || scalars[index - 1] == "_")
        }

        private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
        }

        private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }

        private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            isLetter(scalar) || ("0"..."9").contains(scalar)
        }

        private static func isBase64URL(_ scalar: Unicode.Scalar) -> Bool {
            isAlphanumeric(scalar) || scalar == "-" || scalar == "_"
        }

        private static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
            isAlphanumeric(scalar) || scalar == "+" || scalar == "." || scalar == "-"
        }

        /// Where a URL written in text ends: white space, quotes, brackets, commas of a list.
        private static func isURLTerminator(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || "\"'`<>{}[](),;\\|^".unicodeScalars.contains(scalar)
                || scalar.value < 0x20
        }
    }
}
