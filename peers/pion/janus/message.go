// Package janus is a small client for the Janus WebSocket API (Janus 1.x) used by the Pion
// test peers: sessions, plugin handles, transactions, keepalives.
//
// Janus answers a request with one or two messages carrying the request's "transaction": an
// "ack" (accepted, the result follows as an "event") and/or a final "success", "event" or
// "error". Messages without a pending transaction (webrtcup, media, hangup, slowlink,
// unsolicited plugin events) go to their handle's event channel.
package janus

import (
	"encoding/json"
	"fmt"

	"github.com/pion/webrtc/v3"
)

// Message is one Janus API message, as much of it as the peers read.
type Message struct {
	Janus       string                     `json:"janus"`
	Transaction string                     `json:"transaction,omitempty"`
	SessionID   uint64                     `json:"session_id,omitempty"`
	Sender      uint64                     `json:"sender,omitempty"`
	Data        json.RawMessage            `json:"data,omitempty"`
	Error       *ErrorBody                 `json:"error,omitempty"`
	PluginData  *PluginData                `json:"plugindata,omitempty"`
	JSEP        *webrtc.SessionDescription `json:"jsep,omitempty"`
	Reason      string                     `json:"reason,omitempty"`
}

// ErrorBody is the core error of an "error" reply.
type ErrorBody struct {
	Code   int    `json:"code"`
	Reason string `json:"reason"`
}

// PluginData is a plugin's reply or event.
type PluginData struct {
	Plugin string          `json:"plugin"`
	Data   json.RawMessage `json:"data"`
}

// Error is an error reply from Janus: a core "error" or a plugin's "error_code".
type Error struct {
	Code   int
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("janus error %d: %s", e.Code, e.Reason) }

// pluginError is the error part of a plugin's data, when it has one.
type pluginError struct {
	ErrorCode int    `json:"error_code"`
	Error     string `json:"error"`
}
