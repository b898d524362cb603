// The dry-run messages of the module (the others are in `SyncEngineError+Messages.swift`).
extension SyncEngineError {
    static func previewNotSupported(_ name: String, kind: String, operation: SyncOperation) -> SyncEngineError {
        let what =
            switch operation {
            case .cleanGhosts: "ghost cleaning"
            case .syncDown: "sync down"
            case .syncUp: "sync up"
            }
        let reason =
            operation == .syncUp
            ? "its trees are previewed by neither the parent nor the children scan yet"
            : "it writes the children while it reads"
        return SyncEngineError(
            code: .notSupported,
            message: "sync '\(name)': a dry run of the '\(kind)' \(what) is not supported yet by syncrun, "
                + "because \(reason); run it without --dry-run",
            syncName: name
        )
    }
}
