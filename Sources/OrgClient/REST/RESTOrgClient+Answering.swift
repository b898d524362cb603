import Logging

extension RESTOrgClient {
    /// A client that sends nothing: `answer` gets each request's method and target (path and query)
    /// and returns the status and body the org answers with. For fuzzing the response decoding in
    /// process, without a socket.
    package init(
        configuration: Configuration,
        logger: Logger,
        answering answer: @escaping @Sendable (_ method: String, _ target: String) -> (status: Int, body: String)
    ) {
        self.init(configuration: configuration, logger: logger) { _, request, _ in
            let reply = answer(request.method.rawValue, request.target)
            return IncomingResponse(
                status: reply.status,
                headers: [(name: "Content-Type", value: "application/json;charset=UTF-8")],
                body: reply.body
            )
        }
    }
}
