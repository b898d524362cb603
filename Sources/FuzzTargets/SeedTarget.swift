import Foundation
import LocalOrg

/// The data-tree seed reader: the bytes as `Account.json` seeded into a local org with the standard
/// schema.
enum SeedTarget {
    private static let database: OrgDatabase? = {
        let folder = FuzzWorkspace.folder.appendingPathComponent("seed-org")
        return try? OrgDatabase(directory: folder, schema: .standard)
    }()

    static func run(_ bytes: [UInt8]) async {
        guard let database else { return }
        let file = FuzzWorkspace.write(bytes, named: "Account.json")
        defer { FuzzWorkspace.cleanUp(file) }
        do {
            _ = try OrgSeeder(database: database).seed(files: [file])
        } catch {
            _ = String(describing: error)
        }
    }
}
