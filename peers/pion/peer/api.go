// Package peer holds what the Pion publisher and subscriber share: their command-line
// conventions (those of peers/publisher.py and peers/subscriber.py), the WebRTC API confined
// to the lab, and the Janus session around a PeerConnection.
package peer

import (
	"github.com/pion/interceptor"
	"github.com/pion/webrtc/v3"

	"agentd-peers/labnet"
)

// Codecs the peers speak, with Chrome's payload types (Janus maps its own onto them).
var (
	VP8 = webrtc.RTPCodecParameters{
		RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, RTCPFeedback: videoFeedback},
		PayloadType:        96,
	}
	// H264 is Constrained Baseline 3.1 in packetization mode 1 (RFC 6184 §8.1), what Janus and
	// browsers agree on.
	H264 = webrtc.RTPCodecParameters{
		RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
			SDPFmtpLine:  "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
			RTCPFeedback: videoFeedback},
		PayloadType: 102,
	}
	Opus = webrtc.RTPCodecParameters{
		RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2,
			SDPFmtpLine: "minptime=10;useinbandfec=1"},
		PayloadType: 111,
	}
	videoFeedback = []webrtc.RTCPFeedback{{Type: "ccm", Parameter: "fir"}}
)

// NewAPI builds a WebRTC API that gathers only on the confinement's interface and address and
// knows only codecs: NACK (generator and responder) and RTCP sender and receiver reports come
// from Pion's interceptors; "nack" and "nack pli" feedback is registered with them.
func NewAPI(confinement labnet.Confinement, codecs ...webrtc.RTPCodecParameters) (*webrtc.API, error) {
	media := &webrtc.MediaEngine{}
	for _, codec := range codecs {
		kind := webrtc.RTPCodecTypeVideo
		if codec.MimeType == webrtc.MimeTypeOpus {
			kind = webrtc.RTPCodecTypeAudio
		}
		if err := media.RegisterCodec(codec, kind); err != nil {
			return nil, err
		}
	}
	interceptors := &interceptor.Registry{}
	if err := webrtc.ConfigureNack(media, interceptors); err != nil {
		return nil, err
	}
	if err := webrtc.ConfigureRTCPReports(interceptors); err != nil {
		return nil, err
	}
	settings := webrtc.SettingEngine{}
	confinement.Apply(&settings)
	return webrtc.NewAPI(webrtc.WithMediaEngine(media), webrtc.WithInterceptorRegistry(interceptors),
		webrtc.WithSettingEngine(settings)), nil
}

// Configuration is the PeerConnection configuration: no ICE servers at all (Pion adds none of
// its own), so no STUN request leaves the lab.
func Configuration() webrtc.Configuration {
	return webrtc.Configuration{ICEServers: []webrtc.ICEServer{}, BundlePolicy: webrtc.BundlePolicyMaxBundle}
}
