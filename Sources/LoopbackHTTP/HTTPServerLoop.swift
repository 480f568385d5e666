import Dispatch
import Foundation
import HTTPWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thread behind ``HTTPServer``: one `poll` loop over the listener, a wake-up pipe and every
/// connection, all non-blocking, so no client can block it and the thread count never grows.
///
/// Other threads reach the loop only through ``Mailbox`` (handlers' answers and the stop
/// request) and a byte written to the wake-up pipe; everything else is the loop thread's alone.
final class HTTPServerLoop: @unchecked Sendable {
    // @unchecked: `connections`, `nextID` and `acceptPausedUntil` are touched only by `run()` on
    // the loop thread; what other threads touch is immutable or inside `mailbox`/`loopThread`.

    /// What other threads hand the loop.
    private struct Mailbox {
        var answers: [(id: UInt64, reply: HTTPServer.Exchange.Reply)] = []
        var stopRequested = false
        /// The pipe's write end; -1 once the loop has ended and closed it, so a late answer is
        /// dropped instead of written to a descriptor number that may belong to someone else.
        var wakeWrite: Int32
    }

    private let listener: Int32
    private let wakeRead: Int32
    private let handler: HTTPServer.Handler
    private let limits: HTTPServer.Limits
    private let log: (@Sendable (HTTPServer.LogEntry) -> Void)?
    private let refusal: HTTPServer.Refusal
    private let mailbox: Locked<Mailbox>
    private let loopThread = Locked<pthread_t?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let clock = ContinuousClock()

    private var connections: [UInt64: Connection] = [:]
    private var nextID: UInt64 = 0
    private var acceptPausedUntil: ContinuousClock.Instant?

