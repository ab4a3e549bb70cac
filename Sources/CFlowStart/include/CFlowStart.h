#ifndef CFLOWSTART_H
#define CFLOWSTART_H
// Nothing to call: this target only replaces how the static Swift runtime finds the command line
// (ArgumentVector.c says why).
#endif
