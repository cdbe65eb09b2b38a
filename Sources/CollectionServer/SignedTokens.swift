import CollectionSync
import Crypto
import Foundation

/// Signed tokens: JSON Web Tokens signed with HMAC-SHA256 (`HS256`) under a
/// server secret, carrying who the user is and when the token expires:
///
/// ```json
/// {"sub": "ana", "name": "Ana", "roles": ["editor"], "exp": 1798761600}
/// ```
///
/// Any JWT library mints them with the same secret (a login service, say);
/// ``token(for:expiresAt:)`` does too. The signature is computed with
/// swift-crypto (see docs/SECURITY.md for why it and not jwt-kit).
public struct TokenSigner: Sendable {
    private let key: SymmetricKey

    /// A signer with `secret` (at least 32 bytes).
    public init(secret: some DataProtocol) throws(TokenError) {
        guard secret.count >= 32 else { throw TokenError(.badSecret, "the token secret must be at least 32 bytes (it has \(secret.count))") }
        key = SymmetricKey(data: Array(secret))
    }

    /// A signer whose secret is the contents of `path` (surrounding white space
    /// ignored), or of the environment variable `variable`.
    public static func secret(fromFile path: String) throws(TokenError) -> TokenSigner {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenError(.badSecret, "cannot read the token secret file \(path)") }
        return try TokenSigner(secret: Array(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8))
    }

    /// A signer whose secret is the environment variable `name`, or nil when it is unset.
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
    }

    private struct Header: Codable {
        var alg: String
        var typ: String?
    }

    /// A token for `identity` that expires at `expiresAt`.
    public func token(for identity: Identity, expiresAt: Date) -> String {
        let header = Self.base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = Claims(sub: identity.id, name: identity.name, roles: identity.roles.sorted(), color: identity.color,
                            exp: expiresAt.timeIntervalSince1970.rounded(.down))
        let payload = Self.base64URL((try? JSONEncoder().encode(claims)) ?? Data())
        let signed = header + "." + payload
        let mac = HMAC<SHA256>.authenticationCode(for: Data(signed.utf8), using: key)
        return signed + "." + Self.base64URL(Data(mac))
    }

    /// The identity a token carries, once its signature and expiry are checked.
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
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signed, using: key) else {
            throw TokenError(.badSignature, "the token's signature is not valid (forged, or signed with another secret)")
        }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: payloadData) else {
            throw TokenError(.malformed, "the token's claims lack 'sub' or 'exp', or are not JSON")
        }
        guard claims.exp > now.timeIntervalSince1970 else {
            throw TokenError(.expired, "the token expired at \(Date(timeIntervalSince1970: claims.exp))")
        }
        guard !claims.sub.isEmpty, claims.sub.count <= 200 else { throw TokenError(.malformed, "the token's 'sub' must have 1 to 200 characters") }
        return Identity(id: claims.sub, name: claims.name ?? claims.sub, roles: Set(claims.roles ?? []), color: claims.color)
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
        /// The secret is missing or too short.
        case badSecret
    }
    /// What kind of failure.
    public var kind: Kind
    /// What happened, for people.
    public var message: String
    /// A failure.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}
