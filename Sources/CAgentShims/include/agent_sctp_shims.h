// usrsctp shims: usrsctp_init takes a variadic debug printer.
#ifndef AGENT_SCTP_SHIMS_H
#define AGENT_SCTP_SHIMS_H

#endif
