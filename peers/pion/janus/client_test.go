package janus

import (
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"
)

// fakeTransport answers each sent request with the replies script gives for it.
type fakeTransport struct {
	incoming chan string
	sent     chan map[string]interface{}
	script   func(request map[string]interface{}) []string
}

func newFake(script func(map[string]interface{}) []string) *fakeTransport {
	return &fakeTransport{incoming: make(chan string, 16), sent: make(chan map[string]interface{}, 16), script: script}
}

func (f *fakeTransport) Send(text string) error {
	var request map[string]interface{}
	if err := json.Unmarshal([]byte(text), &request); err != nil {
		return err
	}
	f.sent <- request
	if request["janus"] == "destroy" {
		f.incoming <- withTransaction(request, `{"janus":"success"}`)
		return nil
	}
	for _, reply := range f.script(request) {
		f.incoming <- reply
	}
	return nil
}

func (f *fakeTransport) Receive() (string, error) {
	text, ok := <-f.incoming
	if !ok {
		return "", io.EOF
	}
	return text, nil
}

func (f *fakeTransport) Close() error {
	defer func() { _ = recover() }() // closing twice is fine for the tests
	close(f.incoming)
	return nil
}

func withTransaction(request map[string]interface{}, reply string) string {
	var msg map[string]interface{}
	if err := json.Unmarshal([]byte(reply), &msg); err != nil {
		panic(err)
	}
	msg["transaction"] = request["transaction"]
	text, _ := json.Marshal(msg)
	return string(text)
}

func TestAckThenEventIsTheReply(t *testing.T) {
	fake := newFake(func(request map[string]interface{}) []string {
		switch request["janus"] {
		case "create":
			return []string{withTransaction(request, `{"janus":"success","data":{"id":4242}}`)}
		case "attach":
			return []string{withTransaction(request, `{"janus":"success","sender":4242,"data":{"id":77}}`)}
		case "message":
			return []string{
				withTransaction(request, `{"janus":"ack"}`),
				withTransaction(request, `{"janus":"event","sender":77,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"joined","id":"p1"}},"jsep":{"type":"answer","sdp":"v=0\r\n"}}`),
			}
		}
		return nil
	})
	client := NewClient(fake, "tok", nil)
	defer client.Close()
	if err := client.CreateSession(time.Hour); err != nil {
		t.Fatal(err)
	}
	<-fake.sent // create
	handle, err := client.Attach(VideoRoom)
	if err != nil || handle.ID != 77 {
		t.Fatalf("attach: %v %v", handle, err)
	}
	attach := <-fake.sent
	if attach["session_id"] != float64(4242) || attach["token"] != "tok" || attach["plugin"] != VideoRoom {
		t.Fatalf("attach request: %v", attach)
	}
	data, jsep, err := handle.Message(map[string]interface{}{"request": "join"}, nil, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var joined struct{ Videoroom, ID string }
	if json.Unmarshal(data, &joined) != nil || joined.Videoroom != "joined" || joined.ID != "p1" || jsep == nil || jsep.SDP != "v=0\r\n" {
		t.Fatalf("join reply: %s %v", data, jsep)
	}
	message := <-fake.sent
	if message["handle_id"] != float64(77) {
		t.Fatalf("message request: %v", message)
	}
}

func TestPluginAndCoreErrors(t *testing.T) {
	fake := newFake(func(request map[string]interface{}) []string {
		if request["janus"] == "attach" {
			return []string{withTransaction(request, `{"janus":"error","error":{"code":460,"reason":"No such session"}}`)}
		}
		if request["janus"] == "message" {
			return []string{withTransaction(request, `{"janus":"success","plugindata":{"plugin":"x","data":{"error_code":426,"error":"No such room"}}}`)}
		}
		return nil
	})
	client := NewClient(fake, "", nil)
	defer client.Close()
	_, err := client.Attach(VideoRoom)
	var janusError *Error
	if !errors.As(err, &janusError) || janusError.Code != 460 {
		t.Fatalf("core error: %v", err)
	}
	handle := &Handle{client: client, ID: 5, events: make(chan Message, 1)}
	_, _, err = handle.Message(map[string]interface{}{"request": "listparticipants"}, nil, time.Second)
	if !errors.As(err, &janusError) || janusError.Code != 426 || janusError.Reason != "No such room" {
		t.Fatalf("plugin error: %v", err)
	}
}

func TestUnsolicitedEventsGoToTheirHandle(t *testing.T) {
	fake := newFake(func(map[string]interface{}) []string { return nil })
	client := NewClient(fake, "", nil)
	defer client.Close()
	handle := &Handle{client: client, ID: 9, events: make(chan Message, 1)}
	client.mu.Lock()
	client.handles[9] = handle
	client.mu.Unlock()
	fake.incoming <- `{"janus":"hangup","sender":9,"reason":"DTLS alert"}`
	select {
	case event := <-handle.Events():
		if event.Janus != "hangup" || event.Reason != "DTLS alert" {
			t.Fatalf("event: %+v", event)
		}
	case <-time.After(time.Second):
		t.Fatal("no event")
	}
}

func TestKeepaliveAckIsFinalAndTimeoutsReport(t *testing.T) {
	fake := newFake(func(request map[string]interface{}) []string {
		if request["janus"] == "keepalive" {
			return []string{withTransaction(request, `{"janus":"ack"}`)}
		}
		return []string{withTransaction(request, `{"janus":"ack"}`)} // an ack, then nothing
	})
	client := NewClient(fake, "", nil)
	defer client.Close()
	if _, err := client.Request(map[string]interface{}{"janus": "keepalive"}, 0, true, time.Second); err != nil {
		t.Fatalf("keepalive: %v", err)
	}
	if _, err := client.Request(map[string]interface{}{"janus": "message"}, 1, false, 50*time.Millisecond); err == nil {
		t.Fatal("a request with only an ack must time out")
	}
}

func TestRequestsFailOnceTheConnectionEnds(t *testing.T) {
	fake := newFake(func(map[string]interface{}) []string { return nil })
	client := NewClient(fake, "", nil)
	fake.Close()
	<-client.Done()
	if _, err := client.Request(map[string]interface{}{"janus": "create"}, 0, false, time.Second); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
	client.Close()
	client.Close()
}
