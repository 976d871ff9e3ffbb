package main

// unwrapper extends RTP's 16-bit sequence numbers or 32-bit timestamps to 64 bits (RFC 3550
// §A.1): each value moves the last one by the shortest signed distance.
type unwrapper struct {
	started bool
	last    int64
	bits    uint
}

func (u *unwrapper) unwrap(value uint32) int64 {
	if !u.started {
		u.started = true
		u.last = int64(value)
		return u.last
	}
	span := int64(1) << u.bits
	delta := (int64(value) - u.last) % span
	if delta < 0 {
		delta += span
	}
	if delta >= span/2 {
		delta -= span
	}
	u.last += delta
	return u.last
}

// lossCounter counts packets missing from a stream's unwrapped sequence numbers (a late
// packet after its gap was counted is not subtracted again: this is a test peer's tally).
type lossCounter struct {
	sequence unwrapper
	highest  int64
	started  bool
	lost     uint64
}

func (l *lossCounter) add(sequenceNumber uint16) {
	at := l.sequence.unwrap(uint32(sequenceNumber))
	if !l.started {
		l.started, l.highest = true, at
		return
	}
	if at > l.highest {
		l.lost += uint64(at - l.highest - 1)
		l.highest = at
	}
}
