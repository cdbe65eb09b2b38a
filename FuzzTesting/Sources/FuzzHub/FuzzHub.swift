import CollectionTesting

/// libFuzzer entry point: decode → apply with invariant checks (see FuzzHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHub(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let problems = FuzzHarness.run(Array(UnsafeRawBufferPointer(start: data, count: size)))
    if !problems.isEmpty { fatalError("invariant broken: \(problems.joined(separator: "; "))") }
    return 0
}
