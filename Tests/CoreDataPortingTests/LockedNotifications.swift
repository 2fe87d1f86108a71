import Foundation

/// Notifications collected from NotificationCenter's posting thread.
final class LockedNotifications: @unchecked Sendable {
    // Unchecked: `notifications` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var notifications: [Notification] = []

    func append(_ notification: Notification) { lock.withLock { notifications.append(notification) } }
    var all: [Notification] { lock.withLock { notifications } }
}
