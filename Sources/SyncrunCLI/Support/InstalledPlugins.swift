import SyncEngine

/// The plug-ins (custom targets in Swift) of the executable running the command tree, set by
/// ``Syncrun/main(arguments:targets:)`` for the duration of the command: the config loader
/// accepts their class names and every engine the commands build can run them.
enum InstalledPlugins {
    /// The registered plug-ins; none in the stock `syncrun`.
    @TaskLocal static var targets = CustomTargets()
}
