import Operations

extension DiagramModel {
    /// Whether the PlantUML and Mermaid exports draw activation bars on a column.
    ///
    /// A key service's lifetime is not drawn (seeds/003: it spans the operation), and both tools
    /// draw an activation as the same box a context service's existence bar is, so a bar on a key
    /// service's lifeline would read as a lifetime it does not have. The text renderer draws its
    /// call bars narrower than a context service's head and X, so it keeps them.
    ///
    /// - Parameter column: The column's index.
    /// - Returns: `false` for a key service.
    func exportsBars(on column: Int) -> Bool {
        columns[column].participant.kind != .keyService
    }
}
