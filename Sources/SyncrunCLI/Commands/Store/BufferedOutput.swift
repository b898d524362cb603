import Foundation

/// Standard output in 64 KiB writes, for commands that stream many rows.
struct BufferedOutput {
    private var buffer = Data()
    private let limit = 1 << 16

    init() { buffer.reserveCapacity(limit + 4096) }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardStreams.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
