package main

import (
	"encoding/binary"

	"github.com/pion/rtp/codecs"

	"agentd-peers/h264"
	"agentd-peers/vp8"
)

// frameInfo is what one RTP packet tells about its frame.
type frameInfo struct {
	keyframe      bool
	width, height int
}

// inspectVP8 reads the payload descriptor (RFC 7741 §4.2) and, at the start of a frame (S=1,
// partition 0), the VP8 frame tag and a key frame's size (RFC 6386 §9.1).
func inspectVP8(payload []byte) frameInfo {
	var descriptor codecs.VP8Packet
	frame, err := descriptor.Unmarshal(payload)
	if err != nil || descriptor.S != 1 || descriptor.PID != 0 || !vp8.IsKeyframe(frame) {
		return frameInfo{}
	}
	size, _ := vp8.KeyframeSize(frame)
	return frameInfo{keyframe: true, width: size.Width, height: size.Height}
}

// RTP payload structures for H.264 (RFC 6184 §5.2).
const (
	nalSTAPA = 24
	nalFUA   = 28
)

// inspectH264 looks at the NAL units a packet carries whole (single NAL unit, STAP-A §5.7.1)
// or starts (FU-A §5.8): an IDR slice or an SPS marks a key frame, and an SPS gives the size.
func inspectH264(payload []byte) frameInfo {
	var info frameInfo
	look := func(nal []byte) {
		if len(nal) == 0 {
			return
		}
		switch nal[0] & 0x1f {
		case h264.TypeIDR:
			info.keyframe = true
		case h264.TypeSPS:
			info.keyframe = true
			if size, err := h264.SPSSize(nal); err == nil {
				info.width, info.height = size.Width, size.Height
			}
		}
	}
	if len(payload) == 0 {
		return info
	}
	switch payload[0] & 0x1f {
	case nalSTAPA:
		for rest := payload[1:]; len(rest) >= 2; {
			size := int(binary.BigEndian.Uint16(rest))
			if size == 0 || 2+size > len(rest) {
				break
			}
			look(rest[2 : 2+size])
			rest = rest[2+size:]
		}
	case nalFUA:
		if len(payload) >= 2 && payload[1]&0x80 != 0 && payload[1]&0x1f == h264.TypeIDR {
			info.keyframe = true
		}
	default:
		look(payload)
	}
	return info
}
