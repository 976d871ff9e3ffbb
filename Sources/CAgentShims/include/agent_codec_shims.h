// Opus and libvpx shims: opus_*_ctl and vpx_codec_control are variadic, and vpx_codec_enc_init /
// vpx_codec_dec_init are macros that pass the ABI version the headers were built with. Swift can
// call neither, so each call the Media wrappers need gets a typed static inline function here.
// Only Sources/Agent/Media uses these.
#ifndef AGENT_CODEC_SHIMS_H
#define AGENT_CODEC_SHIMS_H

#include <opus/opus.h>
#include <vpx/vpx_encoder.h>
#include <vpx/vpx_decoder.h>
#include <vpx/vp8cx.h>
#include <vpx/vp8dx.h>

// MARK: Opus

/// opus_encoder_ctl for the OPUS_SET_*_REQUEST codes that take one opus_int32.
static inline int agent_opus_encoder_set_int(OpusEncoder *encoder, int request, opus_int32 value) {
    return opus_encoder_ctl(encoder, request, value);
}

/// opus_encoder_ctl for the OPUS_GET_*_REQUEST codes that write one opus_int32.
static inline int agent_opus_encoder_get_int(OpusEncoder *encoder, int request, opus_int32 *value) {
    return opus_encoder_ctl(encoder, request, value);
}

static inline int agent_opus_encoder_reset(OpusEncoder *encoder) {
    return opus_encoder_ctl(encoder, OPUS_RESET_STATE);
}

/// opus_decoder_ctl for the OPUS_GET_*_REQUEST codes that write one opus_int32.
static inline int agent_opus_decoder_get_int(OpusDecoder *decoder, int request, opus_int32 *value) {
    return opus_decoder_ctl(decoder, request, value);
}

static inline int agent_opus_decoder_reset(OpusDecoder *decoder) {
    return opus_decoder_ctl(decoder, OPUS_RESET_STATE);
}

// MARK: libvpx

static inline vpx_codec_err_t agent_vpx_codec_enc_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                       const vpx_codec_enc_cfg_t *cfg,
                                                       vpx_codec_flags_t flags) {
    return vpx_codec_enc_init(ctx, iface, cfg, flags);
}

static inline vpx_codec_err_t agent_vpx_codec_dec_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                       const vpx_codec_dec_cfg_t *cfg,
                                                       vpx_codec_flags_t flags) {
    return vpx_codec_dec_init(ctx, iface, cfg, flags);
}

/// vpx_codec_control for the controls whose argument is an int (VP8E_SET_CPUUSED, ...).
/// Controls typed `unsigned int` are passed the same way through the varargs.
static inline vpx_codec_err_t agent_vpx_codec_control_int(vpx_codec_ctx_t *ctx, int control, int value) {
    return vpx_codec_control_(ctx, control, value);
}

#endif
