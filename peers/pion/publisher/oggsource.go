package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"agentd-peers/oggopus"
)

// oggSource reads Opus packets from an Ogg Opus file, looped; each packet's media time is the
// sum of the sample counts of the packets before it (48 kHz, from their TOC bytes).
type oggSource struct {
	loopingFile
	reader  *oggopus.Reader
	samples uint64
}

func openOgg(path string) (*oggSource, error) {
	s := &oggSource{}
	s.loopingFile = loopingFile{path: path, parse: func(file *os.File) (err error) {
		s.reader, err = oggopus.NewReader(file)
		return err
	}}
	if err := s.open(); err != nil {
		return nil, err
	}
	if s.reader.Head.Channels > 2 || s.reader.Head.Mapping != 0 {
		s.Close()
		return nil, fmt.Errorf("%s: %d channels with mapping family %d; RTP carries mono or stereo Opus (family 0)",
			path, s.reader.Head.Channels, s.reader.Head.Mapping)
	}
	return s, nil
}

func (s *oggSource) clockRate() uint64 { return 48000 }

func (s *oggSource) next() ([]byte, uint64, error) {
	packet, err := s.reader.NextPacket()
	if errors.Is(err, io.EOF) {
		if err := s.rewind("audio packets"); err != nil {
			return nil, 0, err
		}
		packet, err = s.reader.NextPacket()
	}
	if err != nil {
		return nil, 0, err
	}
	samples, err := oggopus.PacketSamples(packet)
	if err != nil {
		return nil, 0, err
	}
	at := s.samples
	s.samples += uint64(samples)
	s.items++
	return packet, at, nil
}
