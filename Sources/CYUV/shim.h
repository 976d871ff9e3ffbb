// Umbrella header for the system library (Debian libyuv-dev ships no pkg-config file, so the
// module map links it by name); our own code never lives here.
#include <libyuv.h>
