// libFuzzer's entry for programs that have their own main (compiler-rt FuzzerInterface.h,
// LLVMFuzzerRunDriver): it parses libFuzzer's flags from argc/argv and runs `callback` on each
// input. SwiftPM links an executable's main to a function of its own (agentd_fuzz_main), so the
// fuzz build calls this from there instead of taking libFuzzer's main. The symbol comes from the
// fuzzer runtime that -sanitize=fuzzer links; nothing refers to it in a normal build.
#ifndef AGENTD_FUZZ_DRIVER_H
#define AGENTD_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
