import DataModel
import Foundation

/// The functions `NSExpression` knows by name (`now()`, `sum:(x)`, `canonical:(name)` …) and
/// the key-path collection operators (`@count`, `@sum.price` …).
enum PredicateFunction {
    case now, random
    case sum, count, min, max, average, median, mode, stddev
    case sqrt, log, ln, exp, floor, ceiling, abs, trunc
    case raise, modulus, add, subtract, multiply, divide
    case bitwiseAnd, bitwiseOr, bitwiseXor, leftShift, rightShift, onesComplement
    case uppercase, lowercase, canonical, noindex
    case cast(String)

    /// Looks a function up by the name it is written with; the trailing colon is optional and
    /// case does not matter. Answers the function and how many arguments it takes (`nil`: any).
    static func named(_ name: String) -> (PredicateFunction, arity: Int?)? {
        var key = name.lowercased()
        while key.hasSuffix(":") { key.removeLast() }
        switch key {
        case "now": return (.now, 0)
        case "random": return (.random, 0)
        case "sum": return (.sum, nil)
        case "count": return (.count, nil)
        case "min": return (.min, nil)
        case "max": return (.max, nil)
        case "average", "avg": return (.average, nil)
        case "median": return (.median, nil)
        case "mode": return (.mode, nil)
        case "stddev": return (.stddev, nil)
        case "sqrt": return (.sqrt, 1)
        case "log": return (.log, 1)
        case "ln": return (.ln, 1)
        case "exp": return (.exp, 1)
        case "floor": return (.floor, 1)
        case "ceiling": return (.ceiling, 1)
        case "abs": return (.abs, 1)
        case "trunc": return (.trunc, 1)
        case "raise:topower": return (.raise, 2)
        case "modulus:by": return (.modulus, 2)
        case "add:to": return (.add, 2)
        case "from:subtract": return (.subtract, 2)
        case "multiply:by": return (.multiply, 2)
        case "divide:by": return (.divide, 2)
        case "bitwiseand:with": return (.bitwiseAnd, 2)
        case "bitwiseor:with": return (.bitwiseOr, 2)
        case "bitwisexor:with": return (.bitwiseXor, 2)
        case "leftshift:by": return (.leftShift, 2)
        case "rightshift:by": return (.rightShift, 2)
        case "onescomplement": return (.onesComplement, 1)
        case "uppercase": return (.uppercase, 1)
        case "lowercase": return (.lowercase, 1)
        case "canonical": return (.canonical, 1)
        case "noindex": return (.noindex, 1)
        default: return nil
        }
    }

    func apply(_ arguments: [Any?]) -> Any? {
        switch self {
        case .now: return Date()
        case .random: return Double.random(in: 0..<1)
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev:
            // One collection argument (`sum:(prices)`), or the values themselves.
            let values: [Any] = arguments.count == 1
                ? (PredicateValues.elements(arguments[0]) ?? arguments.compactMap(PredicateValues.normalized))
                : arguments.compactMap(PredicateValues.normalized)
            return Self.aggregate(self, values)
        case .sqrt: return Self.double(arguments[0]).map { Foundation.sqrt($0) }
        case .log: return Self.double(arguments[0]).map { Foundation.log10($0) }
        case .ln: return Self.double(arguments[0]).map { Foundation.log($0) }
        case .exp: return Self.double(arguments[0]).map { Foundation.exp($0) }
        case .floor: return Self.double(arguments[0]).map { Foundation.floor($0) }
        case .ceiling: return Self.double(arguments[0]).map { Foundation.ceil($0) }
        case .trunc: return Self.double(arguments[0]).map { Foundation.trunc($0) }
        case .abs: return Arithmetic.absolute(arguments[0])
        case .raise: return Arithmetic.apply(.power, arguments[0], arguments[1])
        case .add: return Arithmetic.apply(.add, arguments[0], arguments[1])
        case .subtract: return Arithmetic.apply(.subtract, arguments[0], arguments[1])
        case .multiply: return Arithmetic.apply(.multiply, arguments[0], arguments[1])
        case .divide: return Arithmetic.apply(.divide, arguments[0], arguments[1])
        case .modulus:
            guard let a = Self.integer(arguments[0]), let b = Self.integer(arguments[1]), b != 0 else {
                guard let a = Self.double(arguments[0]), let b = Self.double(arguments[1]) else { return nil }
                return fmod(a, b)
            }
            return a % b
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            guard let a = Self.integer(arguments[0]), let b = Self.integer(arguments[1]) else { return nil }
            switch self {
            case .bitwiseAnd: return a & b
            case .bitwiseOr: return a | b
            case .bitwiseXor: return a ^ b
            case .leftShift: return a << b
            default: return a >> b
            }
        case .onesComplement: return Self.integer(arguments[0]).map { ~$0 }
        case .uppercase: return PredicateValues.string(arguments[0])?.uppercased()
        case .lowercase: return PredicateValues.string(arguments[0])?.lowercased()
        case .canonical:
            // Core Data's canonical form: case and accents folded, for derived search keys.
            return PredicateValues.string(arguments[0]).map {
                StringMatching.fold($0, [.caseInsensitive, .diacriticInsensitive])
            }
        case .noindex: return arguments[0]
        case .cast(let type): return Self.cast(arguments[0], to: type)
        }
    }

    static func double(_ value: Any?) -> Double? {
        guard let scalar = ScalarValue.from(PredicateValues.normalized(value)), scalar.isNumber else { return nil }
        return scalar.doubleValue
    }

