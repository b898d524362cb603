import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `syncrun-bench page-server`: serves precomputed Salesforce query pages of Account-shaped records
/// over loopback HTTP, so that a client's cost can be measured without the server's.
///
/// Every page is built once at start as the exact bytes of a query response body; serving a page
/// is a lookup. `GET /services/data/vNN.N/query?q=…` (any query) answers the first page and
/// `GET /services/data/vNN.N/query/<locator>` the next ones. Any Bearer (or OAuth) token is
/// accepted. On start it prints one JSON line, `{"url": "http://127.0.0.1:PORT", "token": "…"}`,
/// then serves until killed.
///
/// The records come as a real query ordered by `LastModifiedDate` returns them: the dates ascend,
/// the Ids and Names are in effectively random order (a fixed pseudo-random permutation; the
/// same on every start). `--order ascending` gives Ids and Names in ascending order too. A server
/// can serve a part of a larger result (`--universe`, `--first`, `--every`), and `--revision R`
/// serves changed versions of those records (a later `LastModifiedDate`, another `Industry`), to
/// measure resyncs and syncs into a non-empty soup.
///
/// ```sh
/// syncrun-bench page-server --records 100000 --page-size 2000 --port 0
/// syncrun-bench page-server --universe 1000000 --first 900000 --records 100000   # the last 10%, new
/// syncrun-bench page-server --universe 1000000 --every 10 --records 100000 --revision 1  # 10% changed
/// ```
struct PageServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page-server",
        abstract: "Serve precomputed query pages of Account records (the sync-down benchmark's server)."
    )

    @Option(help: "Records in the query result.") var records = 100_000
    @Option(help: "Records per page (Salesforce's default is 2000).") var pageSize = 2000
    @Option(help: "The port on 127.0.0.1; 0 picks a free one.") var port = 0
    @Option(help: "Order of Ids and Names: random (as a real query returns them) or ascending.")
    var order = AccountOrder.random
    @Option(help: "Records of the whole data set the Ids are drawn from (default: --records).") var universe: Int?
    @Option(help: "Position in the data set of the first record served.") var first = 0
    @Option(help: "Serve every n-th record of the data set from --first.") var every = 1
    @Option(help: "0: the records as first written; R > 0: their R-th changed version.") var revision = 0

    func validate() throws {
        guard records >= 0 else { throw ValidationError("--records must not be negative") }
        guard pageSize >= 1 else { throw ValidationError("--page-size must be at least 1") }
        guard first >= 0, every >= 1, revision >= 0 else {
            throw ValidationError("--first and --revision must not be negative, --every must be at least 1")
        }
        let size = universe ?? records
        guard records == 0 || first + (records - 1) * every < size else {
            throw ValidationError("--first, --every and --records reach past --universe")
        }
    }

    func run() async throws {
        let selection = AccountSelection(
            universe: universe ?? records,
            first: first,
            every: every,
            revision: revision,
            order: order
        )
        let pages = PageSet(records: records, pageSize: pageSize, selection: selection)
        let app = Application(
            responder: PageResponder(pages: pages),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                let line =
                    "{\"url\": \"http://127.0.0.1:\(bound)\", \"token\": \"page-server-token\", "
                    + "\"records\": \(pages.records), \"pages\": \(pages.bodies.count), \"bytes\": \(pages.totalBytes)}\n"
                // Written straight to the descriptor so a reading script sees it at once (no stdio buffer).
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: .init(label: "syncrun-bench.page-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await app.runService()
    }
}

/// The precomputed response bodies.
struct PageSet: Sendable {
    let records: Int
    let pageSize: Int
    /// Page `i` holds records `i * pageSize ..< (i + 1) * pageSize`; an empty result has one page.
    let bodies: [ByteBuffer]
    let totalBytes: Int

    /// The locator prefix of `nextRecordsUrl` (a query cursor id is 15 or 18 characters, `01g…`).
    static let locatorPrefix = "01gAi00000PgSrvAAA"

    init(records: Int, pageSize: Int, selection: AccountSelection) {
        self.records = records
        self.pageSize = pageSize
        let pageCount = max(1, (records + pageSize - 1) / pageSize)
        var bodies: [ByteBuffer] = []
        bodies.reserveCapacity(pageCount)
        var total = 0
        for page in 0..<pageCount {
            let start = page * pageSize
            let end = min(records, start + pageSize)
            var text = "{\"totalSize\":\(records),\"done\":\(end >= records)"
            if end < records {
                text += ",\"nextRecordsUrl\":\"/services/data/v62.0/query/\(Self.locatorPrefix)-\(end)\""
            }
            text += ",\"records\":["
            for index in start..<end {
                if index > start { text += "," }
                selection.append(index, to: &text)
            }
            text += "]}"
            total += text.utf8.count
            bodies.append(ByteBuffer(string: text))
        }
        self.bodies = bodies
        self.totalBytes = total
    }

    /// The page a locator (`…-<records served so far>`) points at.
    func page(forLocator locator: Substring) -> ByteBuffer? {
        guard let dash = locator.lastIndex(of: "-"), let offset = Int(locator[locator.index(after: dash)...]),
            offset >= 0, offset % pageSize == 0, offset / pageSize < bodies.count
        else { return nil }
        return bodies[offset / pageSize]
    }
}

/// One Account-shaped record of 10 fields (about 430 bytes) as a query returns it.
enum AccountRecord {
    private static let industries = ["Technology", "Banking", "Energy", "Retail", "Healthcare", "Manufacturing"]
    private static let cities = [
        ("San Francisco", "United States"), ("London", "United Kingdom"), ("Paris", "France"),
        ("Berlin", "Germany"), ("Tokyo", "Japan"), ("Sydney", "Australia"),
    ]
    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    private static let suffixAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345")
    /// 2024-03-05T17:04:11Z: the first record's LastModifiedDate; each next record is one second later.
    private static let baseEpoch = 1_709_658_251

    /// A valid-looking 18-character Account id (`001…`, with the case-checksum suffix).
    static func id(_ index: Int) -> String {
        var body = Array("001Ai00000")
        var rest: [Character] = []
        var value = index
        for _ in 0..<5 {
            rest.append(digits[value % 62])
            value /= 62
        }
        body += rest.reversed()
        var suffix = ""
        for chunk in 0..<3 {
            var bits = 0
            for position in 0..<5 where body[chunk * 5 + position].isUppercase {
                bits |= 1 << position
            }
            suffix.append(suffixAlphabet[bits])
        }
        return String(body) + suffix
    }

    /// The wire format of a datetime, `2024-03-05T17:04:11.000+0000`.
    static func lastModifiedDate(_ index: Int) -> String {
        var time = time_t(baseEpoch + index)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.000+0000",
            Int(parts.tm_year) + 1900,
            Int(parts.tm_mon) + 1,
            Int(parts.tm_mday),
            Int(parts.tm_hour),
            Int(parts.tm_min),
            Int(parts.tm_sec)
        )
    }

    /// Appends record `index` (its Id, Name and other fields) with the `LastModifiedDate` of
    /// `modified` seconds after the base date; `revision > 0` changes its `Industry`.
    static func append(_ index: Int, modified: Int, revision: Int = 0, to text: inout String) {
        let id = id(index)
        let number = String(format: "%06d", index)
        let (city, country) = cities[index % cities.count]
        let industry = revision == 0 ? industries[index % industries.count] : "Changed \(revision)"
        text += "{\"attributes\":{\"type\":\"Account\",\"url\":\"/services/data/v62.0/sobjects/Account/\(id)\"},"
        text += "\"Id\":\"\(id)\",\"Name\":\"Account \(number) Holdings International\","
        text += "\"Industry\":\"\(industry)\",\"Phone\":\"+1 (415) 555-\(number.suffix(4))\","
        text += "\"Website\":\"https://www.account-\(number).example.com\",\"BillingCity\":\"\(city)\","
        text += "\"BillingCountry\":\"\(country)\",\"NumberOfEmployees\":\(index % 50_000 + 10),"
        text += "\"AnnualRevenue\":\(index % 1000 * 12_345 + 1_000_000).5,"
        text += "\"LastModifiedDate\":\"\(lastModifiedDate(modified))\"}"
    }
}

