// The project's own test support: a private PostgreSQL (launched by the Makefile's
// `Tests/support/with-postgres`), hubs journaled and shared the way the server's
// are, raw loopback sockets, waits that hold no pool thread. Not a product: apps'
// tests use CollectionTesting (TestViewer, Mirror), which this re-exports.
@_exported import CollectionTesting
