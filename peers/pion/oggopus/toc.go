package oggopus

import "fmt"

// frameSamples48k is the frame length for each Opus TOC config (RFC 6716 §3.1, Table 2), in
// samples at 48 kHz: configs 0-11 SILK (10, 20, 40, 60 ms per bandwidth), 12-15 Hybrid (10,
// 20 ms), 16-31 CELT (2.5, 5, 10, 20 ms).
var frameSamples48k = [32]int{
	480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 1920, 2880,
	480, 960, 480, 960,
	120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960,
}

// maxPacketSamples48k: an Opus packet holds at most 120 ms of audio (RFC 6716 §3.2.5).
const maxPacketSamples48k = 5760

// PacketSamples is the duration of an Opus packet in samples at 48 kHz, from its TOC byte
// (RFC 6716 §3.1):
//
//	 0 1 2 3 4 5 6 7
//	+-+-+-+-+-+-+-+-+
//	| config  |s| c |
//	+-+-+-+-+-+-+-+-+
//
// c is the frame count code: 0 one frame, 1 and 2 two frames, 3 an arbitrary count M in the
// low six bits of the next byte (§3.2.5).
func PacketSamples(packet []byte) (int, error) {
	if len(packet) == 0 {
		return 0, fmt.Errorf("empty Opus packet")
	}
	perFrame := frameSamples48k[packet[0]>>3]
	frames := 1
	switch packet[0] & 0x3 {
	case 1, 2:
		frames = 2
	case 3:
		if len(packet) < 2 {
			return 0, fmt.Errorf("Opus code 3 packet without its frame count byte")
		}
		frames = int(packet[1] & 0x3f)
		if frames == 0 {
			return 0, fmt.Errorf("Opus code 3 packet with zero frames")
		}
	}
	if samples := perFrame * frames; samples <= maxPacketSamples48k {
		return samples, nil
	}
	return 0, fmt.Errorf("Opus packet of %d frames of %d samples is over 120 ms", frames, perFrame)
}

// IsStereo tells the TOC's stereo flag s.
func IsStereo(packet []byte) bool { return len(packet) > 0 && packet[0]&0x4 != 0 }
