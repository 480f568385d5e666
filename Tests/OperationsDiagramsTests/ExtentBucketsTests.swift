import Testing

@testable import Operations
@testable import OperationsDiagrams

/// Fitting finds the labels a narrowing changes through `ExtentBuckets` instead of scanning the
/// gap. These tests hold it to that scan: the same entries, in the same order, after any
/// sequence of narrowings, so that a drawing never changes because of the index.
@Suite struct ExtentBucketsTests {
    /// A deterministic generator, so a failure reproduces.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    /// The scan the index replaces: positions of entries wider than `limit`, in list order.
    private static func scan(_ extents: [Int32], widerThan limit: Int) -> [Int32] {
        extents.indices.filter { Int(extents[$0]) > limit }.map(Int32.init)
    }

    @Test func findsWhatTheScanFindsThroughEveryNarrowing() {
        var generator = Generator(state: 14)
        for _ in 0..<200 {
            var extents = (0..<Int.random(in: 0...60, using: &generator)).map { _ in
                Int32.random(in: 0...40, using: &generator)
            }
            var buckets = ExtentBuckets(extents: extents)
            var size = Int(extents.max() ?? 0)
            while size > 0 {
                let limit = size - 1
                #expect(buckets.positions(widerThan: limit) == Self.scan(extents, widerThan: limit))
                let taken = buckets.take(widerThan: limit)
                #expect(taken == Self.scan(extents, widerThan: limit))
                for position in taken {
                    // Wrapping narrower: at most the limit, sometimes much less.
                    let extent = Int.random(in: 0...limit, using: &generator)
                    extents[Int(position)] = Int32(extent)
                    buckets.put(position, extent: extent)
                }
                buckets.settle()
                #expect(buckets.top == Int(extents.max() ?? -1))
                size = limit
            }
        }
    }

    @Test func gathersEntriesFromSeveralExtentsInListOrder() {
        var buckets = ExtentBuckets(extents: [5, 9, 7, 9, 2, 8])
        #expect(buckets.positions(widerThan: 6) == [1, 2, 3, 5])
        #expect(buckets.take(widerThan: 6) == [1, 2, 3, 5])
        #expect(buckets.top == 5)
        // An entry put back wider than the limit (a grapheme wider than the room) is found again.
        buckets.put(3, extent: 7)
        buckets.put(5, extent: 1)
        buckets.settle()
        #expect(buckets.top == 7)
        #expect(buckets.positions(widerThan: 4) == [0, 3])
    }

    @Test func anEmptyGapHasNothingToNarrow() {
        var buckets = ExtentBuckets(extents: [])
        #expect(buckets.top == -1)
        #expect(buckets.take(widerThan: 0).isEmpty)
    }
}
