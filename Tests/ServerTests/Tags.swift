import Testing

/// The test tiers this target's suites carry (README, "Tests"). A tag is known by its
/// name, so the same tag declared in another test target is the same tag.
extension Tag {
    /// The real collection-server binary, started (and killed) as a process.
    @Tag static var process: Self
    /// A private PostgreSQL server (Tests/support/with-postgres).
    @Tag static var postgres: Self
}
