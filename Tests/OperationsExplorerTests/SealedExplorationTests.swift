import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// The explorer runs a flow with the team's sealer (`FaultExplorer(sealer:)`): every journal is
/// created, resumed and checked with it, as the team's program does. Here the sealer is what keeps
/// a rerun true to the first session: the device's key, made anew on each launch, is confidential,
/// so without a sealer the journal withholds it and a rerun makes another — and ends holding a key
/// the server never registered. With the sealer the rerun replays the key it registered.
struct SealedExplorationTests {
    /// A key the device makes: a secret the journal may hold only sealed.
    struct DeviceKey: Codable, Sendable, Hashable, JournalConfidential {
        let secret: String
    }

    /// The server's side: registers the first key it is sent under each idempotency key.
    final class KeyServer: Sendable {
        let world: FaultWorld
        private let registered = LockedState<[String: DeviceKey]>([:])

        init(world: FaultWorld) { self.world = world }

        /// The keys it registered, whatever idempotency key they came under.
        var keys: Set<DeviceKey> { Set(registered.withLock { $0.values }) }

        func register(_ key: DeviceKey, under idempotencyKey: IdempotencyKey?) -> Result<Void, any Error> {
            let fault = world.request("register")
            switch fault {
            case .failBeforeActing?, .serverError?, .tooManyRequests?: return .failure(ExploredService.Unreachable())
            default: break
            }
            registered.withLock { registered in
                let slot = idempotencyKey?.rawValue ?? UUID().uuidString
                if registered[slot] == nil {
                    registered[slot] = key
                    world.performed("register")
                }
            }
            return fault == .loseAnswer || fault == .timeOut ? .failure(ExploredService.LostAnswer()) : .success(())
        }
    }

    /// Makes a new key on every launch: pure, so the engine launches it again whenever it has no
    /// output to replay.
    final class MakeKeyOp: Op {
        let made: LockedState<Int>
        init(_ made: LockedState<Int>) { self.made = made }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<DeviceKey>) {
            let number = made.withLock { made in
                made += 1
                return made
            }
            Completion(retaining: self, context: context, onFinish: onFinish)
                .finish(.success(DeviceKey(secret: SealedExplorationTests.secret(number))))
        }
    }

    /// Registers the device's key, and keeps it.
    final class RegisterOp: Op {
        let server: KeyServer
        init(_ server: KeyServer) { self.server = server }

        func launch(_ context: OpContext<DeviceKey>, onFinish: @escaping OnFinish<DeviceKey>) {
            let registered = server.register(context.input, under: context.idempotencyKey(for: "register"))
            Completion(retaining: self, context: context, onFinish: onFinish)
                .finish(registered.map { context.input })
        }
    }

    static func secret(_ number: Int) -> String { "devkey\(number)x" }

    private static func explorer(sealer: (any JournalSealer)?) -> FaultExplorer<Int, DeviceKey> {
        FaultExplorer(maxFaults: 1, sealer: sealer) { world in
            let server = KeyServer(world: world)
            let made = LockedState(0)
            let kept = LockedState<DeviceKey?>(nil)
            let scenario = Scenario<Int, DeviceKey>("Enrol") { chain in
                chain
                    .then(Step("MakeKey", purity: .pure) { MakeKeyOp(made) })
                    // One attempt: a lost answer ends the session, and a rerun registers again.
                    .then(Step("Register", purity: .sideEffects) { RegisterOp(server) })
            }
            return ExploredFlow(
                scenario: scenario, input: 1, secrets: (1...6).map(Self.secret),
                finishedWhen: { result in
                    guard case .success(let key) = result else { return false }
                    kept.withLock { $0 = key }
                    return true
                },
                finalCheck: {
                    let device = kept.withLock { $0 }
                    guard let device, server.keys == [device] else {
                        let registered = server.keys.map(\.secret).sorted()
                        return "the device kept \(device?.secret ?? "no key"), the server registered \(registered)"
                    }
                    return nil
                })
        }
    }

    @Test func withTheTeamsSealerARerunKeepsTheKeyItRegistered() async {
        let explorer = Self.explorer(sealer: XORSealer(key: 0x5A))
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 20, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func withoutOneTheWithheldKeyIsMadeAgainAndTheRunEndsWithAnotherKey() async throws {
        let explorer = Self.explorer(sealer: nil)
        let report = await OwnThread.run { explorer.explore() }
        let violation = try #require(report.violations.first, "the withheld key went unnoticed")
        #expect(violation.problems.contains { $0.hasPrefix("the device kept devkey2x") }, "\(violation)")
    }
}
