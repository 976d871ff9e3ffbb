// Package vp8 reads what the peers need from VP8 frames (RFC 6386).
package vp8

// Size is a picture size in pixels.
type Size struct{ Width, Height int }

// IsKeyframe tells a key frame from the frame tag's first bit (RFC 6386 §9.1: key_frame,
// 0 for a key frame).
func IsKeyframe(frame []byte) bool { return len(frame) > 0 && frame[0]&0x01 == 0 }

// KeyframeSize reads a key frame's size (RFC 6386 §9.1):
//
//	frame tag (3 bytes) | start code 9d 01 2a | horizontal_size_code (16 bits LE) |
//	vertical_size_code (16 bits LE), each 14 bits of size and 2 of scale
//
// ok is false for an interframe or a frame too short or without the start code.
func KeyframeSize(frame []byte) (size Size, ok bool) {
	if len(frame) < 10 || !IsKeyframe(frame) || frame[3] != 0x9d || frame[4] != 0x01 || frame[5] != 0x2a {
		return Size{}, false
	}
	width := int(frame[6]) | int(frame[7]&0x3f)<<8
	height := int(frame[8]) | int(frame[9]&0x3f)<<8
	return Size{Width: width, Height: height}, width > 0 && height > 0
}
