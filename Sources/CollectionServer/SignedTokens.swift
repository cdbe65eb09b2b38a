import CWebSocketShim
import CollectionSync
import Foundation

/// Signed tokens: JSON Web Tokens signed with HMAC-SHA256 (`HS256`) under a
/// server secret, carrying who the user is and when the token expires:
///
/// ```json
/// {"sub": "ana", "name": "Ana", "roles": ["editor"], "iat": 1798758000, "exp": 1798761600}
/// ```
///
/// Checked as RFC 7519 says: `exp` (required) has passed, or `nbf` (not before)
/// or `iat` (issued at) lie ahead, give 401, each with ``leeway`` seconds for
/// clocks that differ; a token that lives longer than ``maxLifetime`` (from its
/// `iat`, else from now) is refused too. ``audience`` and ``issuer``, when set,
/// must match the token's `aud` (a string or a list) and `iss`.
///
/// Any JWT library mints them with the same secret (a login service, say);
/// ``token(for:expiresAt:issuedAt:)`` does too. The signature is computed with the
/// OpenSSL that libwebsockets links (see docs/SECURITY.md for why not a Swift package).
public struct TokenSigner: Sendable {
    private let key: [UInt8]
    /// Seconds of clock difference allowed for `exp`, `nbf` and `iat`.
    public var leeway: Double = 60
    /// The longest a token may live, in seconds (from its `iat`, or from now when it
    /// has none); nil: as long as its issuer says. 30 days by default.
    public var maxLifetime: Double? = 30 * 24 * 3600
    /// The audience tokens must name in `aud` (nil: not checked).
    public var audience: String?
    /// The issuer tokens must name in `iss` (nil: not checked).
    public var issuer: String?

    /// A signer with `secret` (at least 32 bytes).
    ///
    /// - Parameter secret: The HMAC key.
    /// - Throws: ``TokenError`` when it is shorter than 32 bytes.
    public init(secret: some DataProtocol) throws(TokenError) {
        guard secret.count >= 32 else { throw TokenError(.badSecret, "the token secret must be at least 32 bytes (it has \(secret.count))") }
        key = Array(secret)
    }

