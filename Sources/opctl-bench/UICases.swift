import Foundation
import Operations
import OperationsJournal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The web view's cases: pages served by the built `opctl ui --port 0` over 127.0.0.1, fetched
/// the way a browser fetches them (one connection a page, the whole answer read), as a person
/// opening them waits for them (Docs/Benchmarks.md, "The web view").
enum UICases {
    static let all: [BenchCase] = [
        process(
            "ui.runsPage", "the runs page over a state directory of 10,000 runs (2,000 with --quick), served",
            targets: [.atMost(nanoseconds: 300_000_000)], runsPage),
        process(
            "ui.runPage", "a run's page with its 10,000-message diagram drawn whole (depth 3) as SVG, served",
            targets: [.atMost(nanoseconds: 500_000_000)], runPage),
        ProcessCases.opctl == nil || memory == nil
            ? .unavailable("ui.memory", memorySummary, targets: [memoryTarget])
            : BenchCase(
                id: "ui.memory", summary: memorySummary, reference: nil, targets: [memoryTarget],
                measure: .residentGrowth { memory?($0) ?? 0 }),
    ]

    private static let memorySummary =
        "resident-size growth of opctl ui from its 1,000th to its 10,000th page load (runs, a run, its SVG)"
    private static let memoryTarget = BenchTarget.bytesBelow(4_000_000)

    private static func process(
        _ id: String, _ summary: String, targets: [BenchTarget], _ body: (@Sendable (Int) -> Void)?
    ) -> BenchCase {
        guard let body, ProcessCases.opctl != nil else { return .unavailable(id, summary, targets: targets) }
        return .timed(id, summary, targets: targets, body)
    }

    #if !(os(macOS) || os(Linux))
        // No Foundation Process on iOS, tvOS, watchOS and visionOS: no server to start there.
        private static let runsPage: (@Sendable (Int) -> Void)? = nil
        private static let runPage: (@Sendable (Int) -> Void)? = nil
        private static let memory: (@Sendable (Int) -> Int)? = nil
    #else
        private static let runsPage: (@Sendable (Int) -> Void)? = loading { (runsServer, "/") }
        private static let runPage: (@Sendable (Int) -> Void)? = loading { (runServer, "/runs/\(bigRun)?depth=3") }

        /// A body loading the page `target` names `iterations` times from its server.
        private static func loading(_ target: @escaping @Sendable () -> (Server, String)) -> @Sendable (Int) -> Void {
            { iterations in
                let (server, path) = target()
                for _ in 0..<iterations { BlackHole.consume(server.get(path)) }
            }
        }

        /// `ui.memory`: one server of its own over a small state directory, loaded `launches / 100`
        /// times (10,000 in a full run), the runs page, a run's page and its SVG in turn; the growth
        /// of its resident size from a tenth of the loads to the last.
        private static let memory: (@Sendable (Int) -> Int)? = { launches in
            let loads = max(10, min(launches / 100, 10_000))
            let server = Server(stateDirectory: ScaleFixture.make(runs: 20))
            defer { server.stop() }
            let run = ScaleFixture.failedRun.rawValue
            let paths = ["/", "/runs/\(run)", "/runs/\(run)/diagram?format=svg"]
            for index in 0..<loads / 10 { BlackHole.consume(server.get(paths[index % 3])) }
            let before = server.residentBytes()
            for index in loads / 10..<loads { BlackHole.consume(server.get(paths[index % 3])) }
            return max(0, server.residentBytes() - before)
        }

        /// The server of the runs page's state directory: 10,000 runs, or the scale's fewer.
        private static var runsServer: Server {
            shared(ScaleFixture.make(runs: min(10_000, BenchScale.current.runs)))
        }

        /// The server of a state directory holding one failed run whose trace is
        /// ``RenderCases/trace(messages:framed:)`` of 10,000 messages.
        private static var runServer: Server { shared(bigRunDirectory) }

        /// The run of ``runServer``.
        private static let bigRun = ScaleFixture.failedRun.rawValue

