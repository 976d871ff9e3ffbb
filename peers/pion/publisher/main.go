// Command publisher joins a Janus VideoRoom and publishes files with Pion: VP8 from an IVF
// file (--ivf, paced by its timestamps) or H.264 from an Annex B file (--h264, at --fps), and
// Opus from an Ogg file (--ogg), all looped. It mirrors peers/publisher.py: READY
// {"id": ..., "room": ...} on stdout once ICE and DTLS are connected; runs until SIGTERM/SIGINT
// or --duration, then unpublishes, leaves and destroys the session; errors go to stderr with
// exit status 1 (2 for bad arguments). --summary FILE writes what was sent as JSON.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp/codecs"
	"github.com/pion/webrtc/v3"

	"agentd-peers/labnet"
	"agentd-peers/peer"
)

type options struct {
	room    peer.Room
	ivf     string
	h264    string
	ogg     string
	fps     float64
	summary string
}

func parse() options {
	var o options
	flags := o.room.Parse("publisher", "usage: publisher --ws URL --room ROOM --display NAME [--ivf FILE | --h264 FILE] [--ogg FILE] [options]",
		true, func(flags *flag.FlagSet) {
			flags.StringVar(&o.ivf, "ivf", "", "VP8 video from this IVF file, paced by its timestamps, looped")
			flags.StringVar(&o.h264, "h264", "", "H.264 video from this Annex B file at --fps, looped")
			flags.StringVar(&o.ogg, "ogg", "", "Opus audio from this Ogg file, looped")
			flags.Float64Var(&o.fps, "fps", 30, "frame rate of the --h264 file")
			flags.StringVar(&o.summary, "summary", "", "write what was sent to this JSON file at exit")
		})
	switch {
	case o.ivf != "" && o.h264 != "":
		peer.Usage(flags, errors.New("--ivf and --h264 are one video track: give one"))
	case o.ivf == "" && o.h264 == "" && o.ogg == "":
		peer.Usage(flags, errors.New("nothing to publish: give --ivf or --h264, and/or --ogg"))
	case o.fps <= 0 || o.fps > 240:
		peer.Usage(flags, errors.New("--fps must be over 0 and at most 240"))
	}
	return o
}

// track is one published file: its source, RTP stream and the RTCP it got back.
type track struct {
	kind   string
	codec  string
	source source
	stream *rtpStream
	sender *webrtc.RTPSender
	plis   uint64
	firs   uint64
	nacks  uint64
}

func (t *track) readRTCP() {
	for {
		packets, _, err := t.sender.ReadRTCP()
		if err != nil {
			return
		}
		for _, packet := range packets {
			switch packet := packet.(type) {
			case *rtcp.PictureLossIndication:
				atomic.AddUint64(&t.plis, 1)
			case *rtcp.FullIntraRequest:
				atomic.AddUint64(&t.firs, 1)
			case *rtcp.TransportLayerNack:
				atomic.AddUint64(&t.nacks, uint64(len(packet.Nacks)))
			}
		}
	}
}

func (t *track) report() map[string]interface{} {
	return map[string]interface{}{
		"codec": t.codec, "frames": atomic.LoadUint64(&t.stream.frames), "packets": atomic.LoadUint64(&t.stream.packets),
		"bytes": atomic.LoadUint64(&t.stream.bytes), "write_errors": atomic.LoadUint64(&t.stream.errors),
		"loops": t.source.loops(), "plis": atomic.LoadUint64(&t.plis), "firs": atomic.LoadUint64(&t.firs),
		"nacked": atomic.LoadUint64(&t.nacks),
	}
}

func main() {
	o := parse()
	signals := peer.NotifyStop()
	if err := run(o, signals); err != nil {
		peer.Logf("publisher: error: %v", err)
		os.Exit(1)
	}
}

