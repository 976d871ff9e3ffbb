package oggopus

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"testing"
)

// ffmpegSine is `ffmpeg -f lavfi -i sine=f=440:d=0.1 -ar 48000 -ac 1 -c:a libopus -b:a 32k`
// (Debian ffmpeg 5.1, libopus 1.3): three pages, OpusHead (mono, pre-skip 312), OpusTags, and
// six 20 ms packets (TOC 0x78: Hybrid FB 20 ms, mono, one frame) on one end-of-stream page
// whose granule position is 5112 (312 + 100 ms of 4800 samples).
const ffmpegSine = "4f676753000200000000000000009443cb4300000000164eba6a01134f707573486561640101380180bb00000000004f676753000000000000000000009443cb4301000000afd43de6013e4f707573546167730d0000004c61766635392e32372e313030010000001d000000656e636f6465723d4c61766335392e33372e313030206c69626f7075734f6767530004f8130000000000009443cb43020000003587736006734a5654494178817bc61176f4750000078eca69dbbbe29fd3ac1b0ebde0fe4b06f83dcd0ca791183a5d4be1c914efff5204f0cfab8c5c9cf7600057137b97a90401109c4e599f961a4182d03fa61678a02d0fe8f340bc3dcc442818e6316f3bc61e602632282ff29564563441ff59227c4dc3634ea4ce894d789e1ea1e7fc954d4a9eb7ffe29679142861f24a9f4b389ea3c522f177ee29f943865dddef343d7e711c7cf07904467514317c9958aaf4dcca02142138ee52cfcb6d62bbe813fcf1e1d37899c25f732dd23339353664166617c08f9889b912a0ebb2ede36ef20fcfe3d22c093d05481cccf9f38c4fb8ef71784cec8b9624218f9560e4d1bf0950cb6df645349ee92d6dbb556fc0f0194d2a1c22e211bf5eb76c7899c25f732dd22def6a8a6f08fc43e2d798831275d44cd5325ec561650c812cc15cffb12d60ce1e9a799087c1724aa8d9de1717143a450f8ef55b77d92431ed61438d59cb455d93b861ac38eaebe716f071fd587899c25f732dd22d9e5c2ac00ccec8670c3e04f4e23a311e8ac29ddf1ea771f9a8dc241cda988cf97d701374b831c79a9b0bcb7339d6f297d32a3d69c3d6a03369a96aad08ba3149467881cd855090155ba59f5141c9e786376914f4f96f6ba1a4c18b0502855e5f72727a133fb8c9aa24bc14f5e15bed852c8d8bbf6cf3b2ef894a390823e6b42c1f11"

