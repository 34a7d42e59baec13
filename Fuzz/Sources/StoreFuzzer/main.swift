import CLibFuzzer
import Foundation

// Hand the command line to libFuzzer, which parses its own flags and calls `readCraftedStore`
// with each input. It exits by itself on a crash, leak, timeout or memory blow-up.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, readCraftedStore))