// openTracks opens the files and makes a track for each.
func openTracks(o options) ([]*track, []webrtc.RTPCodecParameters, error) {
	var tracks []*track
	var used []webrtc.RTPCodecParameters
	add := func(kind string, codec webrtc.RTPCodecParameters, src source, payloader interface {
		Payload(uint16, []byte) [][]byte
	}) error {
		local, err := webrtc.NewTrackLocalStaticRTP(codec.RTPCodecCapability, kind, "pion-"+o.room.Display)
		if err != nil {
			return err
		}
		tracks = append(tracks, &track{kind: kind, codec: codec.MimeType, source: src,
			stream: newRTPStream(local, payloader, kind == "video")})
		used = append(used, codec)
		return nil
	}
	closeAll := func() {
		for _, t := range tracks {
			t.source.Close()
		}
	}
	if o.ogg != "" {
		src, err := openOgg(o.ogg)
		if err != nil {
			return nil, nil, err
		}
		if err := add("audio", peer.Opus, src, &codecs.OpusPayloader{}); err != nil {
			src.Close()
			return nil, nil, err
		}
	}
	if o.ivf != "" {
		src, err := openIVF(o.ivf)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		if err := add("video", peer.VP8, src, &codecs.VP8Payloader{EnablePictureID: true}); err != nil {
			src.Close()
			closeAll()
			return nil, nil, err
		}
	}
	if o.h264 != "" {
		src, err := openH264(o.h264, o.fps)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		if err := add("video", peer.H264, src, &codecs.H264Payloader{}); err != nil {
			src.Close()
			closeAll()
			return nil, nil, err
		}
	}
	return tracks, used, nil
}

func run(o options, signals <-chan os.Signal) (failure error) {
	confinement, err := labnet.Confine(o.room.ICEAllow)
	if err != nil {
		return err
	}
	tracks, used, err := openTracks(o)
	if err != nil {
		return err
	}
	defer func() {
		for _, t := range tracks {
			t.source.Close()
		}
	}()
	api, err := peer.NewAPI(confinement, used...)
	if err != nil {
		return err
	}
	pc, err := api.NewPeerConnection(peer.Configuration())
	if err != nil {
		return err
	}
	defer pc.Close()
	link := peer.Watch(pc)
	hasAudio, hasVideo := false, false
	for _, t := range tracks {
		transceiver, err := pc.AddTransceiverFromTrack(t.stream.track, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly})
		if err != nil {
			return err
		}
		t.sender = transceiver.Sender()
		hasAudio = hasAudio || t.kind == "audio"
		hasVideo = hasVideo || t.kind == "video"
	}

	client, handle, err := peer.OpenVideoRoom(&o.room)
	if err != nil {
		return err
	}
	defer client.Close()
	joined, published := false, false
	defer func() {
		var requests []string
		if published {
			requests = append(requests, "unpublish")
		}
		if joined {
			requests = append(requests, "leave")
		}
		peer.Leave(client, handle, "publisher", requests...)
	}()

	join := peer.JoinBody(&o.room, "publisher")
	join["display"] = o.room.Display
	data, _, err := peer.Expect(handle, join, nil, "videoroom", "joined", false)
	if err != nil {
		return err
	}
	var joinReply struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(data, &joinReply); err != nil {
		return err
	}
	joined = true

	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return err
	}
	local, err := peer.GatherAll(pc, offer, 10*time.Second)
	if err != nil {
		return err
	}
	_, answer, err := peer.Expect(handle, map[string]interface{}{"request": "configure", "audio": hasAudio, "video": hasVideo},
		local, "configured", "ok", true)
	if err != nil {
		return err
	}
	published = true
	if err := peer.SetRemote(pc, confinement, answer, "publisher"); err != nil {
		return err
	}
	if err := handle.TrickleCompleted(); err != nil {
		return err
	}
	if err := link.WaitConnected(o.room.ConnectTimeout); err != nil {
		return err
	}
	fmt.Printf("READY {\"id\": %s, \"room\": %q}\n", joinReply.ID, o.room.Room)

	// Every track paces from one start, so audio and video share a timeline.
	start := time.Now()
	stop := make(chan struct{})
	var pacers sync.WaitGroup
	paceErrors := make(chan error, len(tracks))
	for _, t := range tracks {
		go t.readRTCP()
		pacers.Add(1)
		go func(t *track) {
			defer pacers.Done()
			if err := pace(t.source, t.stream, start, stop); err != nil {
				paceErrors <- fmt.Errorf("%s: %w", t.kind, err)
			}
		}(t)
	}
	why := peer.Stops{Signals: signals, Duration: o.room.Duration, Client: client, Handle: handle,
		Link: link, HangupEnd: true, Verbose: o.room.Verbose, Errors: paceErrors}.Wait()
	close(stop)
	pacers.Wait()

	report := map[string]interface{}{"room": o.room.Room, "display": o.room.Display, "sent_s": time.Since(start).Seconds()}
	for _, t := range tracks {
		report[t.kind] = t.report()
		text, _ := json.Marshal(t.report())
		peer.Logf("publisher: %s %s", t.kind, text)
	}
	if o.summary != "" {
		if err := peer.WriteJSON(o.summary, report); err != nil && why == "" {
			why = err.Error()
		}
	}
	if why != "" {
		return errors.New(why)
	}
	return nil
}
