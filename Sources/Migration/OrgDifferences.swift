import OrgClient
import SOQL

/// Field names that differ between two orgs only by a namespace prefix (issue "migrate", item 4):
/// a managed package installed in one org and its fields created unpackaged in the other.
enum NamespaceMapping {
    /// The one name among `names` that `field` maps to: `ns__Field__c` → `Field__c`, or
    /// `Field__c` → `ns__Field__c`; `nil` when there is none or more than one (ambiguous).
    static func counterpart(of field: String, among names: [String]) -> String? {
        let lowered = field.lowercased()
        guard lowered.hasSuffix("__c") || lowered.hasSuffix("__r") else { return nil }
        var candidates: Set<String> = []
        if let unprefixed = unprefixed(lowered) {
            for name in names where name.lowercased() == unprefixed { candidates.insert(name) }
        }
        for name in names where unprefixed(name.lowercased()) == lowered { candidates.insert(name) }
        return candidates.count == 1 ? candidates.first : nil
    }

    /// `Field__c` for `ns__Field__c` (the prefix is the text before the first `__` when the rest
    /// still holds a `__` suffix); `nil` for a name without a namespace.
    private static func unprefixed(_ name: String) -> String? {
        guard let range = name.range(of: "__") else { return nil }
        let prefix = name[..<range.lowerBound]
        let rest = name[range.upperBound...]
        guard !prefix.isEmpty, rest.contains("__"), !rest.hasPrefix("_") else { return nil }
        return String(rest)
    }
}

/// `OwnerId` values mapped from source users to target users (issue "migrate", item 4): by
/// username; then by username with a sandbox suffix added or removed (`user@acme.com` ↔
/// `user@acme.com.uat`); then by email; else the target's running user, with a warning per user.
/// A rule that finds several target users is skipped (the next rule decides), never a guess.
struct OwnerMapping: Sendable {
    /// Source user id → target user id.
    var map: [String: String]
    /// One per source user whose records the running user owns instead. Owners that are not users
    /// (queues) are not in `map`: ``queueMap(for:)`` maps them.
    var warnings: [String]
    /// The source's queues, each with its target counterpart (same `DeveloperName`) and the
    /// objects that counterpart may own (the target's `QueueSobject` rows, lowercased).
    var queues: [Queue] = []

    struct Queue: Sendable, Hashable {
        var sourceID: String
        var developerName: String
        var targetID: String?
        var targetObjects: Set<String>
        /// The objects the queue may own in the source (only their records can be owned by it).
        var sourceObjects: Set<String> = []
    }

    /// Source queue id → target queue id for the records of `sobject`, and one warning per queue
    /// without a counterpart that may own `sobject` (its records go to the running user).
    func queueMap(for sobject: String, runningUser: String) -> (map: [String: String], warnings: [String]) {
        var map: [String: String] = [:]
        var warnings: [String] = []
        for queue in queues where queue.sourceObjects.contains(sobject.lowercased()) {
            if let target = queue.targetID, queue.targetObjects.contains(sobject.lowercased()) {
                map[queue.sourceID] = target
            } else {
                let why =
                    queue.targetID == nil
                    ? "has no counterpart in the target (no queue of the same DeveloperName)"
                    : "is a queue in the target that does not take \(sobject) records (no QueueSobject row)"
                warnings.append(
                    "\(sobject).OwnerId: the source's queue \(queue.developerName) \(why); its records are owned by "
                        + "the running user \(runningUser)"
                )
            }
        }
        return (map, warnings)
    }

    struct User: Sendable, Hashable {
        var id: String
        var username: String
        var email: String
    }

    static func build(source: any OrgClient, target: any OrgClient, runningUser: String) async throws -> OwnerMapping {
        let sourceUsers = try await users(of: source)
        let targetUsers = try await users(of: target)
        var mapping = mapping(sourceUsers, to: targetUsers, runningUser: runningUser)
        let sourceQueues = try await queues(of: source)
        let targetQueues = try await queues(of: target)
        let targetObjects = try await queueObjects(of: target)
        let sourceObjects = sourceQueues.isEmpty ? [:] : try await queueObjects(of: source)
        mapping.queues = sourceQueues.map { queue in
            let matches = targetQueues.filter { $0.developerName.lowercased() == queue.developerName.lowercased() }
            let target = matches.count == 1 ? matches[0].id : nil
            return Queue(
                sourceID: queue.id,
                developerName: queue.developerName,
                targetID: target,
                targetObjects: target.map { targetObjects[$0] ?? [] } ?? [],
                sourceObjects: sourceObjects[queue.id] ?? []
            )
        }
        return mapping
    }

