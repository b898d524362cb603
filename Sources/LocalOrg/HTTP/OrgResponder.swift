import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// The Hummingbird responder of the local org: applies injected faults, hands the request to
/// ``OrgAPI``, writes the response with the headers every Salesforce response carries, and appends
/// the request log line.
///
/// ``OrgAPI`` answers synchronously and its writes wait for SQLite's one writer, so it runs on a
/// thread of its own (``offCooperativePool(_:)``), never on one of Swift's cooperative threads:
/// there are only as many of those as cores, and a request waiting for the writer there held one
/// (on two cores, one write and one waiting request stopped every other request of the server,
/// down to the start of their injected latency, a read-back that needs no writer included).
struct OrgResponder: HTTPResponder {
    typealias Context = OrgRequestContext

    /// The API that answers requests.
    let api: OrgAPI
    /// The fault injector's state.
    let faults: NIOLockedValueBox<FaultPlan>
    /// The request log, when configured.
    let log: RequestLog?
    /// The largest accepted request body, in bytes.
    let maxBodySize: Int
    /// Called before each request is served.
    var observer: (@Sendable (_ method: String, _ target: String) -> Void)? = nil

    private static let jsonContentType = "application/json;charset=UTF-8"

    func respond(to request: Request, context: OrgRequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let arrived = Date()
        let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        let method = request.method.rawValue

        let action = faults.withLockedValue { $0.nextAction() }
        let latency = faults.withLockedValue { $0.configuration.latency }
        if latency > .zero {
            try? await Task.sleep(for: latency)
        }

        if let observer { await Self.offCooperativePool { observer(method, target) } }
        let reply: OrgHTTPResponse
        switch action {
        case .dropConnection:
            context.logger.debug("Dropping the connection without a response (fail-after)")
            // Logged before the close, so whoever sees the drop also finds it in the log.
            logRequest(method: method, target: target, status: nil, since: started, arrived: arrived)
            try? await context.channel.close()
            // The channel is closed, so Hummingbird's attempt to write this response fails and the
            // client sees the connection drop.
            return Response(status: .internalServerError)
        case .fail(let status):
            reply = .error(.injectedFailure(status: status), version: .newest)
        case .serve:
            reply = await serve(request, method: method, target: target)
        case .serveThenDropConnection:
            _ = await serve(request, method: method, target: target)
            context.logger.debug("Dropping the connection after serving the request (lost response)")
            logRequest(method: method, target: target, status: nil, since: started, arrived: arrived)
            try? await context.channel.close()
            return Response(status: .internalServerError)
        }
        logRequest(method: method, target: target, status: reply.status, since: started, arrived: arrived)
        return makeResponse(reply)
    }

    private func serve(_ request: Request, method: String, target: String) async -> OrgHTTPResponse {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: maxBodySize)
            let request = OrgHTTPRequest(
                method: method,
                target: target,
                headers: request.headers,
                body: Data(buffer.readableBytesView)
            )
            return await Self.offCooperativePool { [api] in api.handle(request) }
        } catch {
            return .error(.requestTooLarge(maximum: maxBodySize), version: .newest)
        }
    }

    /// Runs `body`, which may block (SQLite's writer, a test's observer), on a serial dispatch queue
    /// of its own, which libdispatch serves with an overcommit thread (started when every other
    /// thread is busy), and resumes with its result; the calling task's thread is free meanwhile.
    static func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "syncrun.local-org.request").async { continuation.resume(returning: body()) }
        }
    }

    private func makeResponse(_ reply: OrgHTTPResponse) -> Response {
        var headers = HTTPFields()
        if reply.isJSON, !reply.body.isEmpty {
            headers[.contentType] = Self.jsonContentType
        }
        headers[Self.limitInfoHeader] = api.usage.headerValue
        for (name, value) in reply.headers {
            if let fieldName = HTTPField.Name(name) { headers.append(HTTPField(name: fieldName, value: value)) }
        }
        let body = reply.body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body))
        return Response(status: HTTPResponse.Status(code: reply.status), headers: headers, body: body)
    }

    private func logRequest(
        method: String,
        target: String,
        status: Int?,
        since started: ContinuousClock.Instant,
        arrived: Date
    ) {
        guard let log else { return }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        log.append(
            RequestLogEntry(
                method: method,
                path: target,
                status: status,
                durationMs: (milliseconds * 1000).rounded() / 1000,
                startedAt: (arrived.timeIntervalSince1970 * 1_000_000).rounded() / 1000
            )
        )
    }

    // Registered once; `Sforce-Limit-Info` is a valid token, so the force-free initializer cannot fail.
    private static let limitInfoHeader = HTTPField.Name("Sforce-Limit-Info") ?? .contentLocation
}