    /// Takes ownership of `listener` (closed here if the loop cannot be set up).
    init(
        listener: Int32, handler: @escaping HTTPServer.Handler, limits: HTTPServer.Limits,
        log: (@Sendable (HTTPServer.LogEntry) -> Void)?, refusal: @escaping HTTPServer.Refusal
    ) throws(HTTPServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let code = errno
            close(listener)
            throw .systemCall("pipe", code: code)
        }
        guard SocketCalls.configure(listener), SocketCalls.configure(ends[0]), SocketCalls.configure(ends[1]) else {
            let code = errno
            close(listener)
            close(ends[0])
            close(ends[1])
            throw .systemCall("fcntl", code: code)
        }
        self.listener = listener
        self.wakeRead = ends[0]
        self.mailbox = Locked(Mailbox(wakeWrite: ends[1]))
        self.handler = handler
        self.limits = limits
        self.log = log
        self.refusal = refusal
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "HTTPServer"
        thread.start()
    }

    /// Asks the loop to end and waits until it has closed the listener and every connection;
    /// from the loop's own thread (a log callback) it only asks.
    func stop() {
        mailbox.withLock { mailbox in
            mailbox.stopRequested = true
            Self.wake(mailbox.wakeWrite)
        }
        let onLoopThread = loopThread.withLock { thread in
            thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        guard !onLoopThread else { return }
        finished.wait()
        finished.signal()  // for the next caller of stop()
    }

    // MARK: - The loop

    private func run() {
        loopThread.withLock { $0 = pthread_self() }
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let now = clock.now
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var accepting = false
            let roomForMore = connections.count < limits.maxConnections || connections.values.contains { $0.isIdle }
            if roomForMore, acceptPausedUntil.map({ now >= $0 }) ?? true {
                acceptPausedUntil = nil
                accepting = true
                descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            }
            let polled = Array(connections.values)
            let first = descriptors.count
            for connection in polled {
                descriptors.append(pollfd(fd: connection.fd, events: connection.events, revents: 0))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), pollTimeout(now: now))

            if descriptors[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 256)
                while bytes.withUnsafeMutableBytes({ systemRead(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
            }
            let (answers, stopping) = mailbox.withLock { mailbox in
                defer { mailbox.answers = [] }
                return (mailbox.answers, mailbox.stopRequested)
            }
            if stopping { break }
            for answer in answers { deliver(answer.reply, to: answer.id) }
            for (offset, connection) in polled.enumerated() {
                let revents = descriptors[first + offset].revents
                // A connection closed earlier in this pass (its number possibly reused) is skipped.
                guard revents != 0, connections[connection.id] === connection else { continue }
                handle(connection, revents: revents, scratch: &scratch)
            }
            if accepting, descriptors[1].revents != 0 { acceptPending() }
            expireDeadlines()
        }
        end()
    }

    /// Milliseconds until the nearest deadline, or -1 (wait for an event) when there is none.
    private func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        var nearest = connections.values.map(\.deadline).min()
        if let paused = acceptPausedUntil { nearest = min(nearest ?? paused, paused) }
        guard let nearest else { return -1 }
        let (seconds, attoseconds) = (nearest - now).components
        let milliseconds = (Double(seconds) * 1_000 + Double(attoseconds) / 1e15).rounded(.up)
        return Int32(max(0, min(milliseconds, 60_000)))
    }

    private func end() {
        for connection in Array(connections.values) { discard(connection) }
        close(listener)
        mailbox.withLock { mailbox in
            close(mailbox.wakeWrite)
            mailbox.wakeWrite = -1
            mailbox.answers = []
        }
        close(wakeRead)
        finished.signal()
    }

    // MARK: - Accepting

    /// Accepts what waits in the backlog, up to ``acceptBurst`` per pass so that the connections
    /// already open are read in between. At ``HTTPServer/Limits/maxConnections`` each newcomer
    /// closes the idle connection that has waited longest, as ``HTTPServer`` promises: first those
    /// that connected and have sent nothing, oldest first, then those whose answer is already sent.
    private func acceptPending() {
        // Taken once per pass, idlest first: what arrives in this pass is not among them.
        var evictable: [Connection]?
        var nextVictim = 0
        for _ in 0..<Self.acceptBurst {
            if connections.count >= limits.maxConnections {
                evictable =
                    evictable
                    ?? connections.values.filter(\.isIdle).sorted {
                        ($0.phase.isLingering ? 1 : 0, $0.id) < ($1.phase.isLingering ? 1 : 0, $1.id)
                    }
                guard nextVictim < evictable?.count ?? 0 else { return }
            }
            guard let fd = ServerSocket.accept(listener) else {
                switch errno {
                case EAGAIN, EWOULDBLOCK:
                    return
                case EINTR, ECONNABORTED:
                    continue
                default:
                    // Out of descriptors or memory: the listener stays readable, so polling it now
                    // would spin. Pause; closing connections frees what the next accept needs.
                    acceptPausedUntil = clock.now + .milliseconds(100)
                    return
                }
            }
            nextID += 1
            let now = clock.now
            connections[nextID] = Connection(id: nextID, fd: fd, openedAt: now, deadline: now + limits.readTimeout)
            if connections.count > limits.maxConnections, let victims = evictable {
                // Accepted first, so a spurious wake-up of the listener closes nobody.
                discard(victims[nextVictim])
                nextVictim += 1
            }
        }
    }

    // MARK: - Events

    private func handle(_ connection: Connection, revents: Int16, scratch: inout [UInt8]) {
        if revents & Int16(POLLNVAL) != 0 {
            discard(connection)
            return
        }
        switch connection.phase {
        case .readingHead, .readingBody:
            read(connection, scratch: &scratch)
        case .awaitingAnswer:
            // Anything the client sends now is surplus; its end of stream means it has gone.
            let count = receive(connection, scratch: &scratch)
            if count == 0 || (count < 0 && !SocketCalls.wouldBlock) || revents & Int16(POLLHUP | POLLERR) != 0 {
                record(connection, .clientLeft)
                discard(connection)
            } else if count > 0 {
                connection.surplus += count
            }
        case .writing:
            write(connection)
        case .lingering:
            let count = receive(connection, scratch: &scratch)
            if count == 0 || (count < 0 && !SocketCalls.wouldBlock) {
                discard(connection)
            } else if count > 0 {
                connection.surplus += count
                if connection.surplus > Self.lingerLimit { discard(connection) }
            }
        }
    }

    private func receive(_ connection: Connection, scratch: inout [UInt8]) -> Int {
        scratch.withUnsafeMutableBytes { ServerSocket.receive(connection.fd, into: $0) }
    }

    private func read(_ connection: Connection, scratch: inout [UInt8]) {
        let count = receive(connection, scratch: &scratch)
        if count < 0 && SocketCalls.wouldBlock { return }
        if count <= 0 {
            // The client stopped mid-request (or sent nothing): there is no one to answer.
            if case .readingBody = connection.phase { record(connection, .clientLeft) }
            discard(connection)
            return
        }
        if connection.firstByteAt == nil { connection.firstByteAt = clock.now }
        connection.input.append(contentsOf: scratch[0..<count])
        advance(connection)
    }

    /// Moves a connection on as far as the bytes it has allow: head parsed, body complete,
    /// request handed to the handler — or rejected.
    private func advance(_ connection: Connection) {
        if case .readingHead = connection.phase {
            if connection.scanned == 0 {
                // RFC 9112 §2.2: blank lines before a request line are ignored.
                let blanks = connection.input.prefix { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }.count
                if blanks > 0 { connection.input.removeFirst(blanks) }
            }
            let end = HTTPHeadSyntax.headEnd(in: connection.input, from: connection.scanned)
            guard (end ?? connection.input.count) <= limits.maxHeaderBytes else {
                return rejectOversizedHead(connection)
            }
            guard let end else {
                connection.scanned = HTTPHeadSyntax.resumePoint(after: connection.input.count)
                return
            }
            let head: RequestHead
            do throws(RequestRejection) {
                head = try RequestHeadParser.parse(
                    connection.input[0..<end], maxBodyBytes: limits.maxBodyBytes, methods: limits.methods)
            } catch {
                noteRequestLine(of: connection)
                reject(connection, error)
                return
            }
            connection.method = head.method
            connection.target = head.target
            connection.input.removeFirst(end)
            if head.expectsContinue, connection.input.count < head.contentLength {
                let sent = ResponseEncoding.continueInterim.withUnsafeBytes { SocketCalls.send(connection.fd, $0) }
                // A partial interim answer would garble the final one; a client that cannot take
                // 25 bytes now has gone anyway.
                if sent >= 0 && sent < ResponseEncoding.continueInterim.count {
                    discard(connection)
                    return
                }
            }
            connection.phase = .readingBody(head)
        }
        if case .readingBody(let head) = connection.phase, connection.input.count >= head.contentLength {
            dispatch(connection, head, body: Data(connection.input.prefix(head.contentLength)))
        }
    }

    /// `414` when even the request line does not fit, `431` otherwise.
    private func rejectOversizedHead(_ connection: Connection) {
        noteRequestLine(of: connection)
        let lineFits = connection.input.prefix(limits.maxHeaderBytes).contains(UInt8(ascii: "\n"))
        reject(
            connection,
            lineFits
                ? RequestRejection(
                    431, "request_header_fields_too_large",
                    "The request head may have at most \(limits.maxHeaderBytes) bytes.")
                : RequestRejection(
                    414, "uri_too_long", "The request line may have at most \(limits.maxHeaderBytes) bytes."))
    }

    /// Reads the method and target of a request refused before its head was parsed, for the log.
    private func noteRequestLine(of connection: Connection) {
        guard let newline = connection.input.firstIndex(of: UInt8(ascii: "\n")) else { return }
        var line = connection.input[..<newline]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if let (method, target, _) = try? RequestHeadParser.requestLine(line) {
            connection.method = method
            connection.target = target
        }
    }

    // MARK: - Answering

    private func dispatch(_ connection: Connection, _ head: RequestHead, body: Data) {
        // HEAD is answered as GET; respond(_:_:includeBody:) drops the body.
        let request = HTTPServer.Request(
            method: head.method == "HEAD" ? "GET" : head.method, target: head.target, headers: head.headers,
            body: body)
        let id = connection.id
        let exchange = HTTPServer.Exchange(request: request) { [self] reply in post(reply, for: id) }
        connection.phase = .awaitingAnswer(head, exchange)
        connection.input = []
        connection.deadline = clock.now + limits.answerTimeout
        handler(exchange)
    }

    /// Hands a handler's answer to the loop, from whatever thread the handler answers on.
    private func post(_ reply: HTTPServer.Exchange.Reply, for id: UInt64) {
        mailbox.withLock { mailbox in
            guard mailbox.wakeWrite >= 0 else { return }
            mailbox.answers.append((id, reply))
            Self.wake(mailbox.wakeWrite)
        }
    }

    private func deliver(_ reply: HTTPServer.Exchange.Reply, to id: UInt64) {
        guard let connection = connections[id], case .awaitingAnswer(let head, _) = connection.phase else { return }
        switch reply {
        case .response(let response):
            respond(connection, response, includeBody: head.method != "HEAD")
        case .raw(let bytes):
            send(connection, bytes, status: ResponseEncoding.status(in: bytes))
        case .closeWithoutAnswer:
            // The backend acted but its answer was lost (a simulated fault): the client sees the
            // connection close without an answer, as it would on a real network.
            record(connection, .answerLost)
            discard(connection)
        }
    }

    private func reject(_ connection: Connection, _ rejection: RequestRejection) {
        var response = refusal(rejection.status, rejection.code, rejection.message)
        if rejection.status == 405 { response.headers["Allow"] = limits.methods.sorted().joined(separator: ", ") }
        respond(connection, response)
    }

    private func respond(_ connection: Connection, _ response: HTTPServer.Response, includeBody: Bool = true) {
        send(
            connection, ResponseEncoding.encode(response, includeBody: includeBody),
            status: (200...599).contains(response.status) ? response.status : 502)
    }

    /// Starts writing an answer's bytes; `status` is what the log says was sent.
    private func send(_ connection: Connection, _ bytes: [UInt8], status: Int) {
        connection.output = bytes
        connection.written = 0
        connection.input = []
        connection.phase = .writing
        connection.deadline = clock.now + limits.readTimeout
        record(connection, .answered(status: status))
        write(connection)
    }

    private func write(_ connection: Connection) {
        while connection.written < connection.output.count {
            let sent = connection.output.withUnsafeBytes { bytes in
                SocketCalls.send(connection.fd, UnsafeRawBufferPointer(rebasing: bytes[connection.written...]))
            }
            if sent < 0 {
                if SocketCalls.wouldBlock { return }
                discard(connection)
                return
            }
            connection.written += sent
        }
        // Sent: say so with a FIN, then read what the client still sends until it closes, so
        // the kernel does not answer unread bytes (a rejected body) with a reset that could
        // destroy the answer before the client reads it.
        connection.output = []
        ServerSocket.shutdownWrite(connection.fd)
        connection.phase = .lingering
        connection.surplus = 0
        connection.deadline = clock.now + min(limits.readTimeout, .seconds(2))
    }

    // MARK: - Time and endings

    private func expireDeadlines() {
        let now = clock.now
        for connection in Array(connections.values) where connection.deadline <= now {
            guard connections[connection.id] === connection else { continue }
            switch connection.phase {
            case .readingHead, .readingBody:
                if connection.firstByteAt == nil {
                    discard(connection)  // connected and said nothing: nothing to answer
                } else {
                    noteRequestLine(of: connection)
                    reject(
                        connection,
                        RequestRejection(408, "request_timeout", "The request did not arrive completely in time."))
                }
            case .awaitingAnswer(_, let exchange):
                exchange.abandon()
                respond(connection, refusal(504, "gateway_timeout", "The backend did not answer in time."))
            case .writing, .lingering:
                discard(connection)
            }
        }
    }

    /// Logs the request's outcome, once per connection.
    private func record(_ connection: Connection, _ outcome: HTTPServer.LogEntry.Outcome) {
        guard !connection.logged else { return }
        connection.logged = true
        guard let log else { return }
        let start = connection.firstByteAt ?? connection.openedAt
        log(
            HTTPServer.LogEntry(
                method: connection.method, target: connection.target, outcome: outcome, duration: clock.now - start))
    }

    /// Closes a connection at once, abandoning a request still waiting on the handler.
    private func discard(_ connection: Connection) {
        if case .awaitingAnswer(_, let exchange) = connection.phase { exchange.abandon() }
        close(connection.fd)
        connections[connection.id] = nil
    }

    // MARK: - Wake-up pipe

    private static func wake(_ fd: Int32) {
        guard fd >= 0 else { return }
        var byte: UInt8 = 1
        _ = systemWrite(fd, &byte, 1)  // full pipe: a wake-up is already pending
    }

    /// How much a client may still send after its answer before the connection is cut.
    private static let lingerLimit = 1 << 20

    /// The most connections accepted in one pass of the loop.
    private static let acceptBurst = 64
}

