/// Which values Apple's Foundation (64-bit) holds as tagged pointers, not as objects: such a
/// value is the same object wherever it occurs, so Apple's archiver writes it once (see
/// ``KeyedArchiveWriter``). Strings: up to 7 ASCII characters, up to 9 of a 64-character
/// alphabet, up to 11 of its first 32 characters (the encodings of Apple's tagged `NSString`);
/// integers of up to 56 bits.
enum AppleTaggedPointers {
    private static let sixBitAlphabet = Array("eilotrm.apdnsIc ufkMShjTRxgC4013bDNvwyUL2O856P-B79AFKEWV_zGJ/HYX".utf8)

    /// Whether each byte is in `sixBitAlphabet` (a bit per byte value), and in its first 32.
    private static let inAlphabet: [Bool] = (0..<128).map { sixBitAlphabet.contains(UInt8($0)) }
    private static let inFirst32: [Bool] = (0..<128).map { sixBitAlphabet.prefix(32).contains(UInt8($0)) }

    static func canHold(_ string: String) -> Bool {
        // Called for every string archived: no allocation.
        let characters = string.utf8
        let count = characters.count
        guard count <= 11, characters.allSatisfy({ $0 < 0x80 }) else { return false }
        switch count {
        case 0...7: return true
        case 8...9: return characters.allSatisfy { inAlphabet[Int($0)] }
        default: return characters.allSatisfy { inFirst32[Int($0)] }
        }
    }

    static func canHold(_ integer: Int64) -> Bool {
        integer >= -(1 << 55) && integer < (1 << 55)
    }
}
