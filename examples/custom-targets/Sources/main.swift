import SyncEngine
import SyncrunCLI

// A user's own `syncrun`: the stock command tree, with two plug-ins registered under the class
// names a config's `iOSImpl` / `androidImpl` use.
let targets: CustomTargets = {
    var targets = CustomTargets()
    targets.registerSyncDown(["OwnedContactsSyncDownTarget", "com.example.sync.OwnedContactsSyncDownTarget"]) {
        try OwnedContactsSyncDownTarget(definition: $0)
    }
    targets.registerSyncUp(["CheckedContactSyncUpTarget", "com.example.sync.CheckedContactSyncUpTarget"]) { _ in
        CheckedContactSyncUpTarget()
    }
    return targets
}()

await Syncrun.main(targets: targets)
