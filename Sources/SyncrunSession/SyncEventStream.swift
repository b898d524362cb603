import SyncEngine

/// The event stream of a run: the engine (or the migrator) yields ``SyncEngine/SyncEvent``s into
/// a continuation while the caller's consumer (the CLI's renderer) reads them concurrently; the
/// stream is finished and the consumer awaited whether the work returns or throws.
public enum SyncEventStream {
    /// Runs `work` with the continuation while `consume` reads the stream.
    public static func run<T: Sendable>(
        consume: @escaping @Sendable (AsyncStream<SyncEvent>) async -> Void,
        _ work: (AsyncStream<SyncEvent>.Continuation) async throws -> T
    ) async throws -> T {
        let (events, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
        async let consuming: Void = consume(events)
        let result: T
        do {
            result = try await work(continuation)
        } catch {
            continuation.finish()
            await consuming
            throw error
        }
        continuation.finish()
        await consuming
        return result
    }
}
