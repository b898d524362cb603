import Foundation
import LocalOrg

/// The local org's request handling, in process: the first line is `METHOD TARGET` (the target a
/// path with its query string), the rest the body. Requests carry the org's token, so they reach
/// the routes past authentication.
enum LocalOrgTarget {
    private static let server: LocalOrgServer? = {
        let folder = FuzzWorkspace.folder.appendingPathComponent("local-org")
        guard let database = try? OrgDatabase(directory: folder, schema: .standard) else { return nil }
        return try? LocalOrgServer(configuration: LocalOrgConfiguration(pageSize: 50), database: database)
    }()

    static func run(_ bytes: [UInt8]) async {
        guard let server else { return }
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let requestLine = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = newline < bytes.endIndex ? Data(bytes[(newline + 1)...]) : Data()
        let parts = requestLine.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return }
        _ = server.respondInProcess(
            method: String(parts[0]),
            target: String(parts[1]),
            headers: [
                (name: "Authorization", value: "Bearer \(server.accessToken)"),
                (name: "Content-Type", value: "application/json"),
            ],
            body: body
        )
    }
}