/// How Ids and Names follow the (ascending) modification dates.
enum AccountOrder: String, ExpressibleByArgument, Sendable {
    /// Effectively random, as a query ordered by `LastModifiedDate` returns them.
    case random
    /// Ascending with the dates (every index insert appends).
    case ascending
}

/// Which records of a data set of `universe` Accounts a server returns, in which order.
///
/// Position `p` of the data set holds record `permutation[p]` (its Id, Name and other fields) and
/// the `LastModifiedDate` `p` seconds after the base date (`universe * revision + p` for a changed
/// version, later than every original). The served records are positions `first`,
/// `first + every`, … in that order, so their dates ascend as a query ordered by them returns.
struct AccountSelection: Sendable {
    let universe: Int
    let first: Int
    let every: Int
    let revision: Int
    private let permutation: [Int32]?

    init(universe: Int, first: Int = 0, every: Int = 1, revision: Int = 0, order: AccountOrder) {
        self.universe = universe
        self.first = first
        self.every = every
        self.revision = revision
        permutation = order == .random ? Self.shuffled(universe) : nil
    }

    /// Appends the `served`-th record this server returns.
    func append(_ served: Int, to text: inout String) {
        let position = first + served * every
        let index = permutation.map { Int($0[position]) } ?? position
        AccountRecord.append(index, modified: universe * revision + position, revision: revision, to: &text)
    }

