// Umbrella header for the system library; our own code never lives here.
#include <hiredis/hiredis.h>