    /// The org's queues (`Group` records of type `Queue`); none when the org serves no `Group`.
    private static func queues(of org: any OrgClient) async throws -> [(id: String, developerName: String)] {
        let query = SOQLQuery.select(
            fields: ["Id", "DeveloperName"],
            from: "Group",
            where: .comparison(SOQLFieldPath("Type"), .equal, .string("Queue"))
        )
        var queues: [(id: String, developerName: String)] = []
        do {
            for try await page in org.queryPages(query.text) {
                for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                    guard let id = record["Id"]?.stringValue, let name = record["DeveloperName"]?.stringValue else {
                        continue
                    }
                    queues.append((id, name))
                }
            }
        } catch let error as OrgClientError where error.serverErrorCode == "INVALID_TYPE" {
            return []
        }
        return queues
    }

    /// The objects each queue of the org may own, by queue id (lowercased names).
    private static func queueObjects(of org: any OrgClient) async throws -> [String: Set<String>] {
        let query = SOQLQuery.select(fields: ["QueueId", "SobjectType"], from: "QueueSobject")
        var result: [String: Set<String>] = [:]
        do {
            for try await page in org.queryPages(query.text) {
                for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                    guard let queue = record["QueueId"]?.stringValue, let type = record["SobjectType"]?.stringValue
                    else { continue }
                    result[queue, default: []].insert(type.lowercased())
                }
            }
        } catch let error as OrgClientError where error.serverErrorCode == "INVALID_TYPE" {
            return [:]
        }
        return result
    }

    /// The mapping rules, on users already read.
    static func mapping(_ sourceUsers: [User], to targetUsers: [User], runningUser: String) -> OwnerMapping {
        var byUsername: [String: [User]] = [:]
        var byEmail: [String: [User]] = [:]
        for user in targetUsers {
            byUsername[user.username.lowercased(), default: []].append(user)
            if !user.email.isEmpty { byEmail[user.email.lowercased(), default: []].append(user) }
        }
        var map: [String: String] = [:]
        var unmatched: [String] = []
        for user in sourceUsers {
            let username = user.username.lowercased()
            if let exact = byUsername[username], exact.count == 1 {
                map[user.id] = exact[0].id
            } else if let sandbox = onlySandboxVariant(of: username, among: targetUsers) {
                map[user.id] = sandbox.id
            } else if let email = byEmail[user.email.lowercased()], email.count == 1, !user.email.isEmpty {
                map[user.id] = email[0].id
            } else {
                unmatched.append(user.username)
            }
        }
        let warnings = unmatched.sorted().map {
            "OwnerId: the source's user \($0) has no counterpart in the target (by username, sandbox suffix or "
                + "email); their records are owned by the running user \(runningUser)"
        }
        return OwnerMapping(map: map, warnings: warnings)
    }

    /// The one user of `users` whose username is a sandbox variant of `username`; `nil` for none or several.
    private static func onlySandboxVariant(of username: String, among users: [User]) -> User? {
        let variants = users.filter { isSandboxVariant($0.username.lowercased(), of: username) }
        return variants.count == 1 ? variants.first : nil
    }

    /// Whether `one` and `other` are the same username but for one sandbox suffix (`.uat`) after
    /// the domain, on either side.
    static func isSandboxVariant(_ one: String, of other: String) -> Bool {
        func strips(_ long: String, to short: String) -> Bool {
            guard long.hasPrefix(short + "."), short.contains("@") else { return false }
            let suffix = long.dropFirst(short.count + 1)
            return !suffix.isEmpty && !suffix.contains(".") && !suffix.contains("@")
        }
        return strips(one, to: other) || strips(other, to: one)
    }

    private static func users(of org: any OrgClient) async throws -> [User] {
        let query = SOQLQuery.select(fields: ["Id", "Username", "Email"], from: "User")
        var users: [User] = []
        for try await page in org.queryPages(query.text) {
            for record in try page.body.parse()["records"]?.arrayValue ?? [] {
                guard let id = record["Id"]?.stringValue, let username = record["Username"]?.stringValue else {
                    continue
                }
                users.append(User(id: id, username: username, email: record["Email"]?.stringValue ?? ""))
            }
        }
        return users
    }
}
