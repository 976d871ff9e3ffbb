package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pion/webrtc/v3/pkg/media/ivfreader"
)

// ivfSource reads VP8 frames from an IVF file (32-byte file header, then a 12-byte header per
// frame: size and a timestamp in units of numerator/denominator seconds), looped.
type ivfSource struct {
	loopingFile
	reader      *ivfreader.IVFReader
	numerator   uint64
	denominator uint64
	offset      uint64 // timestamp units before this loop
	last, step  uint64 // last timestamp of this loop, the step before it
}

func openIVF(path string) (*ivfSource, error) {
	s := &ivfSource{step: 1}
	s.loopingFile = loopingFile{path: path, parse: func(file *os.File) error {
		reader, header, err := ivfreader.NewWith(file)
		switch {
		case err != nil:
			return err
		case header.FourCC != "VP80":
			return fmt.Errorf("holds %q, not VP8 (VP80)", header.FourCC)
		case header.TimebaseDenominator == 0 || header.TimebaseNumerator == 0:
			return fmt.Errorf("IVF time base %d/%d", header.TimebaseNumerator, header.TimebaseDenominator)
		}
		s.reader, s.numerator, s.denominator = reader, uint64(header.TimebaseNumerator), uint64(header.TimebaseDenominator)
		return nil
	}}
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *ivfSource) clockRate() uint64 { return 90000 }

func (s *ivfSource) next() ([]byte, uint64, error) {
	frame, header, err := s.reader.ParseNextFrame()
	if errors.Is(err, io.EOF) {
		// The next loop starts one frame step after this loop's last frame.
		offset := s.offset + s.last + s.step
		if err := s.rewind("frames"); err != nil {
			return nil, 0, err
		}
		s.offset, s.last = offset, 0
		frame, header, err = s.reader.ParseNextFrame()
	}
	if err != nil {
		return nil, 0, err
	}
	if s.items > 0 && header.Timestamp < s.last {
		return nil, 0, fmt.Errorf("IVF timestamps go backwards (%d after %d)", header.Timestamp, s.last)
	}
	if s.items > 0 && header.Timestamp > s.last {
		s.step = header.Timestamp - s.last
	}
	s.last = header.Timestamp
	s.items++
	at, err := mulDiv(s.offset+header.Timestamp, 90000*s.numerator, s.denominator)
	return frame, at, err
}