    /// `0..<count` in a fixed pseudo-random order (Fisher-Yates over SplitMix64, seed fixed).
    private static func shuffled(_ count: Int) -> [Int32] {
        var values = (0..<count).map { Int32($0) }
        var state: UInt64 = 0x5EED_0F_5EED
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var index = count - 1
        while index > 0 {
            let other = Int(next() % UInt64(index + 1))
            values.swapAt(index, other)
            index -= 1
        }
        return values
    }
}

/// Answers the two query routes from the precomputed pages, and the version resources.
struct PageResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let pages: PageSet

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard request.method == .get else { return Self.error(.methodNotAllowed, "METHOD_NOT_ALLOWED") }
        let authorization = request.headers[.authorization] ?? ""
        guard authorization.hasPrefix("Bearer ") || authorization.hasPrefix("OAuth ") else {
            return Self.error(.unauthorized, "INVALID_SESSION_ID")
        }
        let parts = request.uri.path.split(separator: "/")
        // services / data / vNN.N: the version's resources, whose `identity` URL names the org and
        // user (`syncrun sync` records them in the store before its first write).
        if parts.count == 3, parts[0] == "services", parts[1] == "data" {
            let identity = "http://127.0.0.1/id/00D000000000001AAA/005000000000001AAA"
            return Response(
                status: .ok,
                headers: [.contentType: "application/json;charset=UTF-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"identity\":\"\(identity)\"}"))
            )
        }
        // services / data / vNN.N / query[All] [/ locator]
        guard parts.count >= 4, parts[0] == "services", parts[1] == "data", parts[3].hasPrefix("query") else {
            return Self.error(.notFound, "NOT_FOUND")
        }
        let body: ByteBuffer?
        switch parts.count {
        case 4: body = pages.bodies.first
        case 5: body = pages.page(forLocator: parts[4])
        default: body = nil
        }
        guard let body else { return Self.error(.badRequest, "INVALID_QUERY_LOCATOR") }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json;charset=UTF-8"],
            body: ResponseBody(byteBuffer: body)
        )
    }

    private static func error(_ status: HTTPResponse.Status, _ code: String) -> Response {
        let text = "[{\"message\":\"\(code)\",\"errorCode\":\"\(code)\",\"fields\":[]}]"
        return Response(
            status: status,
            headers: [.contentType: "application/json;charset=UTF-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}
