// The command line, for the static Swift runtime, taken from where glibc hands it over.
//
// The runtime's own Linux implementation (CommandLine.cpp in libswiftCore.a) finds argv before main by
// reading /proc/self/maps with fgets and sscanf to locate the stack, then walking back from `environ`:
// 124,000 instructions and the kernel's rendering of the maps file, in every start of every command
// (a quarter of `flow --version`). glibc calls each .preinit_array function with argc, argv and envp
// before any constructor runs, so the vector is known for free. Defining both of that object's global
// functions here keeps the linker from taking it out of the archive at all; only the `flow` executable
// links this file, and only a static link could take the runtime's object, so test programs and the
// dynamically linked build keep the runtime's own.
#include <stddef.h>

static char **argumentVector;
static int argumentCount;

static void keepArguments(int argc, char **argv, char **envp) {
  (void)envp;
  argumentCount = argc;
  argumentVector = argv;
}

__attribute__((section(".preinit_array"), used)) static void (*const keepArgumentsEarly)(int, char **, char **) =
  keepArguments;

// CommandLine.arguments' override, as the runtime keeps it (used by the REPL and JIT, never by flow).
static char **overrideVector;
static int overrideCount;

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
  overrideVector = argv;
  overrideCount = argc;
}

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *count) {
  if (overrideVector) {
    *count = overrideCount;
    return overrideVector;
  }
  *count = argumentCount;
  return argumentVector;
}
