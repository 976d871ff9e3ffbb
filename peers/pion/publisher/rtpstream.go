package main

import (
	"math/rand"
	"sync/atomic"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v3"
)

// rtpMTU is the largest RTP packet sent (header included), Pion's and libwebrtc's default.
const rtpMTU = 1200

// rtpStream packetizes frames onto a track with timestamps from the file's media time, never
// from summed durations: a frame at media time t (in clock ticks since the stream's start)
// goes out with timestamp base + t (RFC 3550 §5.1; base and the first sequence number are
// random). The track rewrites SSRC and payload type to what was negotiated.
type rtpStream struct {
	track     *webrtc.TrackLocalStaticRTP
	payloader rtp.Payloader
	video     bool // marker on a frame's last packet (RFC 7741 §4.1, RFC 6184 §5.1); audio: none
	sequence  uint16
	base      uint32
	frames    uint64
	packets   uint64
	bytes     uint64
	errors    uint64
}

func newRTPStream(track *webrtc.TrackLocalStaticRTP, payloader rtp.Payloader, video bool) *rtpStream {
	return &rtpStream{track: track, payloader: payloader, video: video,
		sequence: uint16(rand.Uint32()), base: rand.Uint32()}
}

func (s *rtpStream) send(frame []byte, mediaTime uint64) {
	payloads := s.payloader.Payload(rtpMTU-12, frame)
	for i, payload := range payloads {
		packet := &rtp.Packet{
			Header: rtp.Header{Version: 2, Marker: s.video && i == len(payloads)-1, SequenceNumber: s.sequence,
				Timestamp: s.base + uint32(mediaTime)},
			Payload: payload,
		}
		s.sequence++
		if err := s.track.WriteRTP(packet); err != nil {
			atomic.AddUint64(&s.errors, 1)
			continue
		}
		atomic.AddUint64(&s.packets, 1)
		atomic.AddUint64(&s.bytes, uint64(len(payload)))
	}
	atomic.AddUint64(&s.frames, 1)
}
