// The messages of the `parent_children` target, in one place.
extension SyncEngineError {
    static func invalidParentFilter(_ name: String, object: String, _ problem: String) -> SyncEngineError {
        invalidTarget(name, "'parentSoqlFilter' is not a SOQL condition on '\(object)': \(problem)")
    }

    static func missingChildrenSoup(_ name: String, soup: String, idField: String) -> SyncEngineError {
        invalidTarget(
            name,
            "children soup '\(soup)' does not exist in the store; declare it in the store config (userstore) "
                + "with an index on '\(idField)'"
        )
    }

    static func unindexedChildrenSoup(_ name: String, soup: String, idField: String) -> SyncEngineError {
        invalidTarget(
            name,
            "children soup '\(soup)' has no index on '\(idField)', which sync down needs to match records; "
                + "add {\"path\": \"\(idField)\", \"type\": \"string\"} to its indexes"
        )
    }
}
