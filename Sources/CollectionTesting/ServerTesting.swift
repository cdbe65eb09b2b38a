import CollectionServer
import Foundation
import WebSocketTransport

/// How a test reaches the server it tests (HummingbirdTesting's manner: one test body,
/// run either way).
public enum TestingSetup: Sendable {
    /// In this process, with no socket: each viewer's messages go straight to the
    /// server's engine, in order, and its answers straight back. Fast, and needs no port.
    case inProcess
    /// Over WebSockets: the server listens (on its configured host and port; give it
    /// port 0 for one the kernel picks) and each viewer connects to it.
    case live
}

/// What a test body gets from ``CollectionServer/test(_:_:)``: viewers of the server
/// under test, each a ``TestViewer``, the same whichever ``TestingSetup`` runs it.
public struct TestClient: Sendable {
    private let open: @Sendable (String) async throws -> TestViewer

    fileprivate init(_ open: @escaping @Sendable (String) async throws -> TestViewer) { self.open = open }

    /// A new viewer, connected on `path` (`/ws`, or with a query: `/ws?token=…`), that
    /// has not said hello yet: say it with ``TestViewer/hello(width:height:y:wantOrder:lastSeq:epoch:name:collection:timeout:)``.
    /// - Throws: when the connection cannot be made (live).
    ///
    /// - Parameter path: The WebSocket path.
    /// - Returns: A viewer, connected and not yet helloed.
    /// - Throws: When the connection cannot be opened.
    public func viewer(path: String = "/ws") async throws -> TestViewer { try await open(path) }
}

extension CollectionServer {
    /// Starts this server (its collections added and set up, not yet started), runs
    /// `body` with a ``TestClient`` of it, and stops it, whether `body` returns or throws.
    ///
    /// ```swift
    /// let server = CollectionServer(configuration: .init(port: 0))
    /// let photos = server.addCollection(named: "photos")
    /// photos.load(model)
    /// try await server.test(.inProcess) { client in
    ///     let ana = try await client.viewer()
    ///     try await ana.hello(width: 800, height: 600)
    ///     ana.send(#"{"type":"move","op":"m1","item":"p3","section":"summer"}"#)
    ///     try await ana.next("ack")
    /// }
    /// ```
    /// - Parameters:
    ///   - setup: in this process (no socket) or live (over WebSockets).
    ///   - body: the test, given a client that makes viewers of this server.
    /// - Returns: what `body` returns.
    /// - Throws: what starting the server or `body` throws.
    public func test<T: Sendable>(_ setup: TestingSetup, _ body: (TestClient) async throws -> T) async throws -> T {
        switch setup {
        case .inProcess:
            let connections = try await offThePool { try self.startInProcess() }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(TestClient { path in TestViewer(socket: await connections.connect(path: path)) }))
            } catch {
                result = .failure(error)
            }
            _ = try? await offThePool { self.stop() }   // it waits for the last commit and the closes
            await connections.closeAll()
            return try result.get()
        case .live:
            let port = try await offThePool { try self.start() }
            let host = configuration.host == "0.0.0.0" || configuration.host == "::" ? "127.0.0.1" : configuration.host
            let tls = configuration.usesTLS
            let result: Result<T, any Error>
            do {
                result = .success(try await body(TestClient { path in try await TestViewer.connect(host: host, port: port, path: path, tls: tls) }))
            } catch {
                result = .failure(error)
            }
            _ = try? await offThePool { self.stop() }   // it waits for the last commit and the closes
            return try result.get()
        }
    }
}
