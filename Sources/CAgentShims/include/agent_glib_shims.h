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

// g_object_set is variadic: one typed setter per property kind we need (libnice agent options).
#ifndef AGENT_GLIB_OBJECT_SETTERS
#define AGENT_GLIB_OBJECT_SETTERS
static inline void agent_g_object_set_boolean(gpointer object, const gchar *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

static inline void agent_g_object_set_string(gpointer object, const gchar *property, const gchar *value) {
    g_object_set(object, property, value, NULL);
}

static inline void agent_g_object_set_uint(gpointer object, const gchar *property, guint value) {
    g_object_set(object, property, value, NULL);
}
#endif
