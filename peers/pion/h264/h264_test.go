package h264

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"testing"
)

// SPS NAL units written by libx264 (Debian ffmpeg 5.1, -f h264) for lavfi testsrc.
var spsVectors = []struct {
	name string
	hex  string
	size Size
}{
	// Baseline 3.1 (profile_idc 66): no chroma fields; "000003" holds an emulation prevention byte.
	{"320x240 baseline", "6742c00dd90141fb0110000003001000000303c0f142a480", Size{320, 240}},
	// High (profile_idc 100): chroma_format_idc 1; 1088 coded rows cropped by 4 × CropUnitY 2.
	{"1920x1080 high", "67640028acd940780227e5c044000003000400000300f03c60c658", Size{1920, 1080}},
	// Main (profile_idc 77), 11 × 9 macroblocks.
	{"176x144 main", "674d400beca162760220000003002000000781e28532c0", Size{176, 144}},
}

func TestSPSSize(t *testing.T) {
	for _, vector := range spsVectors {
		nal, err := hex.DecodeString(vector.hex)
		if err != nil {
			t.Fatal(err)
		}
		size, err := SPSSize(nal)
		if err != nil || size != vector.size {
			t.Errorf("%s: %v, %v", vector.name, size, err)
		}
		// A cut inside the fields up to frame cropping is an error; one in the VUI after them
		// leaves the size readable. Never a wrong size.
		for cut := 4; cut < len(nal); cut++ {
			size, err := SPSSize(nal[:cut])
			if (err == nil && size != vector.size) || (err == nil && cut <= 6) {
				t.Errorf("%s cut to %d bytes: %v, %v", vector.name, cut, size, err)
			}
		}
	}
	if _, err := SPSSize([]byte{0x68, 0xce, 0x38, 0x80}); err == nil { // a PPS
		t.Error("a PPS read as an SPS")
	}
}

func annexB(nals ...[]byte) []byte {
	var out []byte
	for _, nal := range nals {
		out = append(append(out, 0, 0, 0, 1), nal...)
	}
	return out
}

func TestAccessUnitsSplitAtPicturesAndParameterSets(t *testing.T) {
	sps := []byte{0x67, 0x42, 0xc0, 0x0d}
	pps := []byte{0x68, 0xce, 0x38, 0x80}
	idrFirst := []byte{0x65, 0x88, 0x84}  // first_mb_in_slice 0 (top bit set)
	idrSecond := []byte{0x65, 0x21, 0x10} // first_mb_in_slice > 0: same picture
	pFirst := []byte{0x41, 0x9a, 0x02}
	pNext := []byte{0x41, 0x9a, 0x03}
	stream := annexB(sps, pps, idrFirst, idrSecond, pFirst, []byte{0x09, 0xf0}, pNext)
	reader, err := NewAccessUnitReader(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	want := []AccessUnit{
		{AnnexB: annexB(sps, pps, idrFirst, idrSecond), IDR: true},
		{AnnexB: annexB(pFirst)},
		{AnnexB: annexB([]byte{0x09, 0xf0}, pNext)},
	}
	for i, expected := range want {
		unit, err := reader.Next()
		if err != nil || unit.IDR != expected.IDR || !bytes.Equal(unit.AnnexB, expected.AnnexB) {
			t.Fatalf("unit %d: %x idr %v (%v); want %x", i, unit.AnnexB, unit.IDR, err, expected.AnnexB)
		}
	}
	if _, err := reader.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last unit: %v", err)
	}
}
