// libFuzzer's driver entry point, from compiler-rt's FuzzerInterface.h / FuzzerDriver.cpp.
// SwiftPM gives an executable target its own `main` (it links with `--defsym main=<module>_main`),
// so libFuzzer's `main` is never used; the harness's main calls the driver instead. The symbol
// comes from libclang_rt.fuzzer, which `-sanitize=fuzzer` links.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
