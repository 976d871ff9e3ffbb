package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v3"
	"github.com/pion/webrtc/v3/pkg/media"
	"github.com/pion/webrtc/v3/pkg/media/h264writer"
	"github.com/pion/webrtc/v3/pkg/media/ivfwriter"
)

// Keyframe requests on start: a PLI at once, then one a second until a key frame arrives.
const (
	pliInterval = time.Second
	pliAttempts = 10
)

// trackRecorder writes one remote track to its file and counts what arrived.
type trackRecorder struct {
	kind    string
	codec   string
	file    string
	writer  media.Writer
	inspect func([]byte) frameInfo
	opus    *opusSink

	mu            sync.Mutex
	packets       uint64
	bytes         uint64
	loss          lossCounter
	frames        uint64
	keyframes     uint64
	framesWritten uint64
	writing       bool // a key frame has begun: the writers keep everything from there
	frameIsKey    bool
	width, height int
	plisSent      uint64
	writeErrors   uint64
	firstError    string
}

// newTrackRecorder opens the file for track's codec in out: video.ivf (VP8, Pion's ivfwriter),
// video.h264 (H.264, h264writer), audio.ogg (Opus). Another codec is counted, not written.
func newTrackRecorder(track *webrtc.TrackRemote, out string) (*trackRecorder, error) {
	r := &trackRecorder{kind: track.Kind().String(), codec: strings.ToLower(strings.TrimPrefix(
		strings.TrimPrefix(track.Codec().MimeType, "video/"), "audio/"))}
	var err error
	switch track.Codec().MimeType {
	case webrtc.MimeTypeVP8:
		r.file = "video.ivf"
		r.writer, err = ivfwriter.New(filepath.Join(out, r.file))
		r.inspect = inspectVP8
	case webrtc.MimeTypeH264:
		r.file = "video.h264"
		r.writer, err = h264writer.New(filepath.Join(out, r.file))
		r.inspect = inspectH264
	case webrtc.MimeTypeOpus:
		r.file = "audio.ogg"
		r.opus, err = newOpusSink(filepath.Join(out, r.file))
		r.writer = r.opus
	}
	return r, err
}

// requestKeyframes sends a PLI (RFC 4585 §6.3.1) at once, then one a second until a key
// frame has arrived or done closes.
func (r *trackRecorder) requestKeyframes(pc *webrtc.PeerConnection, ssrc webrtc.SSRC, done <-chan struct{}) {
	ticker := time.NewTicker(pliInterval)
	defer ticker.Stop()
	for attempt := 0; attempt < pliAttempts; attempt++ {
		if attempt > 0 {
			select {
			case <-done:
				return
			case <-ticker.C:
			}
			r.mu.Lock()
			seen := r.keyframes > 0
			r.mu.Unlock()
			if seen {
				return
			}
		}
		if pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(ssrc)}}) == nil {
			r.mu.Lock()
			r.plisSent++
			r.mu.Unlock()
		}
	}
}

// record reads track until it ends.
func (r *trackRecorder) record(track *webrtc.TrackRemote) {
	for {
		packet, _, err := track.ReadRTP()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.noteError(err)
			}
			return
		}
		r.add(packet)
	}
}

func (r *trackRecorder) add(packet *rtp.Packet) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.packets++
	r.bytes += uint64(len(packet.Payload))
	r.loss.add(packet.SequenceNumber)
	if r.inspect != nil {
		info := r.inspect(packet.Payload)
		if info.keyframe {
			r.frameIsKey, r.writing = true, true
		}
		if info.width > 0 {
			r.width, r.height = info.width, info.height
		}
		if packet.Marker {
			r.frames++
			if r.frameIsKey {
				r.keyframes++
			}
			if r.writing {
				r.framesWritten++
			}
			r.frameIsKey = false
		}
	}
	if r.writer != nil {
		if err := r.writer.WriteRTP(packet); err != nil {
			r.writeErrors++
			if r.firstError == "" {
				r.firstError = err.Error()
			}
		}
	}
}

func (r *trackRecorder) noteError(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstError == "" {
		r.firstError = err.Error()
	}
}

// close closes the file (idempotent writers) and returns the first error.
func (r *trackRecorder) close(out string) error {
	if r.writer == nil {
		return nil
	}
	if err := r.writer.Close(); err != nil {
		return err
	}
	if r.codec == "vp8" && r.width > 0 {
		return patchIVFSize(filepath.Join(out, r.file), r.width, r.height)
	}
	return nil
}

// patchIVFSize writes the picture size into an IVF file header (bytes 12-15: width and height,
// 16 bits little-endian each), which Pion's ivfwriter always sets to 640×480.
func patchIVFSize(path string, width, height int) error {
	if width > 0xffff || height > 0xffff {
		return fmt.Errorf("%d×%d does not fit an IVF header", width, height)
	}
	file, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	size := make([]byte, 4)
	binary.LittleEndian.PutUint16(size, uint16(width))
	binary.LittleEndian.PutUint16(size[2:], uint16(height))
	if _, err := file.WriteAt(size, 12); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// summary adds the track's counts to fields, prefixed with its kind.
func (r *trackRecorder) summary(fields map[string]interface{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	prefix := r.kind + "_"
	fields[prefix+"codec"] = r.codec
	fields[prefix+"file"] = r.file
	fields[prefix+"packets"] = r.packets
	fields[prefix+"bytes"] = r.bytes
	fields[prefix+"lost"] = r.loss.lost
	fields[prefix+"write_errors"] = r.writeErrors
	if r.firstError != "" {
		fields[prefix+"first_error"] = r.firstError
	}
	if r.kind == "video" {
		fields["video_frames"] = r.frames
		fields["video_keyframes"] = r.keyframes
		fields["video_frames_written"] = r.framesWritten
		fields["video_width"] = r.width
		fields["video_height"] = r.height
		fields["plis_sent"] = r.plisSent
	}
	if r.opus != nil {
		fields["audio_samples"] = r.opus.end
		fields["audio_rate"] = 48000
		fields["audio_late"] = r.opus.late
		fields["audio_malformed"] = r.opus.malformed
	}
}
