import CoreData
import Testing

/// A context with an `UndoManager` records inserts, deletes and changes to attributes and
/// relationships, one undo step per event (`processPendingChanges()`), as Core Data does;
/// `undo()`, `redo()` and `rollback()` as Core Data documents them.
@Suite struct UndoManagerTests {
    private func undoingContext() -> NSManagedObjectContext {
        let context = PersistenceController(inMemory: true).container.newBackgroundContext()
        context.undoManager = UndoManager()
        return context
    }

    @Test func undoAndRedoAnAttributeChange() throws {
        let context = undoingContext()
        try context.performAndWait {
            let tweet = Tweet(context: context)
            tweet.text = "first"
            try context.save()
            tweet.text = "second"
            context.processPendingChanges()
            #expect(context.undoManager?.canUndo == true)
            context.undo()
            #expect(tweet.text == "first")
            #expect(!tweet.isUpdated && !context.hasChanges, "back to the saved value")
            #expect(context.undoManager?.canRedo == true)
            context.redo()
            #expect(tweet.text == "second")
            #expect(tweet.isUpdated)
        }
    }

    @Test func eachEventIsOneUndoStep() throws {
        let context = undoingContext()
        let tweet = try context.performAndWait { () throws -> Tweet in
            let tweet = Tweet(context: context)
            tweet.text = "saved"
            try context.save()
            return tweet
        }
        context.performAndWait {
            tweet.text = "a"
            tweet.retweetCount = 1
        }
        context.performAndWait { tweet.text = "b" }
        context.performAndWait {
            context.undo()
            #expect(tweet.text == "a" && tweet.retweetCount == 1, "the second block's change only")
            context.undo()
            #expect(tweet.text == "saved" && tweet.retweetCount == 0, "the first block's two changes together")
            #expect(context.undoManager?.canUndo == true, "the insert is still undoable")
        }
    }

    @Test func undoInsertThenRedoIt() throws {
        let context = undoingContext()
        context.performAndWait {
            let tweet = Tweet(context: context)
            tweet.text = "new"
            context.processPendingChanges()
            context.undo()
            #expect(tweet.managedObjectContext == nil && context.insertedObjects.isEmpty)
            context.redo()
            #expect(tweet.managedObjectContext === context && context.insertedObjects.contains(tweet))
            #expect(tweet.text == "new")
        }
    }

    @Test func undoDeleteRestoresTheObjectAndItsRelationships() throws {
        let context = undoingContext()
        try context.performAndWait {
            let user = TwitterUser(context: context)
            user.screenName = "paul"
            user.name = "Paul"
            let tweet = Tweet(context: context)
            tweet.text = "hello"
            tweet.tweeter = user
            try context.save()
            context.undoManager?.removeAllActions()
            context.delete(tweet)
            context.processPendingChanges()
            #expect(tweet.isDeleted && user.tweets?.isEmpty == true, "Nullify took the tweet out of the user's")
            context.undo()
            #expect(!tweet.isDeleted && context.deletedObjects.isEmpty)
            #expect(tweet.tweeter === user && user.tweets?.contains(tweet) == true)
            #expect(!context.hasChanges)
            try context.save()
            #expect(try context.count(for: Tweet.fetchRequest()) == 1)
        }
    }

    @Test func undoRelationshipChange() throws {
        let context = undoingContext()
        try context.performAndWait {
            let paul = TwitterUser(context: context), anna = TwitterUser(context: context)
            paul.name = "Paul"
            anna.name = "Anna"
            let tweet = Tweet(context: context)
            tweet.tweeter = paul
            try context.save()
            tweet.tweeter = anna
            context.undo()
            #expect(tweet.tweeter === paul)
            #expect(paul.tweets?.contains(tweet) == true && anna.tweets?.isEmpty == true, "both sides back")
        }
    }

    @Test func explicitGroupUndoesAsOne() throws {
        let context = undoingContext()
        try context.performAndWait {
            let tweet = Tweet(context: context)
            try context.save()
            context.undoManager?.removeAllActions()
            context.undoManager?.beginUndoGrouping()
            tweet.text = "one"
            context.processPendingChanges()
            tweet.retweetCount = 2
            context.undoManager?.endUndoGrouping()
            context.undoManager?.setActionName("Edit")
            #expect(context.undoManager?.undoActionName == "Edit")
            context.undo()
            #expect(tweet.text == nil && tweet.retweetCount == 0)
            #expect(context.undoManager?.canUndo == false)
        }
    }

    @Test func rollbackEmptiesTheUndoStack() throws {
        let context = undoingContext()
        context.performAndWait {
            let tweet = Tweet(context: context)
            tweet.text = "new"
            context.processPendingChanges()
            #expect(context.undoManager?.canUndo == true)
            context.rollback()
            #expect(context.undoManager?.canUndo == false && context.undoManager?.canRedo == false)
            #expect(tweet.managedObjectContext == nil)
        }
    }

    @Test func disabledRegistrationRecordsNothing() throws {
        let context = undoingContext()
        try context.performAndWait {
            let tweet = Tweet(context: context)
            try context.save()
            context.undoManager?.removeAllActions()
            context.undoManager?.disableUndoRegistration()
            tweet.text = "unrecorded"
            context.processPendingChanges()
            context.undoManager?.enableUndoRegistration()
            #expect(context.undoManager?.canUndo == false)
        }
    }

    @Test func undoIsAnnouncedAsAChange() throws {
        let context = undoingContext()
        let didChange = LockedNotifications()
        let observer = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) { didChange.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        let tweet = try context.performAndWait { () throws -> Tweet in
            let tweet = Tweet(context: context)
            try context.save()
            tweet.text = "edited"
            return tweet
        }
        let before = didChange.all.count
        context.performAndWait { context.undo() }
        #expect(didChange.all.count == before + 1)
        #expect((didChange.all.last?.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject>)?.contains(tweet) == true)
    }

    /// Foundation's `UndoManager` on its own: undo and redo stacks, levels.
    @Test func undoManagerAlone() {
        final class Counter { var value = 0 }
        let counter = Counter()
        let manager = UndoManager()
        manager.levelsOfUndo = 2
        func set(_ value: Int) {
            let old = counter.value
            manager.registerUndo(withTarget: counter) { counter in
                counter.value = old
            }
            counter.value = value
        }
        set(1); set(2); set(3)
        manager.undo()
        #expect(counter.value == 2)
        manager.undo()
        #expect(counter.value == 1)
        #expect(!manager.canUndo, "two levels kept")
        #expect(manager.canRedo == false, "the handlers registered no redo")
    }
}