    /// A signer whose secret is the contents of `path` (surrounding white space
    /// ignored), or of the environment variable `variable`.
    ///
    /// - Parameter path: The file holding the secret.
    /// - Returns: The signer.
    /// - Throws: ``TokenError`` when the file cannot be read or is too short.
    public static func secret(fromFile path: String) throws(TokenError) -> TokenSigner {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenError(.badSecret, "cannot read the token secret file \(path)") }
        return try TokenSigner(secret: Array(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8))
    }

    /// A signer whose secret is the environment variable `name`, or nil when it is unset.
    ///
    /// - Parameter name: The variable's name.
    /// - Returns: The signer, or nil when the variable is unset.
    /// - Throws: ``TokenError`` when the secret is too short.
    public static func secret(fromEnvironment name: String) throws(TokenError) -> TokenSigner? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return try TokenSigner(secret: Array(value.utf8))
    }

    /// Claims of a token.
    struct Claims: Codable {
        var sub: String
        var name: String?
        var roles: [String]?
        var color: String?
        var exp: Double
        var nbf: Double?
        var iat: Double?
        var iss: String?
        var aud: Audience?
    }

    /// `aud`: one audience or several (RFC 7519, 4.1.3).
    enum Audience: Codable, Equatable {
        case one(String)
        case several([String])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let one = try? c.decode(String.self) { self = .one(one) } else { self = .several(try c.decode([String].self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .one(let one): try c.encode(one)
            case .several(let several): try c.encode(several)
            }
        }

        func contains(_ name: String) -> Bool {
            switch self {
            case .one(let one): one == name
            case .several(let several): several.contains(name)
            }
        }
    }

    private struct Header: Codable {
        var alg: String
        var typ: String?
    }

    /// A token for `identity` that expires at `expiresAt`, issued now (`iat`), with
    /// ``issuer`` and ``audience`` when they are set.
    ///
    /// - Parameters:
    ///   - identity: Whom the token names.
    ///   - expiresAt: Its `exp`.
    ///   - issuedAt: Its `iat`.
    /// - Returns: The token (an HS256 JWT).
    public func token(for identity: Identity, expiresAt: Date, issuedAt: Date = Date()) -> String {
        let header = Self.base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = Claims(sub: identity.id, name: identity.name, roles: identity.roles.sorted(), color: identity.color,
                            exp: expiresAt.timeIntervalSince1970.rounded(.down), iat: issuedAt.timeIntervalSince1970.rounded(.down),
                            iss: issuer, aud: audience.map { .one($0) })
        let payload = Self.base64URL((try? JSONEncoder().encode(claims)) ?? Data())
        let signed = header + "." + payload
        return signed + "." + Self.base64URL(Data(mac(Array(signed.utf8))))
    }

    /// The identity a token carries, once its signature and expiry are checked.
    ///
    /// - Parameters:
    ///   - token: A token from ``token(for:expiresAt:issuedAt:)`` or another HS256 issuer with the same secret.
    ///   - now: The time it is checked at.
    /// - Returns: The identity it carries.
    /// - Throws: ``TokenError`` when it is malformed, badly signed, expired, or names another issuer or audience.
    public func verify(_ token: String, now: Date = Date()) throws(TokenError) -> Identity {
        guard token.utf8.count <= 4_096 else { throw TokenError(.malformed, "the token is longer than 4,096 bytes") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.data(base64URL: parts[0]), let payloadData = Self.data(base64URL: parts[1]),
              let mac = Self.data(base64URL: parts[2]) else {
            throw TokenError(.malformed, "the token is not a JSON Web Token (three base64url parts)")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "HS256" else {
            throw TokenError(.malformed, "the token is not signed with HS256")
        }
        let signed = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        let expected = self.mac(Array(signed))
        guard mac.count == expected.count, Array(mac).withUnsafeBytes({ given in
            expected.withUnsafeBytes { cws_equal_in_constant_time(given.baseAddress, $0.baseAddress, expected.count) == 1 }
        }) else {
            throw TokenError(.badSignature, "the token's signature is not valid (forged, or signed with another secret)")
        }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: payloadData) else {
            throw TokenError(.malformed, "the token's claims lack 'sub' or 'exp', or are not JSON")
        }
        let clock = now.timeIntervalSince1970
        for (name, value) in [("exp", claims.exp), ("nbf", claims.nbf), ("iat", claims.iat)] {
            guard let value else { continue }
            guard value.isFinite, abs(value) < 1e11 else { throw TokenError(.malformed, "the token's '\(name)' is not a time (\(value))") }
        }
        guard claims.exp + leeway > clock else {
            throw TokenError(.expired, "the token expired at \(Date(timeIntervalSince1970: claims.exp))")
        }
        if let nbf = claims.nbf, nbf - leeway > clock {
            throw TokenError(.notYetValid, "the token is not valid before \(Date(timeIntervalSince1970: nbf))")
        }
        if let iat = claims.iat, iat - leeway > clock {
            throw TokenError(.notYetValid, "the token says it was issued at \(Date(timeIntervalSince1970: iat)), which has not come yet")
        }
        if let maxLifetime, claims.exp - min(claims.iat ?? clock, clock) > maxLifetime + leeway {
            throw TokenError(.tooLong, "the token lives past the longest this server takes (\(Int(maxLifetime)) s); ask for a shorter one")
        }
        if let issuer, claims.iss != issuer {
            throw TokenError(.wrongParty, "the token was not issued by '\(issuer)'")
        }
        if let audience, !(claims.aud?.contains(audience) ?? false) {
            throw TokenError(.wrongParty, "the token is not meant for '\(audience)'")
        }
        guard !claims.sub.isEmpty, claims.sub.count <= 200 else { throw TokenError(.malformed, "the token's 'sub' must have 1 to 200 characters") }
        return Identity(id: claims.sub, name: claims.name ?? claims.sub, roles: Set(claims.roles ?? []), color: claims.color)
    }

    /// HMAC-SHA256 of `bytes` under the secret.
    private func mac(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let status = key.withUnsafeBytes { k in bytes.withUnsafeBytes { d in
            cws_hmac_sha256(k.baseAddress, k.count, d.baseAddress, d.count, &out)
        } }
        precondition(status == 0, "HMAC-SHA256 failed in OpenSSL")
        return out
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL text: Substring) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// Why a token was refused, or a secret could not be used.
public struct TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Equatable {
        /// Not a token of ours.
        case malformed
        /// Its signature does not match the secret.
        case badSignature
        /// Past its expiry.
        case expired
        /// Its `nbf` or `iat` lies ahead (beyond the leeway).
        case notYetValid
        /// It lives longer than ``TokenSigner/maxLifetime``.
        case tooLong
        /// Its `iss` or `aud` is not this server's.
        case wrongParty
        /// The secret is missing or too short.
        case badSecret
    }
    /// What kind of failure.
    public var kind: Kind
    /// What happened, for people.
    public var message: String
    /// A failure.
    ///
    /// - Parameters:
    ///   - kind: What kind of failure.
    ///   - message: What happened, for people.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}
