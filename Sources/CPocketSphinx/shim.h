// Umbrella header for the system library; our own code never lives here.
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
