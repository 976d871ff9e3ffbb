package peer

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/pion/webrtc/v3"

	"agentd-peers/janus"
	"agentd-peers/labnet"
)

// Janus VideoRoom error codes the peers act on.
const (
	ErrorNoSuchRoom    = 426
	ErrorAlreadyExists = 427
)

// OpenVideoRoom connects to Janus, creates a session (keepalive every 15 s) and attaches a
// VideoRoom handle; with room.Create it creates the room first.
func OpenVideoRoom(room *Room) (*janus.Client, *janus.Handle, error) {
	var logf func(string, ...interface{})
	if room.Verbose {
		logf = Logf
	}
	client, err := janus.Dial(room.WS, room.Token, 10*time.Second, logf)
	if err != nil {
		return nil, nil, err
	}
	if err := client.CreateSession(15 * time.Second); err != nil {
		client.Close()
		return nil, nil, err
	}
	handle, err := client.Attach(janus.VideoRoom)
	if err != nil {
		client.Close()
		return nil, nil, err
	}
	if room.Create {
		body := map[string]interface{}{"request": "create", "room": room.Room, "publishers": room.MaxPublishers,
			"audiocodec": "opus", "videocodec": "vp8,vp9,h264"}
		if room.Pin != "" {
			body["pin"] = room.Pin
		}
		var janusError *janus.Error
		if _, _, err := handle.Message(body, nil, 15*time.Second); err != nil && !(errors.As(err, &janusError) && janusError.Code == ErrorAlreadyExists) {
			client.Close()
			return nil, nil, fmt.Errorf("creating room %q: %w", room.Room, err)
		}
	}
	return client, handle, nil
}

// JoinBody is a VideoRoom join request as ptype ("publisher", "subscriber"), with the pin.
func JoinBody(room *Room, ptype string) map[string]interface{} {
	body := map[string]interface{}{"request": "join", "ptype": ptype, "room": room.Room}
	if room.Pin != "" {
		body["pin"] = room.Pin
	}
	return body
}

// Expect sends a VideoRoom request and checks that the reply's data has key set to value
// ("videoroom": "joined", "configured": "ok", …) and, with wantJSEP, a JSEP; it returns both.
func Expect(handle *janus.Handle, body map[string]interface{}, jsep *webrtc.SessionDescription, key, value string,
	wantJSEP bool) (json.RawMessage, *webrtc.SessionDescription, error) {
	data, reply, err := handle.Message(body, jsep, 15*time.Second)
	if err != nil {
		return nil, nil, fmt.Errorf("%v: %w", body["request"], err)
	}
	var fields map[string]interface{}
	if json.Unmarshal(data, &fields) != nil || fields[key] != value || (wantJSEP && reply == nil) {
		return nil, nil, fmt.Errorf("unexpected %v reply: %s", body["request"], data)
	}
	return data, reply, nil
}

// SetRemote applies Janus's description to pc, its candidates confined to the lab subnet.
func SetRemote(pc *webrtc.PeerConnection, confinement labnet.Confinement, description *webrtc.SessionDescription, who string) error {
	if dropped := confinement.FilterDescription(description); dropped > 0 {
		Logf("%s: dropped %d remote candidates outside %s", who, dropped, confinement.Subnet)
	}
	if err := pc.SetRemoteDescription(*description); err != nil {
		return fmt.Errorf("Janus's %s: %w", description.Type, err)
	}
	return nil
}

// Leave sends requests (e.g. "unpublish", "leave") in order, then detaches the handle, unless
// the connection has already ended; failures are logged, for this runs on the way out.
func Leave(client *janus.Client, handle *janus.Handle, who string, requests ...string) {
	select {
	case <-client.Done():
		return
	default:
	}
	for _, request := range requests {
		if _, _, err := handle.Message(map[string]interface{}{"request": request}, nil, 5*time.Second); err != nil {
			Logf("%s: %s failed: %v", who, request, err)
		}
	}
	if err := handle.Detach(); err != nil {
		Logf("%s: detach failed: %v", who, err)
	}
}

// NotifyStop starts catching SIGTERM and SIGINT, which then end the run cleanly (Stops.Wait)
// instead of killing the process; call it first thing.
func NotifyStop() <-chan os.Signal {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	return signals
}

// Stops are what ends a peer's run.
type Stops struct {
	Signals   <-chan os.Signal
	Duration  time.Duration
	Client    *janus.Client
	Handle    *janus.Handle
	Link      *Link
	HangupEnd bool // a hangup or detach from Janus ends the run as a failure
	Verbose   bool
	Errors    <-chan error // the peer's own failures (a file that cannot be read further)
}

// Wait blocks until SIGTERM/SIGINT, the duration, an error on Errors, the end of the Janus connection or of the
// PeerConnection, or (HangupEnd) a hangup; it returns why the run failed, "" when it did not.
func (s Stops) Wait() string {
	var timeout <-chan time.Time
	if s.Duration > 0 {
		timer := time.NewTimer(s.Duration)
		defer timer.Stop()
		timeout = timer.C
	}
	for {
		select {
		case <-s.Signals:
			return ""
		case <-timeout:
			return ""
		case <-s.Client.Done():
			return "Janus WebSocket closed"
		case err := <-s.Errors:
			return err.Error()
		case <-s.Link.Failed:
			return "connection " + s.Link.State().String()
		case event := <-s.Handle.Events():
			switch {
			case s.HangupEnd && event.Janus == "hangup":
				return "Janus hung up: " + event.Reason
			case s.HangupEnd && event.Janus == "detached":
				return "Janus detached the handle"
			case s.Verbose:
				text, _ := json.Marshal(event)
				Logf("event: %.300s", text)
			}
		}
	}
}

// WriteJSON writes value to path as indented JSON with a final newline.
func WriteJSON(path string, value interface{}) error {
	text, err := json.MarshalIndent(value, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(text, '\n'), 0o644)
}
