package vp8

import "testing"

func TestKeyframeSize(t *testing.T) {
	// The first frame of agentd-samples' pattern-vp8.ivf (libvpx, 320x240): frame tag f0 4f 00
	// (key frame, version 0, shown, first partition 0x27f bytes), start code, 0x0140 × 0x00f0.
	key := []byte{0xf0, 0x4f, 0x00, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xf0, 0x00, 0x39, 0x17}
	if size, ok := KeyframeSize(key); !ok || size != (Size{320, 240}) {
		t.Fatalf("key frame: %v %v", size, ok)
	}
	// Its second frame, an interframe: tag f1 0b 00.
	if _, ok := KeyframeSize([]byte{0xf1, 0x0b, 0x00, 0xe4, 0, 0, 0, 0, 0, 0}); ok || IsKeyframe([]byte{0xf1}) {
		t.Fatal("an interframe read as a key frame")
	}
	// Scale bits (the top two of each size code) are not size: 0xc140 is 320 wide, upscaled.
	scaled := append([]byte(nil), key...)
	scaled[7] |= 0xc0
	if size, ok := KeyframeSize(scaled); !ok || size.Width != 320 {
		t.Fatalf("scaled: %v %v", size, ok)
	}
	for _, bad := range [][]byte{nil, key[:9], {0xf0, 0x4f, 0x00, 0x9d, 0x01, 0x2b, 0x40, 0x01, 0xf0, 0x00}} {
		if size, ok := KeyframeSize(bad); ok {
			t.Errorf("%x: %v", bad, size)
		}
	}
}
