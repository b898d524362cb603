// The dry-run messages of the module (the others are in `SyncEngineError+Messages.swift`).
extension SyncEngineError {
    static func previewNotSupported(_ name: String, kind: String, operation: SyncOperation) -> SyncEngineError {
        let what = operation == .cleanGhosts ? "ghost cleaning" : "sync down"
        return SyncEngineError(
            code: .notSupported,
            message: "sync '\(name)': a dry run of the '\(kind)' \(what) is not supported yet by syncrun, "
                + "because it writes the children while it reads; run it without --dry-run",
            syncName: name
        )
    }
}
