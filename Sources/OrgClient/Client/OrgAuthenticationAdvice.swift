/// Which org a client talks to and how its user gets a working login again, for the messages of
/// authentication failures.
///
/// ```swift
/// OrgAuthenticationAdvice(orgName: "dev", fix: "run 'sf org login web -o dev' and try again")
/// ```
public struct OrgAuthenticationAdvice: Sendable, Hashable {
    /// The org as the user named it: an alias, a project-file name, or the instance URL.
    public var orgName: String
    /// What to do, as a sentence fragment (`run 'sf org login web -o dev' and try again`).
    public var fix: String

    /// Creates advice.
    public init(orgName: String, fix: String) {
        self.orgName = orgName
        self.fix = fix
    }
}
