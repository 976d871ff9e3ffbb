// GLib/GObject shims: g_signal_connect is a macro.
#ifndef AGENT_GLIB_SHIMS_H
#define AGENT_GLIB_SHIMS_H

#include <glib.h>
#include <glib-object.h>

static inline gulong agent_g_signal_connect(gpointer instance, const gchar *signal,
                                            GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

#endif
