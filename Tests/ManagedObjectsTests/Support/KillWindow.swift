/// When the crash tests kill a save loop: at a random moment 20–120 ms after it opened its
/// store, the window widening (up to a second) each time a kill landed before any save had
/// returned. A loaded machine runs the loop slower; without this, too few kills land during
/// saves and the test checks only reopening.
struct KillWindow {
    private(set) var latest = 0.120

    func nextDelay() -> Double { Double.random(in: 0.020...latest) }

    mutating func record(savesReturned: Bool) {
        if !savesReturned { latest = min(latest * 1.5, 1.0) }
    }
}
