// The same generator as Tests/DataModelTests/Fuzz/SeededRandom.swift: test targets share no code.
/// SplitMix64: a small, fast generator whose sequence depends only on its seed, so every fuzz
/// run sees the same inputs and a failure reproduces from the seed printed with it.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }
}
