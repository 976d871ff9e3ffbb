package main

import (
	"errors"
	"fmt"
	"math/bits"
	"time"
)

// source yields a file's frames in order, looped: each with its media time in clock ticks
// since the stream's start, which keeps growing across loops.
type source interface {
	next() (frame []byte, at uint64, err error)
	clockRate() uint64
	loops() int
	Close() error
}

// mulDiv is a*b/c without overflow in the product; an error when the result is over 64 bits.
func mulDiv(a, b, c uint64) (uint64, error) {
	if c == 0 {
		return 0, errors.New("division by zero")
	}
	high, low := bits.Mul64(a, b)
	if high >= c {
		return 0, fmt.Errorf("%d×%d/%d is over 64 bits", a, b, c)
	}
	quotient, _ := bits.Div64(high, low, c)
	return quotient, nil
}

// pace sends src's frames on stream at start + their media time until stop closes; a frame
// behind time goes at once. It returns the first read error, nil when stopped.
func pace(src source, stream *rtpStream, start time.Time, stop <-chan struct{}) error {
	rate := src.clockRate()
	for {
		frame, at, err := src.next()
		if err != nil {
			return err
		}
		nanoseconds, err := mulDiv(at, uint64(time.Second), rate)
		if err != nil || nanoseconds > uint64(1<<62) {
			return fmt.Errorf("media time %d at %d Hz is out of range", at, rate)
		}
		if wait := time.Until(start.Add(time.Duration(nanoseconds))); wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-stop:
				timer.Stop()
				return nil
			case <-timer.C:
			}
		} else {
			select {
			case <-stop:
				return nil
			default:
			}
		}
		stream.send(frame, at)
	}
}
