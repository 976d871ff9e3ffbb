// Command subscriber records one VideoRoom publisher with Pion, as peers/subscriber.py does:
// it joins as a Janus 1.x multistream subscriber to the feed (--feed-id, or --feed-display
// found with listparticipants), answers Janus's offer, sends a PLI at once (and each second
// until a key frame), and writes into --out:
//
//	video.ivf     VP8 as received (Pion's ivfwriter), from the first key frame
//	video.h264    H.264 as received, Annex B (Pion's h264writer), from the first key frame
//	audio.ogg     Opus as received, granule positions from the RTP clock
//	summary.json  packet, loss, frame and key frame counts, codecs, picture size; at exit
//
// READY {"feed": ..., "room": ...} on stdout once ICE and DTLS are connected; runs until
// SIGTERM/SIGINT or --duration after READY. Errors go to stderr with exit status 1.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pion/webrtc/v3"

	"agentd-peers/janus"
	"agentd-peers/labnet"
	"agentd-peers/peer"
)

type options struct {
	room        peer.Room
	feedDisplay string
	feedID      string
	out         string
	findTimeout time.Duration
}

func parse() options {
	var o options
	var find float64
	flags := o.room.Parse("subscriber", "usage: subscriber --ws URL --room ROOM (--feed-display NAME | --feed-id ID) --out DIR [options]",
		false, func(flags *flag.FlagSet) {
			flags.StringVar(&o.feedDisplay, "feed-display", "", "subscribe to the publisher with this display name")
			flags.StringVar(&o.feedID, "feed-id", "", "subscribe to this publisher id")
			flags.StringVar(&o.out, "out", "", "output directory (created) (required)")
			flags.Float64Var(&find, "find-timeout", 15, "seconds to wait for the feed (and its room) to appear")
		})
	switch {
	case (o.feedDisplay == "") == (o.feedID == ""):
		peer.Usage(flags, errors.New("give one of --feed-display and --feed-id"))
	case o.out == "":
		peer.Usage(flags, errors.New("--out is required"))
	case find <= 0 || find > 600:
		peer.Usage(flags, errors.New("--find-timeout must be over 0 and at most 600 seconds"))
	}
	o.findTimeout = time.Duration(find * float64(time.Second))
	return o
}

func main() {
	o := parse()
	signals := peer.NotifyStop()
	if err := run(o, signals); err != nil {
		peer.Logf("subscriber: error: %v", err)
		os.Exit(1)
	}
}

// findFeed returns the feed's id as Janus spells it (a string with string_ids), polling
// listparticipants until the publisher appears; "no such room" (426) means not yet.
func findFeed(handle *janus.Handle, o options) (json.RawMessage, error) {
	if o.feedID != "" {
		return json.Marshal(o.feedID)
	}
	deadline := time.Now().Add(o.findTimeout)
	for {
		data, _, err := handle.Message(map[string]interface{}{"request": "listparticipants", "room": o.room.Room}, nil, 15*time.Second)
		var janusError *janus.Error
		if err != nil && !(errors.As(err, &janusError) && janusError.Code == peer.ErrorNoSuchRoom) {
			return nil, err
		}
		var list struct {
			Participants []struct {
				ID        json.RawMessage `json:"id"`
				Display   string          `json:"display"`
				Publisher bool            `json:"publisher"`
			} `json:"participants"`
		}
		if err == nil {
			if err := json.Unmarshal(data, &list); err != nil {
				return nil, fmt.Errorf("listparticipants reply: %w", err)
			}
		}
		for _, participant := range list.Participants {
			if participant.Display == o.feedDisplay && participant.Publisher {
				return participant.ID, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no publisher named %q in room %q after %v", o.feedDisplay, o.room.Room, o.findTimeout)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func run(o options, signals <-chan os.Signal) error {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	confinement, err := labnet.Confine(o.room.ICEAllow)
	if err != nil {
		return err
	}
	api, err := peer.NewAPI(confinement, peer.VP8, peer.H264, peer.Opus)
	if err != nil {
		return err
	}
	pc, err := api.NewPeerConnection(peer.Configuration())
	if err != nil {
		return err
	}
	link := peer.Watch(pc)

	var (
		mu        sync.Mutex
		recorders []*trackRecorder
		readers   sync.WaitGroup
		failures  = make(chan error, 4)
		done      = make(chan struct{})
		startedAt time.Time
		endedAt   time.Time
		feed      json.RawMessage
	)
	pc.OnTrack(func(track *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		recorder, err := newTrackRecorder(track, o.out)
		if err != nil {
			failures <- fmt.Errorf("%s track: %w", track.Kind(), err)
			return
		}
		mu.Lock()
		recorders = append(recorders, recorder)
		mu.Unlock()
		readers.Add(1)
		defer readers.Done()
		if track.Kind() == webrtc.RTPCodecTypeVideo {
			go recorder.requestKeyframes(pc, track.SSRC(), done)
		}
		recorder.record(track)
	})

	// Every path out writes summary.json, as peers/subscriber.py does.
	defer func() {
		close(done)
		pc.Close()
		readers.Wait()
		fields := map[string]interface{}{"room": o.room.Room, "feed": feed, "recorded_s": 0.0}
		if !startedAt.IsZero() {
			if endedAt.IsZero() {
				endedAt = time.Now()
			}
			fields["recorded_s"] = float64(endedAt.Sub(startedAt).Milliseconds()) / 1000
		}
		mu.Lock()
		for _, recorder := range recorders {
			if err := recorder.close(o.out); err != nil {
				peer.Logf("subscriber: closing %s: %v", recorder.file, err)
			}
			recorder.summary(fields)
		}
		mu.Unlock()
		if err := peer.WriteJSON(filepath.Join(o.out, "summary.json"), fields); err != nil {
			peer.Logf("subscriber: summary.json: %v", err)
		}
	}()

	client, handle, err := peer.OpenVideoRoom(&o.room)
	if err != nil {
		return err
	}
	defer client.Close()
	defer peer.Leave(client, handle, "subscriber", "leave")
	if feed, err = findFeed(handle, o); err != nil {
		return err
	}
	join := peer.JoinBody(&o.room, "subscriber")
	join["streams"] = []map[string]interface{}{{"feed": feed}}
	_, offer, err := peer.Expect(handle, join, nil, "videoroom", "attached", true)
	if err != nil {
		return err
	}
	if err := peer.SetRemote(pc, confinement, offer, "subscriber"); err != nil {
		return err
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		return err
	}
	local, err := peer.GatherAll(pc, answer, 10*time.Second)
	if err != nil {
		return err
	}
	if _, _, err := peer.Expect(handle, map[string]interface{}{"request": "start"}, local, "started", "ok", false); err != nil {
		return err
	}
	if err := handle.TrickleCompleted(); err != nil {
		return err
	}
	if err := link.WaitConnected(o.room.ConnectTimeout); err != nil {
		return err
	}
	startedAt = time.Now()
	fmt.Printf("READY {\"feed\": %s, \"room\": %q}\n", feed, o.room.Room)

	why := peer.Stops{Signals: signals, Duration: o.room.Duration, Client: client, Handle: handle, Link: link,
		Verbose: o.room.Verbose, Errors: failures}.Wait()
	endedAt = time.Now()
	if why != "" {
		return errors.New(why)
	}
	return nil
}
