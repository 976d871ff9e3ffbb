// Umbrella header for the system library; our own code never lives here.
#include <glib.h>
#include <gio/gio.h>
#include <agent.h>
