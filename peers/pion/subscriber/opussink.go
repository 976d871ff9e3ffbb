package main

import (
	"github.com/pion/rtp"

	"agentd-peers/oggopus"
)

// opusSink writes received Opus packets to Ogg; each page's granule position is the end of its
// packet on the RTP clock (48 kHz) counted from the first packet, so gaps stay gaps. A packet
// that starts before the end of the last one written (late, duplicated) is dropped and counted.
type opusSink struct {
	writer    *oggopus.Writer
	clock     unwrapper
	started   bool
	first     int64
	end       uint64
	late      uint64
	malformed uint64
}

func newOpusSink(path string) (*opusSink, error) {
	writer, err := oggopus.Create(path)
	if err != nil {
		return nil, err
	}
	return &opusSink{writer: writer, clock: unwrapper{bits: 32}}, nil
}

func (s *opusSink) WriteRTP(packet *rtp.Packet) error {
	if len(packet.Payload) == 0 {
		return nil
	}
	samples, err := oggopus.PacketSamples(packet.Payload)
	if err != nil {
		s.malformed++
		return nil
	}
	at := s.clock.unwrap(packet.Timestamp)
	if !s.started {
		s.started, s.first = true, at
	}
	start := at - s.first
	if start < 0 || (s.writer.Packets > 0 && uint64(start) < s.end) {
		s.late++
		return nil
	}
	end := uint64(start) + uint64(samples)
	if err := s.writer.WritePacket(packet.Payload, end); err != nil {
		return err
	}
	s.end = end
	return nil
}

func (s *opusSink) Close() error { return s.writer.Close() }
