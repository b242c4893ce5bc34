import Foundation

// Built normally, this is a replay tool: `playback-forensics-fuzz FILE…` runs each file through
// the fuzz target (to reproduce a crash or check a corpus). Built with `-DFUZZING` and
// `-sanitize=fuzzer,address` (Scripts/fuzz.sh), it hands control to libFuzzer's driver.
// `PF_FUZZ_TARGET=list` prints the target names (one per format of the registry, and `bundle`).

/// Prints the target names and exits when asked to (`PF_FUZZ_TARGET=list`).
func listTargetsIfAsked() {
    guard ProcessInfo.processInfo.environment["PF_FUZZ_TARGET"] == "list" else { return }
    print(FuzzTarget.names.joined(separator: " "))
    exit(0)
}
#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
struct FuzzDriver {
    static func main() {
        listTargetsIfAsked()
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            guard let data else { return 0 }
            FuzzTarget.current.run(Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        }
        exit(status)
    }
}
#else
@main
struct FuzzReplay {
    static func main() {
        listTargetsIfAsked()
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                exit(1)
            }
            FuzzTarget.current.run([UInt8](data))
        }
    }
}
#endif
