import Operations

/// The labels of one gap grouped by how many columns each takes (its extent), for fitting.
///
/// Fitting narrows a gap one column at a time, and each time only the labels as wide as the gap
/// are wrapped again. Finding them by scanning every label of the gap made fitting quadratic in
/// practice: a gap of a 100,000-message trace holds thousands of labels and narrows dozens of
/// times, and the scans alone read hundreds of megabytes (`render.100k` took 12.4 times
/// `render.10k`). Grouped by extent, a narrowing reads only the labels it changes.
///
/// Entries are identified by their position in the gap's list; within a bucket positions stay in
/// ascending order, so the labels of a narrowing are visited in the order of the list, as the
/// scan visited them (the harm of a narrowing is a sum of doubles, and its order is kept).
struct ExtentBuckets {
    /// The positions of the entries of each extent, ascending.
    private var buckets: [[Int32]]
    /// The largest extent that has an entry; -1 when there is none.
    private(set) var top: Int
    /// Buckets that received positions since the last ``settle()``.
    private var touched: [Int] = []

    /// Groups entries by extent; `extents[position]` is the extent of the entry at `position`.
    init(extents: [Int32]) {
        let largest = Int(extents.max() ?? -1)
        buckets = Array(repeating: [], count: largest + 1)
        top = largest
        for (position, extent) in extents.enumerated() {
            buckets[Int(extent)].append(Int32(truncatingIfNeeded: position))
        }
    }

    /// The positions of the entries wider than `limit`, ascending.
    func positions(widerThan limit: Int) -> [Int32] {
        guard top > limit else { return [] }
        // Usually every such entry is as wide as the gap: one bucket, shared rather than copied.
        if top == limit + 1 || (limit + 1..<top).allSatisfy({ buckets[$0].isEmpty }) { return buckets[top] }
        return buckets[(limit + 1)...top].joined().sorted()
    }

    /// Removes the entries wider than `limit` and returns their positions, ascending; the caller
    /// puts each back with its new extent (``put(_:extent:)``), then calls ``settle()``.
    mutating func take(widerThan limit: Int) -> [Int32] {
        let taken = positions(widerThan: limit)
        guard !taken.isEmpty else { return [] }
        for extent in (limit + 1)...top { buckets[extent].removeAll() }
        top = limit
        while top >= 0 && buckets[top].isEmpty { top -= 1 }
        return taken
    }

    /// Puts an entry back with its extent; positions put in ascending order.
    mutating func put(_ position: Int32, extent: Int) {
        if extent >= buckets.count { buckets += Array(repeating: [], count: extent + 1 - buckets.count) }
        if let last = buckets[extent].last, last > position { touched.append(extent) }
        buckets[extent].append(position)
        top = max(top, extent)
    }

    /// Restores ascending order in the buckets that received positions: each holds two ascending
    /// runs, which the standard library's sort merges in one pass.
    mutating func settle() {
        for extent in touched { buckets[extent].sort() }
        touched.removeAll(keepingCapacity: true)
    }
}
