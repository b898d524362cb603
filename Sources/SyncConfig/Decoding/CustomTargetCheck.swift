/// Checks the class names of a custom target against the plug-in registry.
struct CustomTargetCheck {
    let context: DecodingContext
    let registry: TargetImplRegistry
    /// The direction of the sync whose target is checked.
    let syncType: SyncType

    /// Reports a custom target without impl names, or with names no plug-in is registered for.
    ///
    /// - Returns: whether the target can be used.
    func check(iOSImpl: String?, androidImpl: String?, target: ObjectReader, builtInNames: [String] = []) -> Bool {
        guard iOSImpl != nil || androidImpl != nil else {
            context.error(
                .missingKey,
                at: target.node.position,
                path: target.path,
                ConfigMessages.customTargetNeedsImpl
            )
            return false
        }
        var valid = true
        for (key, name) in [("iOSImpl", iOSImpl), ("androidImpl", androidImpl)] {
            guard let name, !registry.isRegistered(customImplName: name, for: syncType) else { continue }
            let message =
                registry.isRegistered(customImplName: name)
                ? ConfigMessages.customTargetOtherDirection(name, syncType: syncType)
                : ConfigMessages.unregisteredCustomTarget(
                    name,
                    suggestion: Suggestion.closest(to: name, in: builtInNames)
                )
            context.error(
                .unregisteredCustomTarget,
                at: target.position(of: key),
                path: target.path.appending(key),
                message
            )
            valid = false
        }
        return valid
    }
}
