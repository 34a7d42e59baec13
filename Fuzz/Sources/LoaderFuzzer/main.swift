import CLibFuzzer
import Foundation

// Hand the command line to libFuzzer, which parses its own flags (-max_total_time, …) and
// calls `loadAndLint` with each input. It exits by itself on a crash, leak or timeout.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, loadAndLint))
