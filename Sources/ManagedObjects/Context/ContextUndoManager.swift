/// Foundation's `UndoManager`, which Foundation on Linux lacks: a stack of undo groups, each a
/// list of actions registered with `registerUndo(withTarget:handler:)`, undone last first; what
/// an action registers while it is undone is the redo. The `CoreData` module names it
/// `UndoManager`, and a context given one (`ManagedObjectContext.undoManager`) records its
/// changes in it.
///
/// With `groupsByEvent` (the default) a registration outside any group is a group of its own:
/// Foundation closes such a group at the end of the run loop's event, which a program on Linux
/// need not have; a context registers the changes of one event (what `processPendingChanges()`
/// announces) as one action, so each event is one undo step, as on Apple platforms.
/// Not thread-safe: use it on the queue of the context it records (as Foundation's).
open class ContextUndoManager {
    /// One registered action: the handler, and its target held weakly, as Foundation does not
    /// retain targets (a context holds its undo manager).
    private struct Action {
        weak var target: AnyObject?
        let handler: (AnyObject) -> Void
    }

    /// A group: its actions in the order they were registered, nested groups as one action.
    private final class Group {
        var actions: [Action] = []
        var name = ""
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The groups begun and not ended yet, innermost last.
    private var openGroups: [Group] = []
    private var registrationDisabledCount = 0
    /// Who processes pending changes before the stacks are used (Foundation's checkpoint
    /// notification, which Core Data's contexts observe).
    private var checkpointObservers: [WeakCheckpointObserver] = []

    /// Whether a registration outside any group makes a group of its own (see the type).
    public var groupsByEvent = true
    /// How many undo groups are kept (0: all); the oldest are dropped beyond it.
    public var levelsOfUndo = 0 {
        didSet { trim(&undoStack) }
    }
    public private(set) var isUndoing = false
    public private(set) var isRedoing = false

    public init() {}

    // MARK: Registering

    /// Registers `handler` to undo a change of `target`; registered while undoing, it is the
    /// redo. A registration that is neither clears the redo stack, as Foundation's does.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        let action = Action(target: target) { target in
            if let target = target as? Target { handler(target) }
        }
        if let group = openGroups.last {
            group.actions.append(action)
        } else {
            let group = Group()
            group.actions.append(action)
            guard groupsByEvent || isUndoing || isRedoing else { return }
            push(group)
        }
        if !isUndoing && !isRedoing { redoStack = [] }
    }

    public var isUndoRegistrationEnabled: Bool { registrationDisabledCount == 0 }
    /// Stops registration until as many `enableUndoRegistration()` calls.
    public func disableUndoRegistration() { registrationDisabledCount += 1 }
    public func enableUndoRegistration() { registrationDisabledCount = max(0, registrationDisabledCount - 1) }

    // MARK: Grouping

    public var groupingLevel: Int { openGroups.count }

    public func beginUndoGrouping() {
        checkpoint()
        openGroups.append(Group())
    }

    /// Closes the innermost group: nested in the enclosing one, or pushed on the undo stack (an
    /// empty group is dropped). Without an open group there is nothing to close (Foundation
    /// raises; the runtime never traps on a call order).
    public func endUndoGrouping() {
        checkpoint()
        guard let group = openGroups.popLast(), !group.actions.isEmpty else { return }
        if let enclosing = openGroups.last {
            enclosing.actions.append(Action(target: self) { _ in Self.perform(group) })
        } else {
            push(group)
        }
    }

    /// Names the group being recorded (or the latest one), for an Undo menu item.
    public func setActionName(_ actionName: String) {
        if let group = openGroups.last ?? (isUndoing ? redoStack.last : undoStack.last) { group.name = actionName }
    }

    public var undoActionName: String { undoStack.last?.name ?? "" }
    public var redoActionName: String { redoStack.last?.name ?? "" }

    // MARK: Undoing

    public var canUndo: Bool {
        checkpoint()
        return !undoStack.isEmpty || openGroups.contains { !$0.actions.isEmpty }
    }

    public var canRedo: Bool {
        checkpoint()
        return !redoStack.isEmpty
    }

    /// Undoes the latest group (closing the groups left open first), registering its redo.
    public func undo() {
        checkpoint()
        while !openGroups.isEmpty { endUndoGrouping() }
        undoNestedGroup()
    }

    /// Undoes the latest group on the undo stack.
    public func undoNestedGroup() {
        checkpoint()
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        defer { isUndoing = false }
        replay(group, onto: &redoStack)
    }

    /// Redoes the latest undone group, registering its undo.
    public func redo() {
        checkpoint()
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        defer { isRedoing = false }
        replay(group, onto: &undoStack)
    }

    /// Forgets every undo and redo.
    public func removeAllActions() {
        undoStack = []
        redoStack = []
        openGroups = openGroups.map { _ in Group() }
    }

    /// Forgets the actions registered with `target`.
    public func removeAllActions(withTarget target: AnyObject) {
        for group in undoStack + redoStack + openGroups {
            group.actions.removeAll { $0.target === target || $0.target == nil }
        }
        undoStack.removeAll { $0.actions.isEmpty }
        redoStack.removeAll { $0.actions.isEmpty }
    }

    // MARK: Checkpoints

    /// Registers `observer` to be told before the stacks are used (weakly held).
    func addCheckpointObserver(_ observer: any UndoCheckpointObserver) {
        checkpointObservers.removeAll { $0.observer == nil || $0.observer === observer }
        checkpointObservers.append(WeakCheckpointObserver(observer: observer))
    }

    func removeCheckpointObserver(_ observer: any UndoCheckpointObserver) {
        checkpointObservers.removeAll { $0.observer == nil || $0.observer === observer }
    }

    private func checkpoint() {
        for entry in checkpointObservers { entry.observer?.undoManagerCheckpoint() }
    }

    // MARK: Private

    /// Runs `group`'s actions last first, inside a new group that collects what they register,
    /// pushed on `stack`.
    private func replay(_ group: Group, onto stack: inout [Group]) {
        let inverse = Group()
        inverse.name = group.name
        openGroups.append(inverse)
        Self.perform(group)
        openGroups.removeLast()
        if !inverse.actions.isEmpty {
            stack.append(inverse)
            trim(&stack)
        }
    }

    private static func perform(_ group: Group) {
        for action in group.actions.reversed() {
            if let target = action.target { action.handler(target) }
        }
    }

    private func push(_ group: Group) {
        undoStack.append(group)
        trim(&undoStack)
    }

    private func trim(_ stack: inout [Group]) {
        if levelsOfUndo > 0, stack.count > levelsOfUndo { stack.removeFirst(stack.count - levelsOfUndo) }
    }
}

/// Told by an undo manager before it undoes, redoes or opens or closes a group, so changes
/// still pending are registered first (a context processes its pending changes).
protocol UndoCheckpointObserver: AnyObject {
    func undoManagerCheckpoint()
}

private struct WeakCheckpointObserver {
    weak var observer: (any UndoCheckpointObserver)?
}