func fixture(t *testing.T) []byte {
	data, err := hex.DecodeString(ffmpegSine)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReadsFFmpegsFile(t *testing.T) {
	reader, err := NewReader(bytes.NewReader(fixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	if reader.Head != (Head{Channels: 1, PreSkip: 312, InputRate: 48000}) {
		t.Fatalf("head %+v", reader.Head)
	}
	var sizes []int
	total := 0
	for _, packet := range readAll(t, reader) {
		samples, err := PacketSamples(packet)
		if err != nil || packet[0] != 0x78 {
			t.Fatalf("packet %x: %v", packet[:1], err)
		}
		sizes = append(sizes, len(packet))
		total += samples
	}
	if want := []int{115, 74, 86, 84, 73, 65}; !equalInts(sizes, want) || total != 6*960 {
		t.Fatalf("packet sizes %v (want %v), %d samples", sizes, want, total)
	}
}

func TestChecksumMismatchAndTruncationAreErrors(t *testing.T) {
	data := fixture(t)
	corrupt := append([]byte(nil), data...)
	corrupt[40] ^= 0x01 // inside OpusHead's payload
	_, err := NewReader(bytes.NewReader(corrupt))
	var formatError *FormatError
	if !errors.As(err, &formatError) || formatError.Offset != 0 {
		t.Fatalf("corrupt page: %v", err)
	}
	for _, cut := range []int{10, 30, 60, 200} {
		reader, err := NewReader(bytes.NewReader(data[:cut]))
		if err == nil {
			_, err = reader.NextPacket()
		}
		if !errors.As(err, &formatError) {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
	if _, err := NewReader(bytes.NewReader([]byte("RIFF....WAVEfmt "))); !errors.As(err, &formatError) {
		t.Fatalf("not Ogg: %v", err)
	}
}

// page builds one Ogg page with the given lacing values over body.
func page(flags byte, sequence uint32, lacing []byte, body []byte) []byte {
	header := make([]byte, pageHeaderSize)
	copy(header, "OggS")
	header[5] = flags
	binary.LittleEndian.PutUint32(header[14:], 7)
	binary.LittleEndian.PutUint32(header[18:], sequence)
	header[26] = byte(len(lacing))
	binary.LittleEndian.PutUint32(header[22:], pageChecksum(header, lacing, body))
	return append(append(header, lacing...), body...)
}

func TestPacketsSpanPages(t *testing.T) {
	head := append([]byte("OpusHead"), 1, 2, 0, 0, 0x80, 0xbb, 0, 0, 0, 0, 0)
	tags := append([]byte("OpusTags"), 0, 0, 0, 0, 0, 0, 0, 0)
	long := bytes.Repeat([]byte{0xfc}, 300) // 255 on page 2, 45 on page 3
	var file []byte
	file = append(file, page(0x02, 0, []byte{19}, head)...)
	file = append(file, page(0, 1, []byte{16, 3, 255}, append(append(append([]byte(nil), tags...), 0xfc, 1, 2), long[:255]...))...)
	file = append(file, page(0x01|0x04, 2, []byte{45, 2}, append(append([]byte(nil), long[255:]...), 0xfc, 9))...)
	reader, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, reader)
	if len(got) != 3 || !bytes.Equal(got[0], []byte{0xfc, 1, 2}) || !bytes.Equal(got[1], long) || !bytes.Equal(got[2], []byte{0xfc, 9}) {
		t.Fatalf("packets %d: %x", len(got), got)
	}
}

func TestWriterRoundTripsPacketsOfEverySize(t *testing.T) {
	var file bytes.Buffer
	writer := NewWriter(&file)
	sizes := []int{1, 254, 255, 256, 510, 1275}
	for i, size := range sizes {
		packet := bytes.Repeat([]byte{byte(i)}, size)
		packet[0] = 0xfc // CELT FB 20 ms, stereo
		if err := writer.WritePacket(packet, uint64(960*(i+1))); err != nil {
			t.Fatal(err)
		}
	}
	if err := writer.Close(); err != nil || writer.Close() != nil {
		t.Fatal(err)
	}
	reader, err := NewReader(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if reader.Head.Channels != 2 {
		t.Fatalf("channels %d from a stereo TOC", reader.Head.Channels)
	}
	for i, size := range sizes {
		packet, err := reader.NextPacket()
		if err != nil || len(packet) != size || packet[len(packet)-1] != byte(i) && size > 1 {
			t.Fatalf("packet %d: %d bytes, %v", i, len(packet), err)
		}
	}
	if _, err := reader.NextPacket(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last packet: %v", err)
	}
	last := file.Bytes()[bytes.LastIndex(file.Bytes(), []byte("OggS")):]
	if last[5] != 0x04 || binary.LittleEndian.Uint64(last[6:]) != 960*uint64(len(sizes)) {
		t.Fatalf("last page flags %x granule %d", last[5], binary.LittleEndian.Uint64(last[6:]))
	}
}

func TestPacketSamplesFollowsTheTOC(t *testing.T) {
	cases := []struct {
		packet  []byte
		samples int
	}{
		{[]byte{0xfc}, 960},           // config 31 CELT FB 20 ms, stereo, code 0
		{[]byte{0x78}, 960},           // config 15 Hybrid FB 20 ms
		{[]byte{0x80}, 120},           // config 16 CELT NB 2.5 ms
		{[]byte{0x19}, 2 * 2880},      // config 3 SILK NB 60 ms, code 1: two frames
		{[]byte{0x03, 0x05}, 5 * 480}, // config 0 SILK NB 10 ms, code 3, M = 5
	}
	for _, c := range cases {
		got, err := PacketSamples(c.packet)
		if err != nil || got != c.samples {
			t.Errorf("%x: %d, %v; want %d", c.packet, got, err, c.samples)
		}
	}
	for _, bad := range [][]byte{{}, {0x03}, {0x03, 0x00}, {0x1b, 0x03}} { // empty, no M, M = 0, 3 × 60 ms
		if samples, err := PacketSamples(bad); err == nil {
			t.Errorf("%x: %d samples, want an error", bad, samples)
		}
	}
}

// readAll reads every packet to io.EOF, failing the test on any other error.
func readAll(t *testing.T, reader *Reader) [][]byte {
	var packets [][]byte
	for {
		packet, err := reader.NextPacket()
		if errors.Is(err, io.EOF) {
			return packets
		}
		if err != nil {
			t.Fatal(err)
		}
		packets = append(packets, packet)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
