/// Orders names the way Finder does: runs of digits compare by numeric value, so
/// `Model 9` comes before `Model 10`; letters compare without regard to case. Names that
/// compare equal that way fall back to plain string order, so the order is total.
func naturallyOrdered(_ lhs: String, _ rhs: String) -> Bool {
    var left = lhs.unicodeScalars[...]
    var right = rhs.unicodeScalars[...]
    while let l = left.first, let r = right.first {
        if isDigit(l), isDigit(r) {
            let leftDigits = left.prefix(while: isDigit)
            let rightDigits = right.prefix(while: isDigit)
            let leftNumber = leftDigits.drop(while: { $0 == "0" })
            let rightNumber = rightDigits.drop(while: { $0 == "0" })
            if leftNumber.count != rightNumber.count { return leftNumber.count < rightNumber.count }
            if !leftNumber.elementsEqual(rightNumber) { return leftNumber.lexicographicallyPrecedes(rightNumber) }
            left = left.dropFirst(leftDigits.count)
            right = right.dropFirst(rightDigits.count)
            continue
        }
        let lowerL = l.properties.lowercaseMapping
        let lowerR = r.properties.lowercaseMapping
        if lowerL != lowerR { return lowerL < lowerR }
        left = left.dropFirst()
        right = right.dropFirst()
    }
    if left.isEmpty != right.isEmpty { return left.isEmpty }
    return lhs < rhs
}

private func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
