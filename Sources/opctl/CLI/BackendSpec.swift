import AuthFlow
import AuthSimulator
import Foundation
import OperationsRunner

/// Where `--backend` points: the embedded simulator with its options, or a real server.
///
/// `sim:` (the default) or `sim:?code=123456&terms=1&termsVersion=2&latency=50&fail=code.verify:2,phone:1`
/// (`termsChange=code.send` publishes new terms just before the first request to that endpoint);
/// `http://…` (and on Apple platforms `https://…`) for a server that implements Docs/HTTP-API.md.
enum BackendSpec: Equatable {
    /// The in-process simulator.
    case simulator(Simulator)
    /// A real server at this base URL.
    case server(URL)

    /// The simulator's options, as the query string gives them.
    struct Simulator: Equatable {
        var code = "123456"
        var termsRequired = true
        var termsVersion = "1"
        var latencyMilliseconds = 0
        var failures: [SimulatedBackend.Endpoint: Int] = [:]
        /// Endpoints before whose first request the terms change, as if during the run.
        var termsChanges: Set<SimulatedBackend.Endpoint> = []
    }

    /// Whether this build of opctl reaches `https://` servers: only where it links
    /// AuthFlowURLSession (Package.swift), which is where URLSession is part of Foundation.
    #if canImport(Darwin)
        // Apple platforms: URLSession comes with Foundation, so https:// costs the start nothing.
        static let speaksHTTPS = true
    #else
        // Linux: URLSession is FoundationNetworking, which opctl does not link (half its start-up).
        static let speaksHTTPS = false
    #endif

    /// The spec used when `--backend` is not given.
    static let defaultSpec = "sim:"

    /// Parses a spec.
    ///
    /// - Throws: ``UsageError`` naming the part that is wrong.
    init(parsing spec: String) throws {
        if spec.hasPrefix("http://") || spec.hasPrefix("https://") {
            guard let url = URL(string: spec), url.host != nil, url.port.map({ (1...65_535).contains($0) }) ?? true
            else {
                throw UsageError("--backend: '\(ParsedArguments.clip(spec))' is not a valid server URL")
            }
            guard spec.hasPrefix("http://") || Self.speaksHTTPS else {
                throw UsageError(
                    "--backend: opctl on Linux speaks plain http:// only (https:// would load libcurl at every"
                        + " start); point it at an http:// server, or build your runner with AuthFlowURLSession")
            }
            self = .server(url)
            return
        }
        guard spec.hasPrefix("sim:") else {
            throw UsageError(
                "unknown backend '\(ParsedArguments.clip(spec))': use 'sim:' with options, or an http(s):// URL")
        }
        var options = Simulator()
        var query = spec.dropFirst("sim:".count)
        if query.hasPrefix("?") { query = query.dropFirst() }
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw UsageError("backend option '\(pair)' needs a value (name=value)") }
            try options.set(parts[0], parts[1])
        }
        self = .simulator(options)
    }
}

extension BackendSpec.Simulator {
    fileprivate mutating func set(_ name: String, _ value: String) throws {
        switch name {
        case "code":
            guard (4...8).contains(value.count), value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) else {
                throw UsageError("backend option code=… must be 4 to 8 digits")
            }
            code = value
        case "terms":
            guard value == "0" || value == "1" else { throw UsageError("backend option terms=… must be 0 or 1") }
            termsRequired = value == "1"
        case "termsVersion":
            guard !value.isEmpty, value.count <= 32 else {
                throw UsageError("backend option termsVersion=… must be 1 to 32 characters")
            }
            termsVersion = value
        case "latency":
            guard let milliseconds = Int(value), (0...60_000).contains(milliseconds) else {
                throw UsageError("backend option latency=… must be milliseconds from 0 to 60000")
            }
            latencyMilliseconds = milliseconds
        case "fail":
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ":").map(String.init)
                guard parts.count == 2, let endpoint = SimulatedBackend.Endpoint(rawValue: parts[0]),
                    let count = Int(parts[1]), (0...100).contains(count)
                else {
                    throw UsageError(
                        "backend option fail=… takes ENDPOINT:COUNT items (endpoints: \(Self.endpointNames))")
                }
                failures[endpoint] = count
            }
        case "termsChange":
            for item in value.split(separator: ",") {
                guard let endpoint = SimulatedBackend.Endpoint(rawValue: String(item)) else {
                    throw UsageError("backend option termsChange=… takes endpoints (\(Self.endpointNames))")
                }
                termsChanges.insert(endpoint)
            }
        default:
            throw UsageError(
                "unknown backend option '\(ParsedArguments.clip(name))' "
                    + "(code, terms, termsVersion, latency, fail, termsChange)")
        }
    }

    private static var endpointNames: String {
        SimulatedBackend.Endpoint.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The simulator configuration these options describe.
    func configuration(onSMS: (@Sendable (SimulatedSMS) -> Void)?) -> SimulatedBackend.Configuration {
        var configuration = SimulatedBackend.Configuration()
        configuration.smsCode = code
        configuration.termsRequired = termsRequired
        configuration.termsVersion = termsVersion
        configuration.latency = .milliseconds(latencyMilliseconds)
        var faults = failures.mapValues { [SimulatedBackend.Fault.unavailable(times: $0)] }
        // After the failures: the terms change before the request that is answered normally.
        for endpoint in termsChanges { faults[endpoint, default: []].append(.termsChanged(times: 1)) }
        configuration.faults = faults
        configuration.onSMS = onSMS
        return configuration
    }
}
