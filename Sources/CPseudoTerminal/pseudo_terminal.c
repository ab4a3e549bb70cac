// ptsname_r is a GNU extension; posix_openpt, grantpt and unlockpt need X/Open.
#define _GNU_SOURCE
#include "pseudo_terminal.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int flow_open_pseudo_terminal(char *name, size_t length) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) return -1;
  if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, length) != 0) {
    close(master);
    return -1;
  }
  return master;
}
