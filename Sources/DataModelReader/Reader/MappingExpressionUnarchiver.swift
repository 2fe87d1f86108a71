/// Reads the `NSExpression` an `NSKeyedArchiver` graph holds (a mapping model's
/// `valueexpressiondata`: a binary property list with `$archiver`, `$top.root` and `$objects`,
/// objects referring to each other by UID) into a ``MappingExpression``. Only the expression
/// classes mapping models hold are read; any other is an error naming it.
enum MappingExpressionUnarchiver {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static func expression(fromArchive bytes: [UInt8]) throws(ReadError) -> MappingExpression {
        let archive: BinaryPropertyList.Value
        do {
            archive = try BinaryPropertyList.read(bytes)
        } catch {
            throw ReadError(description: error.description)
        }
        guard case .dictionary(let top) = archive,
              case .string("NSKeyedArchiver")? = top["$archiver"],
              case .array(let objects)? = top["$objects"],
              case .dictionary(let roots)? = top["$top"], case .uid(let root)? = roots["root"] else {
            throw ReadError(description: "not a keyed archive (no $archiver NSKeyedArchiver, $objects and $top.root)")
        }
        return try Graph(objects: objects).expression(root, depth: 0)
    }

    private struct Graph {
        let objects: [BinaryPropertyList.Value]
        /// Expressions in mapping models nest a few levels; deeper means a cycle of UIDs.
        static let maxDepth = 32

        func object(_ uid: Int) throws(ReadError) -> BinaryPropertyList.Value {
            guard uid >= 0, uid < objects.count else { throw ReadError(description: "UID \(uid) points past the \(objects.count) archived objects") }
            return objects[uid]
        }

        func string(_ value: BinaryPropertyList.Value?, _ what: String) throws(ReadError) -> String {
            if case .uid(let uid)? = value, case .string(let text) = try object(uid) { return text }
            throw ReadError(description: "the archived \(what) is not a string")
        }

        func className(of fields: [String: BinaryPropertyList.Value]) throws(ReadError) -> String {
            guard case .uid(let uid)? = fields["$class"], case .dictionary(let info) = try object(uid),
                  case .string(let name)? = info["$classname"] else {
                throw ReadError(description: "an archived object has no $class with a $classname")
            }
            return name
        }

        func expression(_ uid: Int, depth: Int) throws(ReadError) -> MappingExpression {
            guard depth < Self.maxDepth else { throw ReadError(description: "the archived expression nests more than \(Self.maxDepth) deep") }
            guard case .dictionary(let fields) = try object(uid) else {
                throw ReadError(description: "archived object \(uid) is not an expression")
            }
            let className = try className(of: fields)
            switch className {
            case "NSConstantValueExpression":
                guard case .uid(let valueUID)? = fields["NSConstantValue"] else { return .constant(.null) }
                switch try object(valueUID) {
                case .string("$null"): return .constant(.null)
                case .string(let text): return .constant(.string(text))
                case .integer(let value): return .constant(.integer(value))
                case .real(let value): return .constant(.double(value))
                case .boolean(let value): return .constant(.boolean(value))
                case .dictionary(let constant):
                    throw ReadError(description: "a constant of class \((try? self.className(of: constant)) ?? "unknown") (only strings, numbers and nil are read)")
                default:
                    throw ReadError(description: "a constant that is not a string, a number or nil")
                }
            case "NSVariableExpression":
                return .variable(try string(fields["NSVariable"], "variable name"))
            case "NSKeyPathSpecifierExpression":
                return .keyPath(try string(fields["NSKeyPath"], "key path"))
            case "NSFunctionExpression", "NSKeyPathExpression":
                guard case .uid(let operand)? = fields["NSOperand"] else { throw ReadError(description: "a function expression without an operand") }
                let selector = try string(fields["NSSelectorName"], "function selector")
                var arguments: [MappingExpression] = []
                if case .uid(let argumentsUID)? = fields["NSArguments"] {
                    guard case .dictionary(let array) = try object(argumentsUID), case .array(let elements)? = array["NS.objects"] else {
                        throw ReadError(description: "the arguments of \(selector) are not an archived array")
                    }
                    for element in elements {
                        guard case .uid(let argument) = element else { throw ReadError(description: "an argument of \(selector) is not an archived object") }
                        arguments.append(try expression(argument, depth: depth + 1))
                    }
                }
                return .function(operand: try expression(operand, depth: depth + 1), selector: selector, arguments: arguments)
            default:
                throw ReadError(description: "an expression of class \(className), which mapping models read here do not hold (constants, $variables, key paths and FUNCTION(...) are read)")
            }
        }
    }
}
