import Logging

/// Where the runtime reports what it recovers from without failing (a stored raw value no case
/// of an attribute's Swift type has), through swift-log. By default a logger labelled
/// `ManagedObjects` through the process's `LoggingSystem`; set ``logger`` to send the lines
/// elsewhere. SQL statements have their own switch and logger (``SQLDebugLog``).
public enum ManagedObjectsLog {
    private static let current = LockedValue(Logger(label: "ManagedObjects"))

    public static var logger: Logger {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