extension HTTPServerLoop {
    /// One client connection and where its single request stands.
    fileprivate final class Connection {
        enum Phase {
            case readingHead
            case readingBody(RequestHead)
            case awaitingAnswer(RequestHead, HTTPServer.Exchange)
            case writing
            /// Answer sent and write side shut; reading until the client closes.
            case lingering

            var isLingering: Bool {
                if case .lingering = self { true } else { false }
            }
        }

        let id: UInt64
        let fd: Int32
        let openedAt: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant
        var phase = Phase.readingHead
        var firstByteAt: ContinuousClock.Instant?
        var input: [UInt8] = []
        /// Where the search for the end of the head resumes.
        var scanned = 0
        var output: [UInt8] = []
        var written = 0
        /// Bytes received and thrown away after the request was complete.
        var surplus = 0
        var method = "-"
        var target = "-"
        var logged = false

        init(id: UInt64, fd: Int32, openedAt: ContinuousClock.Instant, deadline: ContinuousClock.Instant) {
            self.id = id
            self.fd = fd
            self.openedAt = openedAt
            self.deadline = deadline
        }

        /// Whether closing this connection loses no request: it connected and has sent nothing
        /// yet, or its answer is sent and it only lingers. Such connections make room for new
        /// ones when the server is full (``HTTPServerLoop/acceptPending()``).
        var isIdle: Bool {
            switch phase {
            case .readingHead: firstByteAt == nil
            case .lingering: true
            case .readingBody, .awaitingAnswer, .writing: false
            }
        }

        /// What to wait for in this phase.
        var events: Int16 {
            switch phase {
            case .readingHead, .readingBody, .lingering: Int16(POLLIN)
            // Surplus beyond a body's worth is no longer read; a hang-up is still reported.
            case .awaitingAnswer: surplus > 64 * 1024 ? 0 : Int16(POLLIN)
            case .writing: Int16(POLLOUT)
            }
        }
    }
}

// The loop has `read` and `write` methods of its own; these name the system calls.
#if canImport(Glibc)
    private let systemRead = Glibc.read
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
    private let systemWrite = Darwin.write
#endif
