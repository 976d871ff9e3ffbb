package oggopus

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// FormatError says where and why a file is not Ogg Opus as RFC 3533 / RFC 7845 describe it.
type FormatError struct {
	Offset int64
	Reason string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("Ogg Opus at byte %d: %s", e.Offset, e.Reason)
}

// Head is the identification header of RFC 7845 §5.1 ("OpusHead").
type Head struct {
	Channels   uint8
	PreSkip    uint16
	InputRate  uint32
	OutputGain int16
	Mapping    uint8
}

// maxPacket bounds one Ogg packet; an Opus audio packet is at most 1275 bytes per frame × 48
// frames (RFC 6716 §3.4), the comment header holds tags, and 1 MiB is far over both.
const maxPacket = 1 << 20

const pageHeaderSize = 27

// Reader yields the Opus packets of the first logical stream of an Ogg file, in order,
// reassembled from lacing values across pages (RFC 3533 §5, §6).
type Reader struct {
	in      io.Reader
	offset  int64
	serial  uint32
	started bool
	partial []byte   // a packet continued on the next page
	ready   [][]byte // packets completed on the current page
	ended   bool     // the page with the end-of-stream flag has been read
	Head    Head
}

// NewReader reads the identification and comment headers (RFC 7845 §3) and returns a reader
// positioned at the first audio packet.
func NewReader(in io.Reader) (*Reader, error) {
	r := &Reader{in: in}
	head, err := r.NextPacket()
	if err != nil {
		return nil, err
	}
	if len(head) < 19 || string(head[:8]) != "OpusHead" {
		return nil, &FormatError{Offset: 0, Reason: "first packet is not an OpusHead header"}
	}
	if head[8]>>4 != 0 {
		return nil, &FormatError{Offset: 0, Reason: fmt.Sprintf("OpusHead version %d is not 0.x", head[8])}
	}
	r.Head = Head{
		Channels:   head[9],
		PreSkip:    binary.LittleEndian.Uint16(head[10:12]),
		InputRate:  binary.LittleEndian.Uint32(head[12:16]),
		OutputGain: int16(binary.LittleEndian.Uint16(head[16:18])),
		Mapping:    head[18],
	}
	if r.Head.Channels == 0 {
		return nil, &FormatError{Offset: 0, Reason: "OpusHead with zero channels"}
	}
	tags, err := r.NextPacket()
	if err != nil {
		return nil, err
	}
	if len(tags) < 8 || string(tags[:8]) != "OpusTags" {
		return nil, &FormatError{Offset: r.offset, Reason: "second packet is not an OpusTags header"}
	}
	return r, nil
}

// NextPacket returns the next packet, or io.EOF after the last one.
func (r *Reader) NextPacket() ([]byte, error) {
	for len(r.ready) == 0 {
		if r.ended {
			return nil, io.EOF
		}
		if err := r.readPage(); err != nil {
			return nil, err
		}
	}
	packet := r.ready[0]
	r.ready = r.ready[1:]
	return packet, nil
}

// readPage reads one page (RFC 3533 §6):
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	| capture_pattern: Magic number for page start "OggS"           |
//	| version       | header_type   | granule_position              |
//	|                         (64 bits)             | bitstream_serial_number ...
//	| page_sequence_number | CRC_checksum | page_segments | segment_table ...
//
// Lacing values of 255 continue a packet; a smaller one ends it (§5).
func (r *Reader) readPage() error {
	start := r.offset
	header := make([]byte, pageHeaderSize)
	if _, err := io.ReadFull(r.in, header); err != nil {
		if errors.Is(err, io.EOF) && len(r.partial) == 0 && r.started {
			r.ended = true
			return nil // a stream without an end-of-stream page: accept a clean end
		}
		return &FormatError{Offset: start, Reason: "truncated page header"}
	}
	if string(header[:4]) != "OggS" {
		return &FormatError{Offset: start, Reason: "no OggS capture pattern"}
	}
	if header[4] != 0 {
		return &FormatError{Offset: start, Reason: fmt.Sprintf("stream structure version %d", header[4])}
	}
	flags := header[5]
	serial := binary.LittleEndian.Uint32(header[14:18])
	expected := binary.LittleEndian.Uint32(header[22:26])
	segments := make([]byte, header[26])
	if _, err := io.ReadFull(r.in, segments); err != nil {
		return &FormatError{Offset: start, Reason: "truncated segment table"}
	}
	size := 0
	for _, lacing := range segments {
		size += int(lacing)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r.in, body); err != nil {
		return &FormatError{Offset: start, Reason: fmt.Sprintf("page body of %d bytes is truncated", size)}
	}
	r.offset += int64(pageHeaderSize + len(segments) + size)
	copy(header[22:26], []byte{0, 0, 0, 0})
	if got := pageChecksum(header, segments, body); got != expected {
		return &FormatError{Offset: start, Reason: fmt.Sprintf("page checksum %08x, expected %08x", got, expected)}
	}
	if !r.started {
		if flags&0x02 == 0 || flags&0x01 != 0 {
			return &FormatError{Offset: start, Reason: "first page lacks the beginning-of-stream flag or continues a packet"}
		}
		r.started, r.serial = true, serial
	} else if serial != r.serial {
		return nil // another logical stream, multiplexed in: not ours
	}
	if flags&0x01 == 0 && len(r.partial) != 0 {
		return &FormatError{Offset: start, Reason: "a packet continues but the page is not a continuation"}
	}
	at := 0
	for _, lacing := range segments {
		r.partial = append(r.partial, body[at:at+int(lacing)]...)
		at += int(lacing)
		if len(r.partial) > maxPacket {
			return &FormatError{Offset: start, Reason: fmt.Sprintf("packet over %d bytes", maxPacket)}
		}
		if lacing < 255 {
			r.ready = append(r.ready, r.partial)
			r.partial = nil
		}
	}
	if flags&0x04 != 0 {
		r.ended = true
	}
	return nil
}
