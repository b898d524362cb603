import SoupStore

/// What a session tells the user once, as a whole line (`note: …`, `warning: …`): a local org was
/// seeded, a store was made private, upgraded or adopted by its org, a killed run was stopped. The
/// session never prints; its caller shows these (the CLI on standard error). No notice holds a
/// secret or a record value.
public struct SessionNotice: Sendable, Hashable, CustomStringConvertible {
    /// The line, without its newline.
    public var text: String

    /// Creates a notice.
    public init(_ text: String) {
        self.text = text
    }

    public var description: String { text }

    /// Receives the notices of a session as they happen.
    public typealias Handler = @Sendable (SessionNotice) -> Void

    /// What opening `store` did that the user should know: files made private, a schema upgrade.
    public static func opening(_ store: SoupStore) -> [SessionNotice] {
        var notices = store.tightenedFiles.map {
            SessionNotice("note: made '\($0)' private (mode 600): other users could read it")
        }
        if store.upgrade.isUpgrade {
            notices.append(
                SessionNotice(
                    "note: upgraded '\(store.path)' to this syncrun's schema "
                        + "(\(store.upgrade.appliedSteps.joined(separator: ", ")))"
                )
            )
        }
        return notices
    }
}