    static func integer(_ value: Any?) -> Int? {
        guard let scalar = ScalarValue.from(PredicateValues.normalized(value)) else { return nil }
        switch scalar {
        case .int(let value): return Int(exactly: value)
        case .double(let value): return Int(exactly: value.rounded(.towardZero))
        case .decimal(let value): return Int(exactly: NSDecimalNumber(decimal: value).doubleValue.rounded(.towardZero))
        default: return nil
        }
    }

    /// `CAST(value, 'NSDate')` and friends: dates and numbers convert through seconds since
    /// 2001-01-01, as Core Data writes dates in predicates.
    static func cast(_ value: Any?, to type: String) -> Any? {
        let value = PredicateValues.normalized(value)
        switch type {
        case "NSDate", "Date":
            if let date = value as? Date { return date }
            return double(value).map { Date(timeIntervalSinceReferenceDate: $0) }
        case "NSNumber", "NSDecimalNumber", "Double", "Int":
            if let string = PredicateValues.string(value) { return Double(string) }
            if let date = value as? Date { return date.timeIntervalSinceReferenceDate }
            return value
        case "NSString", "String":
            guard let value else { return nil }
            return PredicateValues.string(value) ?? String(describing: value)
        default:
            return value
        }
    }

    private static func aggregate(_ function: PredicateFunction, _ values: [Any]) -> Any? {
        if function == .count { return values.count }
        let scalars = values.compactMap { ScalarValue.from($0) }
        switch function {
        case .min, .max:
            var best: Any?
            var bestScalar: ScalarValue?
            for (value, scalar) in zip(values, values.map { ScalarValue.from($0) }) {
                guard let scalar else { continue }
                guard let current = bestScalar else {
                    best = value
                    bestScalar = scalar
                    continue
                }
                let order = ValueComparison.compare(scalar, current, PredicateComparisonOptions())
                if order == (function == .min ? .orderedAscending : .orderedDescending) {
                    best = value
                    bestScalar = scalar
                }
            }
            return best
        case .mode:
            var counts: [(value: Any, count: Int)] = []
            for value in values {
                if let index = counts.firstIndex(where: { ValueComparison.equal($0.value, value) }) {
                    counts[index].count += 1
                } else {
                    counts.append((value, 1))
                }
            }
            return counts.max { $0.count < $1.count }?.value
        default:
            break
        }
        let numbers = scalars.filter(\.isNumber)
        if function == .sum {
            if numbers.allSatisfy({ if case .int = $0 { true } else { false } }) {
                var total: Int64 = 0
                for case .int(let value) in numbers {
                    let (sum, overflow) = total.addingReportingOverflow(value)
                    if overflow { return numbers.compactMap(\.doubleValue).reduce(0, +) }
                    total = sum
                }
                return Int(total)
            }
            if numbers.contains(where: { if case .decimal = $0 { true } else { false } }) {
                return numbers.compactMap(\.decimalValue).reduce(Decimal(0), +)
            }
            return numbers.compactMap(\.doubleValue).reduce(0, +)
        }
        let doubles = numbers.compactMap(\.doubleValue)
        guard !doubles.isEmpty else { return nil }
        let mean = doubles.reduce(0, +) / Double(doubles.count)
        switch function {
        case .average: return mean
        case .median:
            let sorted = doubles.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        default:
            return Foundation.sqrt(doubles.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(doubles.count))
        }
    }
}

extension PredicateFunction: Equatable {}

/// `+ - * / **` and unary minus on numbers (and dates plus or minus seconds).
enum Arithmetic {
    static func apply(_ op: PredicateArithmeticOperator, _ left: Any?, _ right: Any?) -> Any? {
        guard let a = ScalarValue.from(PredicateValues.normalized(left)),
              let b = ScalarValue.from(PredicateValues.normalized(right)) else { return nil }
        switch (a, b) {
        case (.date(let date), _) where b.isNumber && (op == .add || op == .subtract):
            let seconds = b.doubleValue ?? 0
            return date.addingTimeInterval(op == .add ? seconds : -seconds)
        case (.date(let x), .date(let y)) where op == .subtract:
            return x.timeIntervalSince(y)
        case (.int(let x), .int(let y)) where op != .divide && op != .power:
            let (value, overflow): (Int64, Bool) = switch op {
            case .add: x.addingReportingOverflow(y)
            case .subtract: x.subtractingReportingOverflow(y)
            default: x.multipliedReportingOverflow(by: y)
            }
            if !overflow { return Int(value) }
        case (.decimal, _), (_, .decimal):
            guard op != .power, let x = a.decimalValue, let y = b.decimalValue else { break }
            switch op {
            case .add: return x + y
            case .subtract: return x - y
            case .multiply: return x * y
            default: return y == 0 ? nil : x / y
            }
        default:
            break
        }
        guard a.isNumber, b.isNumber, let x = a.doubleValue, let y = b.doubleValue else { return nil }
        switch op {
        case .add: return x + y
        case .subtract: return x - y
        case .multiply: return x * y
        case .divide: return x / y
        case .power: return pow(x, y)
        }
    }

    static func negate(_ value: Any?) -> Any? {
        switch ScalarValue.from(PredicateValues.normalized(value)) {
        case .int(let x): x == .min ? -Double(x) : Int(-x)
        case .double(let x): -x
        case .decimal(let x): -x
        default: nil
        }
    }

    static func absolute(_ value: Any?) -> Any? {
        switch ScalarValue.from(PredicateValues.normalized(value)) {
        case .int(let x): x == .min ? Swift.abs(Double(x)) : Int(Swift.abs(x))
        case .double(let x): Swift.abs(x)
        case .decimal(let x): x < 0 ? -x : x
        default: nil
        }
    }
}
