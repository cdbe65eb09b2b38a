import Foundation

/// The private PostgreSQL server `Tests/support/with-postgres` starts for a test
/// run (`make test` runs every test beside one), as its environment describes it.
/// Each test makes a database of its own with ``makeDatabase(_:)``.
public struct TestPostgres: Sendable {
    /// The URL of its `postgres` database.
    public let url: String
    /// The folder holding its Unix socket.
    public let socketDirectory: String
    /// Its data folder and programs, for stopping and starting it.
    let dataDirectory: String
    let programs: String
    let runAs: String
    /// Its port (also the number in its socket's name).
    var port = 5432

    /// The server this run has, or nil when the tests run without one.
    public static let current: TestPostgres? = {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["COLLECTION_TEST_POSTGRES"], let data = env["COLLECTION_TEST_PGDATA"], let bin = env["COLLECTION_TEST_PG_BIN"],
              let host = URLComponents(string: url)?.queryItems?.first(where: { $0.name == "host" })?.value else { return nil }
        return TestPostgres(url: url, socketDirectory: host, dataDirectory: data, programs: bin, runAs: env["COLLECTION_TEST_PG_AS"] ?? "")
    }()

    /// A server of its own, beside the run's (for a test that stops it): made
    /// in a new folder with the run's programs; ``shutdown()`` removes it.
    public static func launch() throws -> TestPostgres {
        let server = try initialized()
        do {
            try server.start()
        } catch {
            server.shutdown()   // no folder left behind
            throw error
        }
        return server
    }

    /// A server of its own, not started yet: a new folder (its socket's and its
    /// data's) owned by the server's user, and a cluster made in it by `initdb` with
    /// the run's programs. `prepare` first puts in the folder files the server will
    /// read (they change owner with it). Should any step fail, the folder is removed.
    package static func initialized(port: Int = 5432, prepare: (String) throws -> Void = { _ in }) throws -> TestPostgres {
        guard let run = current else { throw TestPostgresError(message: missing) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("collection-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        do {
            try prepare(folder)
            let server = TestPostgres(url: "postgres:///postgres?host=\(folder)&port=\(port)&user=collections", socketDirectory: folder,
                                      dataDirectory: folder + "/data", programs: run.programs, runAs: run.runAs, port: port)
            if !run.runAs.isEmpty { try Self.run("/usr/bin/chown", ["-R", run.runAs, folder]) }
            try server.asServerUser("\(run.programs)/initdb", ["-D", server.dataDirectory, "-A", "trust", "-U", "collections", "--no-sync"])
            return server
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Stops a server made by ``launch()`` and removes its folder.
    public func shutdown() {
        try? stop()
        try? FileManager.default.removeItem(atPath: socketDirectory)
    }

    /// Why the PostgreSQL tests cannot run, for their skip notice.
    public static let missing = "no private PostgreSQL server: run the tests through `make test` (Tests/support/with-postgres)"

    /// A new, empty database; the URL to reach it.
    public func makeDatabase(_ prefix: String = "test") throws -> String {
        let name = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
        try sql("CREATE DATABASE \(name)")
        return "postgres:///\(name)?host=\(socketDirectory)&port=\(port)&user=collections"
    }

    /// The database a URL of ``makeDatabase(_:)`` names, for ``sql(_:database:)``.
    public static func databaseName(in url: String) -> String {
        String((URLComponents(string: url)?.path ?? "").dropFirst())
    }

    /// Runs one statement on the `postgres` database with psql; its output.
    @discardableResult
    public func sql(_ statement: String, database: String = "postgres") throws -> String {
        try Self.run("/usr/bin/psql", ["-X", "-q", "-A", "-t", "-h", socketDirectory, "-p", "\(port)", "-U", "collections", "-d", database, "-v", "ON_ERROR_STOP=1", "-c", statement])
    }

    /// Stops the server (fast: open transactions are cut off, as in a crash).
    public func stop() throws {
        try pgctl(["-m", "immediate", "-w", "stop"])
    }

    /// Starts it again, as `with-postgres` did.
    public func start() throws {
        try pgctl(["-l", "\(dataDirectory)/../log", "-w", "-o", "-c listen_addresses='' -k \(socketDirectory) -p \(port) -c max_connections=200", "start"])
    }

    /// Restarts it as an administrator would (`pg_ctl restart -m fast`): sessions
    /// are ended, open transactions rolled back, and it takes connections again.
    public func restart() throws {
        try pgctl(["-l", "\(dataDirectory)/../log", "-m", "fast", "-w", "-o", "-c listen_addresses='' -k \(socketDirectory) -p \(port) -c max_connections=200", "restart"])
    }

    /// Stops (`SIGSTOP`) or continues (`SIGCONT`) the server and its sessions: a
    /// database that stops answering without closing anything, as over a network
    /// that drops packets.
    public func freeze(_ frozen: Bool = true) throws {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
              let first = text.split(separator: "\n").first, let postmaster = Int32(first) else {
            throw TestPostgresError(message: "no postmaster.pid in \(dataDirectory)")
        }
        let children = (try? Self.run("/usr/bin/pgrep", ["-P", "\(postmaster)"])) ?? ""
        for pid in [postmaster] + children.split(separator: "\n").compactMap({ Int32($0) }) {
            kill(pid, frozen ? SIGSTOP : SIGCONT)
        }
    }

    func pgctl(_ arguments: [String]) throws {
        try asServerUser("\(programs)/pg_ctl", ["-D", dataDirectory] + arguments)
    }

    /// Runs one of the server's programs as the user the server runs as.
    func asServerUser(_ program: String, _ arguments: [String]) throws {
        if runAs.isEmpty {
            try Self.run(program, arguments)
        } else {
            try Self.run("/usr/sbin/runuser", ["-u", runAs, "--", program] + arguments)
        }
    }

    /// Runs a program and waits for it; what it printed. Spawned and awaited by
    /// hand, its output in a file: `pg_ctl start` leaves the server running with
    /// the descriptors it inherited, and Foundation's `Process` waits for those to
    /// close (a pipe, or its own socket) before it reports the exit.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pg-out-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestPostgresError(message: "cannot start \(program): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exited == 0 else {
            throw TestPostgresError(message: "\(program) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }
}

/// A PostgreSQL command of the tests failed.
public struct TestPostgresError: Error, CustomStringConvertible {
    /// What failed and what it printed.
    public var message: String
    public var description: String { message }
}
