import Dispatch
import Foundation
import SyncEngine

/// Turns SIGINT and SIGTERM into a stop request the engine honours between pages; a second
/// signal exits at once (status 130).
final class SignalStopper {
    private var sources: [DispatchSourceSignal] = []

    /// Installs the handlers; they stay until this object is released.
    convenience init(stop: StopSignal) {
        self.init(
            notice: "stopping after the current page (interrupt again to quit now)",
            isStopRequested: { stop.isStopRequested },
            requestStop: { stop.requestStop() }
        )
    }

    /// Installs handlers that say `notice` and call `requestStop` on the first signal, and exit at
    /// once (130) on a signal after `isStopRequested`.
    init(
        notice: String,
        isStopRequested: @escaping @Sendable () -> Bool,
        requestStop: @escaping @Sendable () -> Void
    ) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if isStopRequested() { exit(130) }
                StandardStreams.writeError(notice + "\n")
                requestStop()
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
