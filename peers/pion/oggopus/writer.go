package oggopus

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand"
	"os"
)

// maxPagePacket is the largest packet one page carries: 255 lacing values (RFC 3533 §6); an
// Opus packet over RTP is far smaller.
const maxPagePacket = 255*255 - 1

// Writer writes an Ogg Opus file (RFC 7845) one packet per page. The identification header
// goes out with the first packet, so its channel count can follow that packet's TOC; the last
// packet is held back until Close to carry the end-of-stream flag (RFC 3533 §6).
type Writer struct {
	out      io.Writer
	file     *os.File
	serial   uint32
	sequence uint32
	started  bool
	held     []byte
	heldEnd  uint64
	closed   bool
	// Packets counts the audio packets written.
	Packets int
}

// Create writes to a new file at path.
func Create(path string) (*Writer, error) {
	file, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := NewWriter(file)
	w.file = file
	return w, nil
}

// NewWriter writes to out.
func NewWriter(out io.Writer) *Writer {
	return &Writer{out: out, serial: rand.Uint32()}
}

// WritePacket adds an Opus packet whose last sample is at granule end (samples at 48 kHz since
// the stream's start, RFC 7845 §4).
func (w *Writer) WritePacket(packet []byte, end uint64) error {
	if w.closed {
		return fmt.Errorf("Ogg writer is closed")
	}
	if len(packet) > maxPagePacket {
		return fmt.Errorf("Opus packet of %d bytes is over %d", len(packet), maxPagePacket)
	}
	if !w.started {
		if err := w.writeHeaders(IsStereo(packet)); err != nil {
			return err
		}
	}
	if w.held != nil {
		if err := w.writePage(w.held, w.heldEnd, 0); err != nil {
			return err
		}
	}
	w.held = append([]byte(nil), packet...)
	w.heldEnd = end
	w.Packets++
	return nil
}

// writeHeaders writes OpusHead (RFC 7845 §5.1) and OpusTags (§5.2), each on a page of its own
// with granule position 0. Pre-skip is 0: a stream received over RTP starts where it starts.
func (w *Writer) writeHeaders(stereo bool) error {
	w.started = true
	head := make([]byte, 19)
	copy(head, "OpusHead")
	head[8] = 1 // version
	head[9] = 1
	if stereo {
		head[9] = 2
	}
	binary.LittleEndian.PutUint16(head[10:], 0)     // pre-skip
	binary.LittleEndian.PutUint32(head[12:], 48000) // input sample rate
	binary.LittleEndian.PutUint16(head[16:], 0)     // output gain
	head[18] = 0                                    // channel mapping family 0: mono or stereo
	if err := w.writePage(head, 0, 0x02); err != nil {
		return err
	}
	vendor := "agentd-peers"
	tags := make([]byte, 8+4+len(vendor)+4)
	copy(tags, "OpusTags")
	binary.LittleEndian.PutUint32(tags[8:], uint32(len(vendor)))
	copy(tags[12:], vendor)
	return w.writePage(tags, 0, 0)
}

// writePage writes packet as one page (RFC 3533 §6): header, lacing values (a run of 255s and a
// final value under 255, which may be 0), then the packet.
func (w *Writer) writePage(packet []byte, granule uint64, flags byte) error {
	lacing := make([]byte, len(packet)/255+1)
	for i := range lacing[:len(lacing)-1] {
		lacing[i] = 255
	}
	lacing[len(lacing)-1] = byte(len(packet) % 255)
	header := make([]byte, pageHeaderSize)
	copy(header, "OggS")
	header[5] = flags
	binary.LittleEndian.PutUint64(header[6:], granule)
	binary.LittleEndian.PutUint32(header[14:], w.serial)
	binary.LittleEndian.PutUint32(header[18:], w.sequence)
	header[26] = byte(len(lacing))
	binary.LittleEndian.PutUint32(header[22:], pageChecksum(header, lacing, packet))
	w.sequence++
	for _, part := range [][]byte{header, lacing, packet} {
		if _, err := w.out.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// Close writes the held packet with the end-of-stream flag (or, with no audio at all, the bare
// headers) and closes the file. Idempotent; returns the first error.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	var err error
	if !w.started {
		err = w.writeHeaders(false)
	} else if w.held != nil {
		err = w.writePage(w.held, w.heldEnd, 0x04)
		w.held = nil
	}
	if w.file != nil {
		if closeErr := w.file.Close(); err == nil {
			err = closeErr
		}
	}
	return err
}
