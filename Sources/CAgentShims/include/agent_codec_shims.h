// Opus and libvpx shims: opus_*_ctl and vpx_codec_*_init/control are variadic or macros.
#ifndef AGENT_CODEC_SHIMS_H
#define AGENT_CODEC_SHIMS_H

#endif