        /// A copy of a failed run of the scale fixture, its trace replaced by 10,000 messages in
        /// the lines `opctl run` writes (one encoded `TraceEvent` a line).
        private static let bigRunDirectory: URL = {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opctl-bench-ui-run")
            let runs = directory.appendingPathComponent("runs")
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
            let source = ScaleFixture.make(runs: 2).appendingPathComponent("runs")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: source.path)) ?? []
            for name in names where name.hasPrefix(bigRun + ".") && !name.hasSuffix(".trace.jsonl") {
                try? FileManager.default.copyItem(
                    at: source.appendingPathComponent(name), to: runs.appendingPathComponent(name))
            }
            let encoder = JSONEncoder()
            var lines = Data()
            for event in RenderCases.trace(messages: 10_000).events {
                guard let line = try? encoder.encode(event) else {
                    fatalError("opctl-bench: a trace event does not encode")
                }
                lines += line + [UInt8(ascii: "\n")]
            }
            do {
                try lines.write(to: runs.appendingPathComponent("\(bigRun).trace.jsonl"))
            } catch {
                fatalError("opctl-bench: could not write the trace of \(directory.path): \(error)")
            }
            return directory
        }()

        /// One server per state directory for the whole run of the benchmark, stopped at its exit.
        private static let servers = Mutex<[URL: Server]>([:])

        private static func shared(_ directory: URL) -> Server {
            servers.withLock { servers in
                if let server = servers[directory] { return server }
                if servers.isEmpty { atexit { UICases.stopAll() } }
                let server = Server(stateDirectory: directory)
                servers[directory] = server
                return server
            }
        }

        private static func stopAll() {
            for server in servers.withLock({ $0.values }) { server.stop() }
        }

        /// A running `opctl ui --port 0`, its port read from its first line.
        final class Server: Sendable {
            private let process: Process
            let port: UInt16

            init(stateDirectory: URL) {
                guard let opctl = ProcessCases.opctl else { fatalError("opctl-bench: no opctl beside the benchmark") }
                let process = Process()
                process.executableURL = opctl
                process.arguments = ["ui", "--port", "0"]
                var environment = ProcessInfo.processInfo.environment
                environment["OPCTL_STATE_DIR"] = stateDirectory.path
                process.environment = environment
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                } catch {
                    fatalError("opctl-bench: opctl ui did not start: \(error)")
                }
                // "Serving the runs of opctl at http://127.0.0.1:PORT/ (Ctrl-C stops)"
                var banner = Data()
                while !banner.contains(UInt8(ascii: "\n")) {
                    let more = output.fileHandleForReading.availableData
                    guard !more.isEmpty else { break }
                    banner += more
                }
                let text = String(decoding: banner, as: UTF8.self)
                guard let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)\//), let port = UInt16(match.1) else {
                    process.terminate()
                    fatalError("opctl-bench: opctl ui said no port: \(text)")
                }
                self.process = process
                self.port = port
            }

            /// Stops the server with Ctrl-C's signal and waits for it.
            func stop() {
                guard process.isRunning else { return }
                kill(process.processIdentifier, SIGINT)
                process.waitUntilExit()
            }

            /// The server's resident size in bytes (`/proc/PID/statm`); 0 where there is no `/proc`.
            func residentBytes() -> Int {
                #if os(Linux)
                    guard
                        let statm = try? String(
                            contentsOfFile: "/proc/\(process.processIdentifier)/statm", encoding: .utf8),
                        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
                    else { return 0 }
                    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
                #else
                    // No /proc (Darwin): no other process's resident size without its task port.
                    return 0
                #endif
            }

            /// `GET path` on a connection of its own, read to the end: the answer's size in bytes.
            func get(_ path: String) -> Int {
                // Glibc imports SOCK_STREAM as the enum __socket_type; Darwin and Musl as an Int32.
                #if canImport(Glibc)
                    let kind = Int32(SOCK_STREAM.rawValue)
                #else
                    let kind = SOCK_STREAM
                #endif
                let descriptor = socket(AF_INET, kind, 0)
                guard descriptor >= 0 else { fatalError("opctl-bench: no socket: errno \(errno)") }
                defer { close(descriptor) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard connected == 0 else { fatalError("opctl-bench: cannot connect to opctl ui: errno \(errno)") }
                let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
                var sent = 0
                while sent < request.count {
                    let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { fatalError("opctl-bench: the request was not sent: errno \(errno)") }
                    sent += count
                }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                var total = 0
                var head = [UInt8]()
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    if head.count < 12 { head += buffer[..<min(count, 12 - head.count)] }
                    total += count
                }
                guard head.starts(with: Array("HTTP/1.1 200".utf8)) else {
                    fatalError("opctl-bench: opctl ui answered \(path) with \(String(decoding: head, as: UTF8.self))")
                }
                return total
            }
        }
    #endif
}
