import Foundation

/// Where a secret (an access token, a client secret, an auth URL) is read from: a file, an
/// environment variable, or a value given on the command line.
///
/// The value itself is read only when the connection is made and never appears in a description.
public enum SecretSource: Sendable, Hashable {
    /// The trimmed content of a file.
    case file(String)
    /// The trimmed value of an environment variable.
    case environment(String)
    /// A value given directly (`--access-token`).
    case value(String)

    /// Reads the secret.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - purpose: What the secret is, for messages (`the auth URL`).
    /// - Throws: ``OrgAccessError`` (unresolvable) when the file cannot be read or the variable is
    ///   unset or empty.
    func read(environment: [String: String], purpose: String) throws -> String {
        let text: String
        switch self {
        case .file(let path):
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw OrgAccessError.unreadableSecretFile(path, purpose: purpose, underlying: error)
            }
        case .environment(let name):
            text = environment[name] ?? ""
        case .value(let given):
            text = given
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw OrgAccessError.emptySecret(describing: self, purpose: purpose) }
        return trimmed
    }
}

extension SecretSource: CustomStringConvertible {
    /// `file 'PATH'`, `$NAME`, or `a value given on the command line`; never the secret.
    public var description: String {
        switch self {
        case .file(let path): "file '\(path)'"
        case .environment(let name): "$\(name)"
        case .value: "a value given on the command line"
        }
    }
}
