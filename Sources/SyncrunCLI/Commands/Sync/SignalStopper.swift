import Dispatch
import Foundation
import SyncEngine

/// Turns SIGINT and SIGTERM into a stop request the engine honours between pages; a second
/// signal exits at once (status 130).
final class SignalStopper {
    private var sources: [DispatchSourceSignal] = []

    /// Installs the handlers; they stay until this object is released.
    init(stop: StopSignal) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isStopRequested { exit(130) }
                StandardStreams.writeError("stopping after the current page (interrupt again to quit now)\n")
                stop.requestStop()
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
