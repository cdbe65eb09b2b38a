/// JSON object members encoded once, to be spliced into many messages (a batch's
/// members that every viewer's copy shares).
public final class EncodedMembers: Sendable {
    /// `,"name":value,...`: the members with the comma that puts them after another.
    let separated: [UInt8]

    init(bytes: [UInt8]) {
        var separated: [UInt8] = []
        if !bytes.isEmpty {
            separated.reserveCapacity(bytes.count + 1)
            separated.append(UInt8(ascii: ","))
            separated += bytes
        }
        self.separated = separated
    }

    /// `"name":value,...` without braces.
    public var bytes: [UInt8] { Array(separated.dropFirst()) }

    /// The length of ``bytes``.
    public var count: Int { max(separated.count - 1, 0) }
}
