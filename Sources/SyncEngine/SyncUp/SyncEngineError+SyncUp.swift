// The sync up messages of the module (the others are in `SyncEngineError+Messages.swift`).
extension SyncEngineError {
    static func notSyncUp(_ name: String) -> SyncEngineError {
        SyncEngineError(
            code: .wrongType,
            message: "sync '\(name)' is not a sync up; run it with 'syncrun sync' as a sync down",
            syncName: name
        )
    }

    static func syncUpNotSupported(_ name: String, kind: String) -> SyncEngineError {
        SyncEngineError(
            code: .notSupported,
            message: "sync '\(name)': the '\(kind)' sync up target is not supported yet by syncrun; "
                + "supported sync up targets: collection (the default), single, batch, parent_children, endpoint",
            syncName: name
        )
    }

    static func noFieldList(_ name: String, operation: String, key: String) -> SyncEngineError {
        SyncEngineError(
            code: .invalidTarget,
            message: "sync '\(name)': no fields to send on \(operation); set '\(key)' on the target "
                + "or 'fieldlist' in the options",
            syncName: name
        )
    }

    static func missingSoup(_ name: String, soup: String) -> SyncEngineError {
        SyncEngineError(
            code: .invalidTarget,
            message: "sync '\(name)': soup '\(soup)' does not exist in the store; declare it in the store config "
                + "(userstore) with indexes on 'Id' and '__local__'",
            syncName: name
        )
    }
}
