import Testing

/// The test tiers this target's suites carry (README, "Tests"). A tag is known by its
/// name, so the same tag declared in another test target is the same tag.
extension Tag {
    /// A real server in this process: sockets, an event loop, clients.
    @Tag static var integration: Self
    /// A private PostgreSQL server (Tests/support/with-postgres).
    @Tag static var postgres: Self
}
