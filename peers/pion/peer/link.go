package peer

import (
	"fmt"
	"sync"
	"time"

	"github.com/pion/webrtc/v3"
)

// Link follows a PeerConnection's state: Connected closes on the first "connected", Failed
// on "failed" or "closed" (Pion keeps one state handler per PeerConnection: this is it).
type Link struct {
	Connected chan struct{}
	Failed    chan struct{}
	mu        sync.Mutex
	state     webrtc.PeerConnectionState
	connected sync.Once
	failed    sync.Once
}

// Watch installs the state handler on pc.
func Watch(pc *webrtc.PeerConnection) *Link {
	link := &Link{Connected: make(chan struct{}), Failed: make(chan struct{})}
	pc.OnConnectionStateChange(func(state webrtc.PeerConnectionState) {
		link.mu.Lock()
		link.state = state
		link.mu.Unlock()
		switch state {
		case webrtc.PeerConnectionStateConnected:
			link.connected.Do(func() { close(link.Connected) })
		case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed:
			link.failed.Do(func() { close(link.Failed) })
		}
	})
	return link
}

// State is the last state seen.
func (l *Link) State() webrtc.PeerConnectionState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state
}

// WaitConnected waits for ICE and DTLS to connect.
func (l *Link) WaitConnected(timeout time.Duration) error {
	select {
	case <-l.Connected:
		return nil
	case <-l.Failed:
		return fmt.Errorf("ICE/DTLS connection failed")
	case <-time.After(timeout):
		return fmt.Errorf("not connected within %v (state %s)", timeout, l.State())
	}
}

// GatherAll sets the local description and waits for ICE gathering to finish, so the SDP sent
// to Janus holds every candidate (the peers do not trickle).
func GatherAll(pc *webrtc.PeerConnection, description webrtc.SessionDescription, timeout time.Duration) (*webrtc.SessionDescription, error) {
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(description); err != nil {
		return nil, err
	}
	select {
	case <-gathered:
	case <-time.After(timeout):
		return nil, fmt.Errorf("ICE gathering did not finish within %v", timeout)
	}
	return pc.LocalDescription(), nil
}
