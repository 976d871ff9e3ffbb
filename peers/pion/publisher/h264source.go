package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"agentd-peers/h264"
)

// h264Source reads access units from an Annex B file, looped. The file has no timestamps:
// access unit n is at n/fps seconds, computed from n, not summed.
type h264Source struct {
	loopingFile
	reader *h264.AccessUnitReader
	fps    float64
	index  uint64
}

func openH264(path string, fps float64) (*h264Source, error) {
	s := &h264Source{fps: fps}
	s.loopingFile = loopingFile{path: path, parse: func(file *os.File) (err error) {
		s.reader, err = h264.NewAccessUnitReader(file)
		return err
	}}
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *h264Source) clockRate() uint64 { return 90000 }

func (s *h264Source) next() ([]byte, uint64, error) {
	unit, err := s.reader.Next()
	if errors.Is(err, io.EOF) {
		if err := s.rewind("access units"); err != nil {
			return nil, 0, err
		}
		unit, err = s.reader.Next()
	}
	if err != nil {
		return nil, 0, err
	}
	if s.items == 0 && !unit.IDR {
		return nil, 0, fmt.Errorf("%s does not start with an IDR picture", s.path)
	}
	at := uint64(float64(s.index) * 90000 / s.fps)
	s.index++
	s.items++
	return unit.AnnexB, at, nil
}
