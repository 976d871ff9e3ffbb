package janus

import (
	"encoding/json"
	"time"

	"github.com/pion/webrtc/v3"
)

// VideoRoom is the plugin the peers attach to.
const VideoRoom = "janus.plugin.videoroom"

// Handle is a plugin handle; unsolicited events for it arrive on Events.
type Handle struct {
	client *Client
	ID     uint64
	events chan Message
}

// Events delivers the handle's messages that answer no request (webrtcup, hangup, plugin events).
func (h *Handle) Events() <-chan Message { return h.events }

// Message sends a plugin message and returns the plugin's data and JSEP; a plugin error
// (error_code in the data) is returned as *Error.
func (h *Handle) Message(body map[string]interface{}, jsep *webrtc.SessionDescription, timeout time.Duration) (json.RawMessage, *webrtc.SessionDescription, error) {
	msg := map[string]interface{}{"janus": "message", "body": body}
	if jsep != nil {
		msg["jsep"] = jsep
	}
	reply, err := h.client.Request(msg, h.ID, false, timeout)
	if err != nil {
		return nil, nil, err
	}
	if reply.PluginData == nil {
		return nil, reply.JSEP, &Error{Code: 0, Reason: "reply without plugindata: " + reply.Janus}
	}
	data := reply.PluginData.Data
	var failure pluginError
	if json.Unmarshal(data, &failure) == nil && (failure.ErrorCode != 0 || failure.Error != "") {
		return data, reply.JSEP, &Error{Code: failure.ErrorCode, Reason: failure.Error}
	}
	return data, reply.JSEP, nil
}

// TrickleCompleted tells Janus no more candidates follow (all are in the SDP).
func (h *Handle) TrickleCompleted() error {
	_, err := h.client.Request(map[string]interface{}{"janus": "trickle", "candidate": map[string]interface{}{"completed": true}},
		h.ID, true, 10*time.Second)
	return err
}

// Detach detaches the handle.
func (h *Handle) Detach() error {
	_, err := h.client.Request(map[string]interface{}{"janus": "detach"}, h.ID, false, 5*time.Second)
	return err
}
