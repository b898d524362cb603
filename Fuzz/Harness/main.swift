import Dispatch
import Foundation
import FuzzTargets

// The libFuzzer entry point over the target named by `$SYNCRUN_FUZZ_TARGET` (scripts/fuzz.sh).
// SwiftPM links an executable's `main` to this file's top-level code, so libFuzzer's own `main` is
// not used: the top-level code hands the command line to libFuzzer's driver instead.

private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["SYNCRUN_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("SYNCRUN_FUZZ_TARGET must be one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// Runs one input through the target, waiting for it on this (libFuzzer's) thread.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let done = DispatchSemaphore(value: 0)
    let run = target.run
    Task {
        await run(bytes)
        done.signal()
    }
    done.wait()
    return 0
}

/// libFuzzer's driver (`-sanitize=fuzzer` links it): parses the flags, then fuzzes `callback`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

// One empty input first, outside the 1 s limit: it opens the targets' scratch stores and local org
// (a one-time set-up that a sanitized build under load can take longer than a second to do).
_ = fuzzOneInput(nil, 0)
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &arguments, fuzzOneInput))
