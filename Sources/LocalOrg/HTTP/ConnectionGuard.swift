import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// Wraps the server's child channel (HTTP/1.1, or HTTPS around it) with the defences Hummingbird
/// does not give: a cap on open connections and a header timeout.
///
/// - Connection cap: past ``LocalOrgConfiguration/maxConnections`` open connections, a new one is
///   answered `503` with the REST error array and closed (plain HTTP), or closed at once (HTTPS,
///   where no handshake has happened), before anything else is set up for it.
/// - Header timeout: once a byte of a request arrives, the request line and headers must be
///   complete within ``LocalOrgConfiguration/headerTimeout``, or the connection is closed. The
///   clock starts at the first byte after a response (or on a new connection), so a keep-alive
///   connection that sends nothing is left to the idle timeout (Hummingbird's `idleTimeout`).
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let connections: ConnectionCounter
    let headerTimeout: TimeAmount
    let secure: Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = connections.open()
        channel.closeFuture.whenComplete { [connections] _ in connections.close() }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                RequestStartHandler(headerTimeout: headerTimeout, admitted: admitted, secure: secure)
            )
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            // Placed after the HTTP decoder, before Hummingbird's own connection handler: it sees
            // each request head and each response end as typed parts.
            let stateHandler = try channel.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self)
            try channel.pipeline.syncOperations.addHandler(RequestHeadHandler(), position: .before(stateHandler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// The number of open connections of one server, and its cap.
final class ConnectionCounter: Sendable {
    private let count = NIOLockedValueBox(0)
    /// The most connections served at once.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection; returns whether it is within the cap.
    func open() -> Bool {
        count.withLockedValue { value in
            value += 1
            return value <= limit
        }
    }

    /// Counts a closed connection.
    func close() {
        count.withLockedValue { $0 -= 1 }
    }

    /// The connections open now.
    var current: Int { count.withLockedValue { $0 } }
}

/// Outbound events from ``RequestHeadHandler`` to ``RequestStartHandler``.
enum RequestProgressEvent {
    /// A complete request line and headers were read.
    case headReceived
    /// The last part of a response was written: the next byte starts a new request.
    case responseEnded
}

/// First in the pipeline: refuses connections past the cap and closes a connection whose request
/// head does not arrive within the header timeout.
final class RequestStartHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// No request started since the last response (or the connection opened).
        case waiting
        /// Bytes of a request arrived; its head is not complete yet.
        case readingHead
        /// The head arrived; the request is being served.
        case serving
    }

    private let headerTimeout: TimeAmount
    private let admitted: Bool
    private let secure: Bool
    private var state = State.waiting
    private var timer: Scheduled<Void>?

    init(headerTimeout: TimeAmount, admitted: Bool, secure: Bool) {
        self.headerTimeout = headerTimeout
        self.admitted = admitted
        self.secure = secure
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive, !admitted { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if !admitted {
            refuse(context)
            return
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard admitted else { return }
        if state == .waiting {
            state = .readingHead
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: headerTimeout) {
                loopBound.value.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let progress = event as? RequestProgressEvent else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch progress {
        case .headReceived:
            state = .serving
        case .responseEnded:
            state = .waiting
        }
        timer?.cancel()
        timer = nil
        promise?.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    /// Answers `503` (plain HTTP) and closes: the server is at its connection cap.
    private func refuse(_ context: ChannelHandlerContext) {
        guard !secure else {
            context.close(promise: nil)
            return
        }
        let body =
            #"[{"message":"The local org is serving its maximum number of connections; retry later","errorCode":"SERVER_UNAVAILABLE"}]"#
        let head =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json;charset=UTF-8\r\n"
            + "Retry-After: 1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let buffer = context.channel.allocator.buffer(string: head + body)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
    }
}

/// After the HTTP decoder: tells ``RequestStartHandler`` when a request head has been read and
/// when a response has been written in full.
final class RequestHeadHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            context.triggerUserOutboundEvent(RequestProgressEvent.headReceived, promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd {
            context.triggerUserOutboundEvent(RequestProgressEvent.responseEnded, promise: nil)
        }
    }
}
