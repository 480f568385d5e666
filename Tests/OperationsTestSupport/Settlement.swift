package import Operations

/// A payment's state as a poll sees it.
package struct Settlement: Sendable, Codable, Equatable {
    package var polls: Int
    package var isSettled: Bool

    package init(polls: Int, isSettled: Bool) {
        self.polls = polls
        self.isSettled = isSettled
    }
}

/// Answers "pending" for its first `pendingPolls` polls, then "settled".
package final class SettlementBoard: Sendable {
    private let count = LockedState(0)
    package let pendingPolls: Int

    package init(pendingPolls: Int) { self.pendingPolls = pendingPolls }

    package var polls: Int { count.withLock { $0 } }

    package func makeOp() -> SettlementOp { SettlementOp(board: self) }

    fileprivate func poll() -> Settlement {
        let number = count.withLock { count in
            count += 1
            return count
        }
        return Settlement(polls: number, isSettled: number > pendingPolls)
    }
}

/// One poll of a ``SettlementBoard``.
package final class SettlementOp: PureOp {
    private let board: SettlementBoard

    package init(board: SettlementBoard) { self.board = board }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Settlement>) {
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(board.poll())
    }
}
