// usrsctp shims: usrsctp_init takes a variadic debug printer.
#ifndef AGENT_SCTP_SHIMS_H
#define AGENT_SCTP_SHIMS_H


#include <stdarg.h>
#include <stdio.h>
#include <usrsctp.h>

// usrsctp's debug printer is variadic, so Swift cannot provide one. This one writes to stderr and
// is only installed when the caller asks for SCTP debug output.
static inline void agent_sctp_debug_printer(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vfprintf(stderr, format, arguments);
    va_end(arguments);
}

typedef int (*agent_sctp_conn_output_fn)(void *addr, void *buffer, size_t length, uint8_t tos, uint8_t set_df);

// usrsctp_init without a UDP encapsulation port (AF_CONN only, port 0), with or without debug output.
static inline void agent_sctp_init(agent_sctp_conn_output_fn conn_output, int debug) {
    usrsctp_init(0, conn_output, debug ? agent_sctp_debug_printer : NULL);
}

#endif
