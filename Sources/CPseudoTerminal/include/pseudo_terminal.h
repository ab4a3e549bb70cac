#ifndef FLOW_PSEUDO_TERMINAL_H
#define FLOW_PSEUDO_TERMINAL_H
#include <stddef.h>

/// Opens a new pseudo-terminal pair: returns the master's descriptor and writes the slave's path into
/// `name`, or returns -1. Swift cannot see posix_openpt and friends through Glibc's module (they need
/// _XOPEN_SOURCE), hence this shim.
int flow_open_pseudo_terminal(char *name, size_t length);

#endif
