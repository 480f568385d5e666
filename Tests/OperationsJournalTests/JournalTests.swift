import Testing

/// Groups the journal suites, so `swift test --filter JournalTests` runs all of them.
@Suite enum JournalTests {}
