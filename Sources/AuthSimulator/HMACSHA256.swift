/// HMAC-SHA256 (RFC 2104) over ``SHA256``, for signing the simulator's development tokens.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`; a key longer than a block is
    /// hashed first, as the RFC says.
    package static func authenticationCode(for message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        var block = key.count > SHA256.blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: SHA256.blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Compares two codes in time that depends only on their length, so a forger cannot learn a
    /// signature byte by byte from how fast it is rejected; `true` when they are equal.
    package static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
